import { and, eq, sql } from "drizzle-orm";
import { getSection, recordTitle } from "#domain/registry.ts";
import { validateSection } from "#domain/validation.ts";
import { contentEntries } from "#server/db/schema.ts";
import { AppError, isId, notFound } from "#server/lib/errors.ts";
import { audited, type Actor } from "#server/services/activity.ts";
import type { Tx } from "#server/services/jobs.ts";
import { putInTrash, type TrashedRow } from "#server/services/trash.ts";
import { invalidate } from "./live.ts";
import { notifyChanged, sectionOr404, type Live } from "./model.ts";

/**
 * Deletes a record (a list's, or a singleton, whose add form then shows again); the public pages follow at once.
 * The record goes to the trash for 30 days (decision 039). An unknown id is a 404.
 */
export async function remove(live: Live, type: string, id: string, actor?: Actor): Promise<{ deleted: boolean }> {
  const def = sectionOr404(type);
  if (!isId(id)) throw notFound();
  await audited(live.db, actor, `content:${type}`, async (tx, audit) => {
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
      deletedAt: live.clock(),
      deletedBy: actor,
    });
    await audit.deleted(id, row.data);
    await notifyChanged(tx);
  });
  invalidate(live);
  return { deleted: true };
}

/**
 * A record taken out of the trash (the trash service's restore, in its transaction): back with its id, fields,
 * place and dates, unless its section no longer takes it (409). The caller drops the snapshot once it commits.
 */
export async function restoreIn(tx: Tx, { recordId, row }: TrashedRow): Promise<void> {
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
    await tx.execute<{ count: number }>(sql`select count(*)::int as count from content_entries where type = ${type}`)
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
}
