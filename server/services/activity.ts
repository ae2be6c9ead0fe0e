import { desc } from "drizzle-orm";
import type { PageInfo } from "../../domain/pagination";
import type { Db } from "../db/client";
import { activityLog } from "../db/schema";
import { pageOf } from "../lib/paging";

/** Who made a change: the signed-in administrator. */
export interface Actor {
  id: string;
  email: string;
}

export type Changes = Record<string, { before: unknown; after: unknown }>;

/** The fields whose values differ, with both values (a created record: every field, before null). */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Changes {
  const out: Changes = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    const b = before?.[k] ?? null;
    const a = after?.[k] ?? null;
    if (JSON.stringify(b) !== JSON.stringify(a)) out[k] = { before: b, after: a };
  }
  return out;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Fields = Record<string, unknown>;

/** What a write reports to the activity log: each record it created, updated or deleted, with its fields. */
export interface Audit {
  created(recordId: string, after: object): Promise<void>;
  updated(recordId: string, before: object, after: object): Promise<void>;
  deleted(recordId: string, before: object): Promise<void>;
}

/**
 * An audited write: `work` runs in one transaction and reports each change it makes through `audit`, which writes
 * the activity-log entry (who, what, the fields that changed before and after) in that same transaction, so a change
 * and its entry stand or fall together. Without an actor (a write no administrator made) nothing is logged.
 */
export function audited<T>(
  db: Db,
  actor: Actor | undefined,
  entity: string,
  work: (tx: Tx, audit: Audit) => Promise<T>,
): Promise<T> {
  return db.transaction((tx) => {
    const log = async (
      action: "create" | "update" | "delete",
      recordId: string,
      before: object | null,
      after: object | null,
    ) => {
      if (!actor) return;
      await tx.insert(activityLog).values({
        actorId: actor.id,
        actorEmail: actor.email,
        action,
        entity,
        recordId,
        changes: diff(withoutId(before), withoutId(after)),
      });
    };
    return work(tx, {
      created: (recordId, after) => log("create", recordId, null, after),
      updated: (recordId, before, after) => log("update", recordId, before, after),
      deleted: (recordId, before) => log("delete", recordId, before, null),
    });
  });
}

/** A record's own id is the entry's recordId, not one of its changed fields. */
function withoutId(fields: object | null): Fields | null {
  if (!fields) return null;
  const rest: Fields = { ...fields };
  delete rest._id;
  return rest;
}

export function createActivityService(db: Db) {
  return {
    async list(
      page: unknown,
      perPage: number,
    ): Promise<{ entries: (typeof activityLog.$inferSelect)[]; page: PageInfo }> {
      const { rows, page: info } = await pageOf(db, activityLog, {
        orderBy: [desc(activityLog.createdAt), desc(activityLog.id)],
        page,
        perPage,
      });
      return { entries: rows, page: info };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
