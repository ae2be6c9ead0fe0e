import { asc, and, eq, sql } from "drizzle-orm";
import type pg from "pg";
import {
  getSection,
  limitReachedText,
  recordLimit,
  recordTitle,
  sections,
  type ContentSnapshot,
  type SectionDef,
  type SectionType,
} from "#domain/registry.ts";
import { validateSection } from "#domain/validation.ts";
import { isDatabaseUnavailable, type Db } from "../db/client";
import { contentEntries } from "../db/schema";
import { AppError, badRequest, isId, notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { audited, diff, type Actor } from "./activity";
import type { Tx } from "./jobs";
import { putInTrash, type TrashedRow } from "./trash";

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
  /** The clock of the trash's dates (the services' one, which tests move). */
  clock?: () => Date;
}

/**
 * Public content. Pages read one in-memory snapshot of every section, loaded with one query and dropped when any
 * instance changes content (PostgreSQL LISTEN/NOTIFY), so an anonymous page view costs no database round trip.
 */
export function createContentService({
  db,
  pool,
  logger,
  ttlMs,
  now = Date.now,
  clock = () => new Date(),
}: ContentServiceOptions) {
  let snapshot: { value: ContentSnapshot; loadedAt: number } | undefined;
  /** The last snapshot read, served while the database cannot be reached (a stale page beats an error page). */
  let lastGood: ContentSnapshot | undefined;
  let failedAt = 0;
  /** The snapshot being read, and the generation it was started in. */
  let loading: { generation: number; promise: Promise<ContentSnapshot> } | undefined;
  let generation = 0;
  let listener: pg.PoolClient | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let attempts = 0;
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
    lastGood = result;
    // A change that arrived while we were reading must not be hidden behind a stale snapshot.
    if (startedAt === generation) snapshot = { value: result, loadedAt: now() };
    return result;
  }

  /**
   * LISTEN on a connection of its own, for as long as the service runs: a lost connection is replaced, with a
   * growing wait (0.5 s doubling up to 30 s) while the database is away, and the snapshot is dropped both when the
   * connection is lost and when it is back, since changes made in between were not heard.
   */
  async function listen() {
    reconnectTimer = undefined;
    if (closed) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      const connected = client;
      let lost = false;
      const onLost = (error?: Error) => {
        if (lost || closed) return; // at close the connection was handed back already
        lost = true;
        if (listener === connected) listener = undefined;
        connected.release(true);
        logger.warn({ error }, "content change listener lost its connection; reconnecting");
        invalidate();
        scheduleReconnect();
      };
      client.on("notification", () => invalidate());
      client.on("error", onLost);
      client.on("end", () => onLost());
      await client.query(`listen ${CHANNEL}`);
      if (closed) {
        connected.release();
        return;
      }
      listener = connected;
      if (attempts > 0) logger.info({ attempts }, "content change listener reconnected");
      attempts = 0;
      invalidate(); // whatever changed while we were not listening
    } catch (error) {
      client?.release(true);
      if (closed) return;
      logger.warn({ error, attempts }, "could not listen for content changes; retrying");
      scheduleReconnect();
    }
  }

  function scheduleReconnect() {
    if (closed || reconnectTimer) return;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(attempts, 6));
    attempts++;
    reconnectTimer = setTimeout(() => void listen(), delay * (0.8 + Math.random() * 0.4));
    reconnectTimer.unref();
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

    /** Whether changes made by other instances are being heard right now. */
    listening: () => listener !== undefined,

    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
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
      // The database failed a moment ago: the last snapshot read, rather than another wait for it.
      if (lastGood && now() - failedAt < 2000) return lastGood;
      // A load started before the latest change would hand its readers the content as it was: such a load is not
      // shared, and a new one starts (a page rendered for this generation must show this generation's content).
      if (!loading || loading.generation !== generation) {
        const started = { generation, promise: load() };
        loading = started;
        void started.promise.then(
          () => (loading === started ? (loading = undefined) : undefined),
          () => (loading === started ? (loading = undefined) : undefined),
        );
      }
      try {
        return await loading.promise;
      } catch (error) {
        if (!lastGood || !isDatabaseUnavailable(error)) throw error;
        failedAt = now();
        logger.warn({ error }, "the database is unreachable; serving the last content read");
        return lastGood;
      }
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
      const limit = recordLimit(def);
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
          throw new AppError(409, limitReachedText(def));
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
        // Field by field: jsonb keeps keys in an order of its own, so the same fields may serialise differently.
        if (Object.keys(diff(before.data, parsed.data)).length === 0) return false;
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

    /**
     * Deletes a record (a list's, or a singleton, whose add form then shows again); the public pages follow at once.
     * The record goes to the trash for 30 days (decision 039). An unknown id is a 404.
     */
    async remove(type: string, id: string, actor?: Actor): Promise<{ deleted: boolean }> {
      const def = sectionOr404(type);
      if (!isId(id)) throw notFound();
      await audited(db, actor, `content:${type}`, async (tx, audit) => {
        const [row] = await tx
          .delete(contentEntries)
          .where(and(eq(contentEntries.type, type), eq(contentEntries.id, id)))
          .returning();
        if (!row) throw notFound();
        await putInTrash(tx, {
          kind: "content",
          entity: `content:${type}`,
          recordId: id,
          title: recordTitle(def, row.data) || def.title,
          row: { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() },
          deletedAt: clock(),
          deletedBy: actor,
        });
        await audit.deleted(id, row.data);
        await notifyChanged(tx);
      });
      invalidate();
      return { deleted: true };
    },

    /**
     * Puts a list's records in the given order (every record of the section, each once: a list that changed meanwhile
     * is a 409, so two admins never interleave orders). Positions are stored; the public pages follow them.
     */
    async reorder(type: string, ids: unknown, actor?: Actor): Promise<{ modified: boolean }> {
      const def = sectionOr404(type);
      if (def.cardinality !== "list") throw new AppError(400, `${def.title} is a single record: it has no order.`);
      if (!Array.isArray(ids) || ids.some((i) => typeof i !== "string"))
        throw badRequest([{ field: "ids", message: "ids must be the list of the section's record ids, in order" }]);
      const wanted = ids as string[];
      const modified = await audited(db, actor, `content:${type}`, async (tx, audit) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"content:" + type}))`);
        const rows = await tx
          .select({ id: contentEntries.id, position: contentEntries.position })
          .from(contentEntries)
          .where(eq(contentEntries.type, type))
          .orderBy(asc(contentEntries.position), asc(contentEntries.createdAt));
        const current = rows.map((r) => r.id);
        if (
          wanted.length !== current.length ||
          new Set(wanted).size !== wanted.length ||
          !wanted.every((i) => current.includes(i))
        )
          throw new AppError(409, `The ${def.title} list has changed meanwhile: reload it and order it again.`);
        let changed = false;
        for (const [position, recordId] of wanted.entries()) {
          const before = rows.find((r) => r.id === recordId)!.position;
          if (before === position) continue;
          await tx
            .update(contentEntries)
            .set({ position, updatedAt: new Date() })
            .where(eq(contentEntries.id, recordId));
          // Positions as people count them (1 is the first).
          if (current.indexOf(recordId) !== position)
            await audit.updated(recordId, { position: current.indexOf(recordId) + 1 }, { position: position + 1 });
          changed = true;
        }
        if (changed) await notifyChanged(tx);
        return changed;
      });
      if (modified) invalidate();
      return { modified };
    },

    /** Moves one record of a list one place up or down (the admin screens' buttons): a reorder of the whole list. */
    async move(type: string, id: string, direction: "up" | "down", actor?: Actor): Promise<{ modified: boolean }> {
      const def = sectionOr404(type);
      if (def.cardinality !== "list") throw new AppError(400, `${def.title} is a single record: it has no order.`);
      const ids = (
        await db
          .select({ id: contentEntries.id })
          .from(contentEntries)
          .where(eq(contentEntries.type, type))
          .orderBy(asc(contentEntries.position), asc(contentEntries.createdAt))
      ).map((r) => r.id);
      const from = ids.indexOf(id);
      if (from < 0) throw notFound();
      const to = direction === "up" ? from - 1 : from + 1;
      if (to < 0 || to >= ids.length) return { modified: false };
      [ids[from], ids[to]] = [ids[to]!, ids[from]!];
      return this.reorder(type, ids, actor);
    },

    /**
     * A record taken out of the trash (the trash service's restore, in its transaction): back with its id, fields,
     * place and dates, unless its section no longer takes it (409). The caller drops the snapshot once it commits.
     */
    async restoreIn(tx: Tx, { recordId, row }: TrashedRow): Promise<void> {
      const type = String(row.type);
      const def = getSection(type);
      if (!def) throw new AppError(409, "This part of the site no longer exists: it cannot be restored.");
      const parsed = validateSection(def, row.data);
      if (!parsed.ok)
        throw new AppError(
          409,
          `This ${def.title} no longer fits the site's fields (${parsed.errors[0]!.message}): it cannot be restored.`,
        );
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"content:" + type}))`);
      const [{ count }] = (
        await tx.execute<{ count: number }>(
          sql`select count(*)::int as count from content_entries where type = ${type}`,
        )
      ).rows as [{ count: number }];
      if (def.cardinality === "singleton" && count >= 1)
        throw new AppError(409, `A new ${def.title} was added since: delete that one first, then restore this one.`);
      if (def.cardinality === "list" && def.max !== undefined && count >= def.max)
        throw new AppError(409, def.maxNotice ?? `The ${def.title} list is full: delete one first.`);
      await tx.insert(contentEntries).values({
        id: recordId,
        type,
        data: row.data as Record<string, unknown>,
        position: Number(row.position ?? 0),
        createdAt: new Date(String(row.createdAt)),
        updatedAt: new Date(String(row.updatedAt)),
      });
      await notifyChanged(tx);
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
