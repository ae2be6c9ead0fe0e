import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { activityKind } from "#domain/activity.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { purgeAt, purgeBefore, type TrashKind } from "#domain/trash.ts";
import type { Db } from "../db/client";
import { trash, trashFiles } from "../db/schema";
import { AppError, isId, isUniqueViolation, notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { pageOf } from "../lib/paging";
import { withDeps } from "../lib/with-deps";
import { audited, type Actor } from "./activity";
import type { Tx } from "./jobs";

/**
 * The trash (decision 039). A deletion of a content record, a catalogue item or an image takes the row out of its
 * table and keeps it here, whole, for 30 days; a restore puts it back as it was, through the service that owns that
 * table. This module is the only writer of `trash` and `trash_files`.
 */

/** Who deleted for good what had been in the trash 30 days: the clean-up job, as the activity log names it. */
export const CLEAN_UP: Actor = { id: "system", email: "Automatic clean-up" };

const NOT_IN_TRASH = "This is not in the trash (it was restored or deleted for good).";

export interface TrashedRow {
  /** The trash entry's own id (a trashed image's files hang on it). */
  trashId: string;
  /** The activity log's entity of the record (within a kind, which owner puts it back: "article", "content:faqItem"). */
  entity: string;
  recordId: string;
  row: Record<string, unknown>;
}

/** What a deletion puts in the trash, in the deletion's own transaction. */
export interface IntoTrash {
  kind: TrashKind;
  entity: string;
  recordId: string;
  title: string;
  row: Record<string, unknown>;
  deletedAt: Date;
  deletedBy: Actor | undefined;
  /** An image: its files (media_variants rows) go with it. */
  filesOfMedia?: string;
}

/** Puts a deleted row in the trash (called by the owning service, inside the transaction that deletes it). */
export async function putInTrash(tx: Tx, entry: IntoTrash): Promise<void> {
  // A record deleted again after a restore: it has one entry, the latest.
  await tx.delete(trash).where(eq(trash.recordId, entry.recordId));
  const [created] = await tx
    .insert(trash)
    .values({
      kind: entry.kind,
      entity: entry.entity,
      recordId: entry.recordId,
      title: entry.title.slice(0, 300),
      row: entry.row,
      deletedAt: entry.deletedAt,
      deletedBy: entry.deletedBy?.email ?? CLEAN_UP.email,
    })
    .returning({ id: trash.id });
  if (entry.filesOfMedia) {
    // Copied inside PostgreSQL: the bytes never travel to the app.
    // An object in a bucket stays there, and its row says so (decision 081).
    await tx.execute(sql`insert into trash_files
        (trash_id, format, width, height, size, storage, sha256, data, s3_bucket, s3_key)
      select ${created!.id}, format, width, height, size, storage, sha256, data, s3_bucket, s3_key
      from media_variants where media_id = ${entry.filesOfMedia}`);
  }
}

/**
 * Where a trashed image's file is kept now (the media move, decision 081, in its transaction): its bytes in the row,
 * or its object in a bucket.
 */
export async function setTrashedFileStorage(
  tx: Tx,
  file: { trashId: string; format: string; width: number },
  at: { storage: "database" | "s3"; data: Buffer | null; bucket: string | null; key: string | null },
): Promise<void> {
  await tx
    .update(trashFiles)
    .set({ storage: at.storage, data: at.data, s3Bucket: at.bucket, s3Key: at.key })
    .where(
      and(eq(trashFiles.trashId, file.trashId), eq(trashFiles.format, file.format), eq(trashFiles.width, file.width)),
    );
}

/** A trashed row's fields as the activity log keeps them (the same fields its delete entry holds). */
export function loggedFields(kind: TrashKind, row: Record<string, unknown>): Record<string, unknown> {
  switch (kind) {
    case "content":
      return (row.data ?? {}) as Record<string, unknown>;
    case "items":
      return {
        itemName: row.itemName,
        itemsDescription: row.itemsDescription,
        itemDatabaseUrl: row.itemDatabaseUrl,
        itemsGuideline: row.itemsGuideline,
        itemURL: row.itemUrl,
      };
    case "media":
      return { fileName: row.fileName, alt: row.alt, width: row.width, height: row.height };
  }
}

/** An entry of the trash screen and its REST list. */
export interface TrashEntry {
  /** The deleted record's id (the REST calls' :id). */
  recordId: string;
  kind: TrashKind;
  /** What kind of record, in words ("Testimonial", "Catalogue item"). */
  what: string;
  title: string;
  deletedAt: string;
  deletedBy: string;
  /** When the clean-up deletes it for good. */
  purgeAt: string;
}

/** Puts a trashed row back in its own table (the owning service's part of a restore), inside the restore's transaction. */
export type Restorer = (tx: Tx, trashed: TrashedRow) => Promise<void>;

export interface TrashServiceDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** Each kind's owner: puts the row back into its table. */
  restorers: Record<TrashKind, Restorer>;
  /** Within a kind, an owner of its own for one entity (articles are site content, put back by the articles service). */
  entityRestorers?: Record<string, Restorer>;
  /** Every kind's pages and caches follow the content change signal: told after a restore commits. */
  changed: () => void;
  /**
   * A trashed image's files deleted for good, in the purge's transaction after its entry's row is deleted (their
   * objects in a bucket, decision 081); throwing keeps the entry.
   */
  purgeFiles?: (
    tx: Tx,
    files: { storage: "database" | "s3"; s3Bucket: string | null; s3Key: string | null }[],
  ) => Promise<void>;
}

async function find({ db }: TrashServiceDeps, kind: TrashKind, recordId: string) {
  if (!isId(recordId)) throw notFound(NOT_IN_TRASH);
  const [row] = await db
    .select()
    .from(trash)
    .where(and(eq(trash.kind, kind), eq(trash.recordId, recordId)));
  if (!row) throw notFound(NOT_IN_TRASH);
  return row;
}

/** Takes the entry out of the trash for good, with its log entry; false if it was gone already. */
async function purgeRow(
  { db, purgeFiles }: TrashServiceDeps,
  row: typeof trash.$inferSelect,
  actor: Actor,
): Promise<boolean> {
  return audited(db, actor, row.entity, async (tx, audit) => {
    // Locked first, so a move of its files (decision 081) is finished before they are read.
    const [held] = await tx.select({ id: trash.id }).from(trash).where(eq(trash.id, row.id)).for("update");
    if (!held) return false;
    const files =
      row.kind === "media" && purgeFiles
        ? await tx
            .select({ storage: trashFiles.storage, s3Bucket: trashFiles.s3Bucket, s3Key: trashFiles.s3Key })
            .from(trashFiles)
            .where(and(eq(trashFiles.trashId, row.id), eq(trashFiles.storage, "s3")))
        : [];
    const gone = await tx.delete(trash).where(eq(trash.id, row.id)).returning({ id: trash.id });
    if (!gone.length) return false;
    if (files.length) await purgeFiles!(tx, files);
    await audit.purged(row.recordId, loggedFields(row.kind, row.row));
    return true;
  });
}

/** The trash of the given kinds, newest first, one page counted and cut in SQL. */
async function list({ db }: TrashServiceDeps, kinds: readonly TrashKind[], page: unknown, perPage: number) {
  const { rows, page: info } = await pageOf(db, trash, {
    where: kinds.length ? inArray(trash.kind, [...kinds]) : sql`false`,
    orderBy: [desc(trash.deletedAt), desc(trash.id)],
    page,
    perPage,
  });
  const entries: TrashEntry[] = rows.map((r) => ({
    recordId: r.recordId,
    kind: r.kind,
    what: r.kind === "content" ? activityKind(r.entity).title : r.kind === "items" ? "Catalogue item" : "Image",
    title: r.title,
    deletedAt: r.deletedAt.toISOString(),
    deletedBy: r.deletedBy,
    purgeAt: purgeAt(r.deletedAt).toISOString(),
  }));
  return { entries, page: info as PageInfo };
}

/** Which of these records are in the trash now (the activity log offers to restore them). */
async function holding({ db }: TrashServiceDeps, recordIds: string[]): Promise<Map<string, TrashKind>> {
  const ids = [...new Set(recordIds.filter(isId))];
  if (!ids.length) return new Map();
  const rows = await db
    .select({ recordId: trash.recordId, kind: trash.kind })
    .from(trash)
    .where(inArray(trash.recordId, ids));
  return new Map(rows.map((r) => [r.recordId, r.kind]));
}

/**
 * Puts a record back where it was, as it was (its id, fields, place in its list, dates), audited; its pages show
 * it again at once. Refused (409) when it no longer fits: a single record added again, a full list, a category
 * taken, the same image uploaded again, fields the site no longer has.
 */
async function restore(
  deps: TrashServiceDeps,
  kind: TrashKind,
  recordId: string,
  actor: Actor,
): Promise<{ recordId: string; title: string; href: string | null }> {
  const { restorers, entityRestorers = {} } = deps;
  const found = await find(deps, kind, recordId);
  try {
    await audited(deps.db, actor, found.entity, async (tx, audit) => {
      const [row] = await tx.select().from(trash).where(eq(trash.id, found.id)).for("update");
      if (!row) throw notFound(NOT_IN_TRASH);
      const restorer = Object.hasOwn(entityRestorers, row.entity) ? entityRestorers[row.entity]! : restorers[kind];
      await restorer(tx, { trashId: row.id, entity: row.entity, recordId: row.recordId, row: row.row });
      await tx.delete(trash).where(eq(trash.id, row.id));
      await audit.restored(row.recordId, loggedFields(kind, row.row));
    });
  } catch (error) {
    // Someone added the same thing between the restorer's check and its insert.
    if (isUniqueViolation(error))
      throw new AppError(409, `“${found.title}” cannot be restored: the same one exists again on the site.`);
    throw error;
  }
  deps.changed();
  return { recordId, title: found.title, href: activityKind(found.entity).href?.(recordId) ?? null };
}

/** "Delete now": out of the trash for good (an image's files with it), audited. */
async function purge(
  deps: TrashServiceDeps,
  kind: TrashKind,
  recordId: string,
  actor: Actor,
): Promise<{ title: string }> {
  const found = await find(deps, kind, recordId);
  if (!(await purgeRow(deps, found, actor))) throw notFound(NOT_IN_TRASH);
  return { title: found.title };
}

/** The clean-up: deletes for good what has been in the trash 30 days (the oldest first, at most `limit` a run). */
async function purgeExpired(deps: TrashServiceDeps, limit = 500): Promise<number> {
  const { db, logger, now } = deps;
  const due = await db
    .select()
    .from(trash)
    .where(lte(trash.deletedAt, purgeBefore(now())))
    .orderBy(asc(trash.deletedAt))
    .limit(limit);
  let purged = 0;
  for (const row of due) {
    try {
      if (await purgeRow(deps, row, CLEAN_UP)) purged++;
    } catch (error) {
      // An image whose files the bucket would not delete stays in the trash for the next run; the others go on.
      logger.error({ error, recordId: row.recordId }, "trash: could not delete an entry for good");
    }
  }
  if (purged) logger.info({ purged }, "trash: deleted for good what was kept 30 days");
  return purged;
}

/** The trash's screen, restores and clean-up: each a function over the service's dependencies (decision 085). */
export function createTrashService(deps: TrashServiceDeps) {
  return {
    list: withDeps(deps, list),
    holding: withDeps(deps, holding),
    restore: withDeps(deps, restore),
    purge: withDeps(deps, purge),
    purgeExpired: withDeps(deps, purgeExpired),
  };
}

export type TrashService = ReturnType<typeof createTrashService>;
