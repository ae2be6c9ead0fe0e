import { and, asc, eq, sql } from "drizzle-orm";
import { limitReachedText, recordLimit, type SectionType } from "#domain/registry.ts";
import { validateSection } from "#domain/validation.ts";
import { contentEntries } from "#server/db/schema.ts";
import { AppError, badRequest, isId, notFound } from "#server/lib/errors.ts";
import { audited, diff, type Actor } from "#server/services/activity.ts";
import { invalidate } from "./live.ts";
import { notifyChanged, sectionOr404, type Live } from "./model.ts";

/** Adds a record; singletons and capped lists refuse past their limit (409). */
export async function add(live: Live, type: string, input: unknown, actor?: Actor): Promise<{ id: string }> {
  const def = sectionOr404(type);
  const parsed = validateSection(def, input);
  if (!parsed.ok) throw badRequest(parsed.errors);
  const limit = recordLimit(def);
  const id = await audited(live.db, actor, `content:${type}`, async (tx, audit) => {
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
  invalidate(live);
  return { id };
}

/** Replaces a record's fields; an unknown id is a 404, never an insert. */
export async function update(
  live: Live,
  type: string,
  id: string,
  input: unknown,
  actor?: Actor,
): Promise<{ modified: boolean }> {
  const def = sectionOr404(type);
  if (!isId(id)) throw notFound();
  const parsed = validateSection(def, input);
  if (!parsed.ok) throw badRequest(parsed.errors);
  const modified = await audited(live.db, actor, `content:${type}`, async (tx, audit) => {
    const [before] = await tx
      .select({ data: contentEntries.data })
      .from(contentEntries)
      .where(and(eq(contentEntries.type, type), eq(contentEntries.id, id)))
      .for("update");
    if (!before) throw notFound();
    // Field by field: jsonb keeps keys in an order of its own, so the same fields may serialise differently.
    if (Object.keys(diff(before.data, parsed.data)).length === 0) return false;
    await tx.update(contentEntries).set({ data: parsed.data, updatedAt: new Date() }).where(eq(contentEntries.id, id));
    await audit.updated(id, before.data, parsed.data);
    await notifyChanged(tx);
    return true;
  });
  if (modified) invalidate(live);
  return { modified };
}

/**
 * Puts a list's records in the given order (every record of the section, each once: a list that changed meanwhile
 * is a 409, so two admins never interleave orders). Positions are stored; the public pages follow them.
 */
export async function reorder(live: Live, type: string, ids: unknown, actor?: Actor): Promise<{ modified: boolean }> {
  const def = sectionOr404(type);
  if (def.cardinality !== "list") throw new AppError(400, `${def.title} is a single record: it has no order.`);
  if (!Array.isArray(ids) || ids.some((i) => typeof i !== "string"))
    throw badRequest([{ field: "ids", message: "ids must be the list of the section's record ids, in order" }]);
  const wanted = ids as string[];
  const modified = await audited(live.db, actor, `content:${type}`, async (tx, audit) => {
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
      await tx.update(contentEntries).set({ position, updatedAt: new Date() }).where(eq(contentEntries.id, recordId));
      // Positions as people count them (1 is the first).
      if (current.indexOf(recordId) !== position)
        await audit.updated(recordId, { position: current.indexOf(recordId) + 1 }, { position: position + 1 });
      changed = true;
    }
    if (changed) await notifyChanged(tx);
    return changed;
  });
  if (modified) invalidate(live);
  return { modified };
}

/**
 * The list's order with one record moved one place up or down (the admin screens' buttons), for a reorder of the
 * whole list; undefined when it is at that end already.
 */
export async function movedOrder(
  { db }: Live,
  type: string,
  id: string,
  direction: "up" | "down",
): Promise<string[] | undefined> {
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
  if (to < 0 || to >= ids.length) return undefined;
  [ids[from], ids[to]] = [ids[to]!, ids[from]!];
  return ids;
}

/** Inserts many records in one transaction (demo content). */
export async function insertMany(
  live: Live,
  records: { type: SectionType; data: Record<string, unknown> }[],
): Promise<void> {
  const positions = new Map<string, number>();
  const values = records.map((r) => {
    const def = sectionOr404(r.type);
    const parsed = validateSection(def, r.data);
    if (!parsed.ok) {
      throw new Error(`Invalid ${r.type} record: ${parsed.errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`);
    }
    const position = positions.get(r.type) ?? 0;
    positions.set(r.type, position + 1);
    return { type: r.type, data: parsed.data, position };
  });
  await live.db.transaction(async (tx) => {
    if (values.length) await tx.insert(contentEntries).values(values);
    await notifyChanged(tx);
  });
  invalidate(live);
}
