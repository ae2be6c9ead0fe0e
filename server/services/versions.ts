import { and, eq } from "drizzle-orm";
import { activityKind, shownValue } from "#domain/activity.ts";
import { getSection, recordTitle } from "#domain/registry.ts";
import type { Db } from "../db/client";
import { activityLog, contentEntries, trash } from "../db/schema";
import { AppError, isAppError, isId, notFound } from "../lib/errors";
import type { Actor } from "./activity";
import type { ContentService } from "./content";

/** One field a restore would write: its label, its value now and the value it gets back. */
export interface VersionChange {
  field: string;
  label: string;
  now: string;
  restored: string;
}

/** What "Restore this version" of a log entry would do, shown in its confirmation. */
export interface VersionPlan {
  entryId: string;
  kind: string;
  recordTitle: string;
  /** The record's edit screen. */
  href: string | null;
  /** The fields that would change (none: the record has these values already). */
  changes: VersionChange[];
}

/**
 * "Restore this version" (decision 039): a content change in the activity log written back as a new change, through
 * the content service's update (its one writer, its rules, its log entry). An update's entry gives back the values
 * the fields had before it; a record's first entry (added) the values it was added with. Only the fields the entry
 * changed are written; the record's other fields stay as they are now.
 */
export function createVersionsService({
  db,
  content,
  timeZone,
}: {
  db: Db;
  content: Pick<ContentService, "update">;
  timeZone: string;
}) {
  /** The entry, its section, the values it would write back and the record as it is now; refusals as 404/409. */
  async function prepare(entryId: string) {
    if (!isId(entryId)) throw notFound("This change is not in the activity log.");
    const [entry] = await db.select().from(activityLog).where(eq(activityLog.id, entryId));
    if (!entry) throw notFound("This change is not in the activity log.");
    if (!entry.entity.startsWith("content:") || (entry.action !== "update" && entry.action !== "create"))
      throw new AppError(409, "Only a change to the site's content can be restored from the log.");
    const type = entry.entity.slice("content:".length);
    const def = getSection(type);
    if (!def) throw new AppError(409, "This part of the site no longer exists: the change cannot be restored.");
    const values: Record<string, unknown> = {};
    for (const [field, change] of Object.entries(entry.changes)) {
      if (field === "position") continue; // a move in its list, undone with the arrows
      if (!def.fields.some((f) => f.name === field))
        throw new AppError(
          409,
          `This change's fields no longer match the ${def.title}'s fields (it has no “${field}” now): it cannot be restored.`,
        );
      values[field] = entry.action === "update" ? change.before : change.after;
    }
    if (!Object.keys(values).length)
      throw new AppError(409, "This change only moved the record in its list: move it back with the arrows.");
    const [current] = await db
      .select({ data: contentEntries.data })
      .from(contentEntries)
      .where(and(eq(contentEntries.type, type), eq(contentEntries.id, entry.recordId)));
    if (!current) {
      const [trashed] = await db.select({ kind: trash.kind }).from(trash).where(eq(trash.recordId, entry.recordId));
      if (trashed)
        throw new AppError(
          409,
          `This ${def.title} has been deleted: it is in the trash. Restore it from the trash first.`,
        );
      throw new AppError(409, `This ${def.title} was deleted for good: its versions cannot be restored.`);
    }
    return { entry, type, def, values, current: current.data };
  }

  return {
    /** What restoring this entry's version would change, for the confirmation. */
    async plan(entryId: string): Promise<VersionPlan> {
      const { entry, def, values, current } = await prepare(entryId);
      const kind = activityKind(entry.entity);
      const changes = Object.entries(values)
        .filter(([field, value]) => JSON.stringify(current[field] ?? null) !== JSON.stringify(value ?? null))
        .map(([field, value]) => ({
          field,
          label: kind.label(field),
          now: shownValue(field, current[field], timeZone),
          restored: shownValue(field, value, timeZone),
        }));
      return {
        entryId,
        kind: def.title,
        recordTitle: recordTitle(def, current),
        href: kind.href?.(entry.recordId) ?? null,
        changes,
      };
    },

    /** Writes the entry's version back as a new, audited change; false when the record has those values already. */
    async restore(entryId: string, actor: Actor): Promise<{ modified: boolean }> {
      const { entry, type, def, values, current } = await prepare(entryId);
      try {
        return await content.update(type, entry.recordId, { ...current, ...values }, actor);
      } catch (error) {
        if (isAppError(error) && error.status === 400)
          throw new AppError(
            409,
            `The older values no longer pass the ${def.title}'s rules (${error.message}): this version cannot be restored.`,
          );
        throw error;
      }
    },
  };
}

export type VersionsService = ReturnType<typeof createVersionsService>;
