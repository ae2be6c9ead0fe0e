import { asc, and, eq, sql } from "drizzle-orm";
import type pg from "pg";
import {
  getSection,
  sections,
  type ContentSnapshot,
  type SectionDef,
  type SectionType,
} from "../../app/content/registry";
import { validateSection } from "../../app/content/validation";
import type { Db } from "../db/client";
import { contentEntries } from "../db/schema";
import { AppError, badRequest, isId, notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { audited, type Actor } from "./activity";

export type ContentRecord = { _id: string } & Record<string, unknown>;

const CHANNEL = "content_changed";

function emptySnapshot(): ContentSnapshot {
  return Object.fromEntries(sections.map((s) => [s.type, []])) as unknown as ContentSnapshot;
}

const toRecord = (row: { id: string; data: Record<string, unknown> }): ContentRecord => ({ _id: row.id, ...row.data });

export interface ContentServiceOptions {
  db: Db;
  pool: pg.Pool;
  logger: Logger;
  /** The snapshot is re-read at the latest after this long, even if a change notification was missed. */
  ttlMs: number;
  now?: () => number;
}

/**
 * Public content. Pages read one in-memory snapshot of every section, loaded with one query and dropped when any
 * instance changes content (PostgreSQL LISTEN/NOTIFY), so an anonymous page view costs no database round trip.
 */
export function createContentService({ db, pool, logger, ttlMs, now = Date.now }: ContentServiceOptions) {
  let snapshot: { value: ContentSnapshot; loadedAt: number } | undefined;
  let loading: Promise<ContentSnapshot> | undefined;
  let generation = 0;
  let listener: pg.PoolClient | undefined;
  let closed = false;

  function invalidate() {
    generation++;
    snapshot = undefined;
  }

  async function load(): Promise<ContentSnapshot> {
    const startedAt = generation;
    const rows = await db
      .select({ id: contentEntries.id, type: contentEntries.type, data: contentEntries.data })
      .from(contentEntries)
      .orderBy(asc(contentEntries.type), asc(contentEntries.position), asc(contentEntries.createdAt));
    const value = emptySnapshot() as unknown as Record<string, ContentRecord[]>;
    for (const row of rows) value[row.type]?.push(toRecord(row));
    const result = value as unknown as ContentSnapshot;
    // A change that arrived while we were reading must not be hidden behind a stale snapshot.
    if (startedAt === generation) snapshot = { value: result, loadedAt: now() };
    return result;
  }

  async function listen() {
    if (closed) return;
    try {
      listener = await pool.connect();
      listener.on("notification", () => invalidate());
      listener.on("error", (error) => {
        logger.warn("content change listener lost its connection; retrying", { error });
        listener?.release(true);
        listener = undefined;
        invalidate();
        setTimeout(() => void listen(), 1000).unref();
      });
      await listener.query(`listen ${CHANNEL}`);
    } catch (error) {
      logger.warn("could not listen for content changes; relying on the cache lifetime", { error });
      listener?.release(true);
      listener = undefined;
    }
  }

  async function notifyChanged(tx: Pick<Db, "execute">) {
    await tx.execute(sql`select pg_notify(${CHANNEL}, '')`);
  }

  function sectionOr404(type: string): SectionDef {
    const def = getSection(type);
    if (!def) throw notFound("Unknown section");
    return def;
  }

  return {
    /** A number that changes whenever content may have changed (for caches built on the snapshot). */
    generation: () => generation,

    /** Starts listening for changes made by any instance. */
    start: listen,

    /** Another service changed what public pages show (an image's alt text): tells every instance, inside `tx`. */
    changedIn: notifyChanged,
    /** Drops this instance's snapshot at once (after the transaction that called changedIn committed). */
    invalidate,

    async close() {
      closed = true;
      const l = listener;
      listener = undefined;
      if (l) {
        await l.query(`unlisten ${CHANNEL}`).catch(() => undefined);
        l.release();
      }
    },

    /** Every section's records, in display order. */
    async snapshot(): Promise<ContentSnapshot> {
      if (snapshot && now() - snapshot.loadedAt < ttlMs) return snapshot.value;
      loading ??= load().finally(() => (loading = undefined));
      return loading;
    },

    async list(type: SectionType): Promise<ContentRecord[]> {
      return (await this.snapshot())[type] as unknown as ContentRecord[];
    },

    async get(type: string, id: string): Promise<ContentRecord> {
      sectionOr404(type);
      if (!isId(id)) throw notFound();
      const [row] = await db
        .select({ id: contentEntries.id, data: contentEntries.data })
        .from(contentEntries)
        .where(and(eq(contentEntries.type, type), eq(contentEntries.id, id)));
      if (!row) throw notFound();
      return toRecord(row);
    },

    /** Adds a record; singletons and capped lists refuse past their limit (409). */
    async add(type: string, input: unknown, actor?: Actor): Promise<{ id: string }> {
      const def = sectionOr404(type);
      const parsed = validateSection(def, input);
      if (!parsed.ok) throw badRequest(parsed.errors);
      const limit = def.cardinality === "singleton" ? 1 : def.max;
      const id = await audited(db, actor, `content:${type}`, async (tx, audit) => {
        // Serialise adds of one section so that two admins cannot both add the last allowed record.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"content:" + type}))`);
        const [{ count, next }] = (
          await tx.execute<{ count: number; next: number }>(
            sql`select count(*)::int as count, coalesce(max(position) + 1, 0)::int as next
                from content_entries where type = ${type}`,
          )
        ).rows as [{ count: number; next: number }];
        if (limit !== undefined && count >= limit) {
          throw new AppError(409, def.maxNotice ?? `${def.title} already exists: edit it instead of adding another.`);
        }
        const [row] = await tx
          .insert(contentEntries)
          .values({ type, data: parsed.data, position: next })
          .returning({ id: contentEntries.id });
        await audit.created(row!.id, parsed.data);
        await notifyChanged(tx);
        return row!.id;
      });
      invalidate();
      return { id };
    },

    /** Replaces a record's fields; an unknown id is a 404, never an insert. */
    async update(type: string, id: string, input: unknown, actor?: Actor): Promise<{ modified: boolean }> {
      const def = sectionOr404(type);
      if (!isId(id)) throw notFound();
      const parsed = validateSection(def, input);
      if (!parsed.ok) throw badRequest(parsed.errors);
      const modified = await audited(db, actor, `content:${type}`, async (tx, audit) => {
        const [before] = await tx
          .select({ data: contentEntries.data })
          .from(contentEntries)
          .where(and(eq(contentEntries.type, type), eq(contentEntries.id, id)))
          .for("update");
        if (!before) throw notFound();
        if (JSON.stringify(before.data) === JSON.stringify(parsed.data)) return false;
        await tx
          .update(contentEntries)
          .set({ data: parsed.data, updatedAt: new Date() })
          .where(eq(contentEntries.id, id));
        await audit.updated(id, before.data, parsed.data);
        await notifyChanged(tx);
        return true;
      });
      if (modified) invalidate();
      return { modified };
    },

    /** Whether any content exists (an empty database gets the demo content). */
    async isEmpty(): Promise<boolean> {
      const rows = await db.select({ id: contentEntries.id }).from(contentEntries).limit(1);
      return rows.length === 0;
    },

    /** Inserts many records in one transaction (demo content). */
    async insertMany(records: { type: SectionType; data: Record<string, unknown> }[]): Promise<void> {
      const positions = new Map<string, number>();
      const values = records.map((r) => {
        const def = sectionOr404(r.type);
        const parsed = validateSection(def, r.data);
        if (!parsed.ok) {
          throw new Error(
            `Invalid ${r.type} record: ${parsed.errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
          );
        }
        const position = positions.get(r.type) ?? 0;
        positions.set(r.type, position + 1);
        return { type: r.type, data: parsed.data, position };
      });
      await db.transaction(async (tx) => {
        if (values.length) await tx.insert(contentEntries).values(values);
        await notifyChanged(tx);
      });
      invalidate();
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
