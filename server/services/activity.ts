import { desc, sql } from "drizzle-orm";
import { paginate, type PageInfo } from "../../app/lib/pagination";
import type { Db } from "../db/client";
import { activityLog } from "../db/schema";

/** Who made a change: the signed-in administrator. */
export interface Actor {
  id: string;
  email: string;
}

export type Changes = Record<string, { before: unknown; after: unknown }>;
type Tx = Pick<Db, "insert">;

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

/** Writes one entry, inside the caller's transaction: the change and its record stand or fall together. */
export async function logActivity(
  tx: Tx,
  entry: { actor: Actor; action: "create" | "update" | "delete"; entity: string; recordId: string; changes: Changes },
): Promise<void> {
  await tx.insert(activityLog).values({
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    action: entry.action,
    entity: entry.entity,
    recordId: entry.recordId,
    changes: entry.changes,
  });
}

export function createActivityService(db: Db) {
  return {
    async list(
      page: unknown,
      perPage: number,
    ): Promise<{ entries: (typeof activityLog.$inferSelect)[]; page: PageInfo }> {
      const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(activityLog)) as [{ n: number }];
      const info = paginate(n, page, perPage);
      const entries = await db
        .select()
        .from(activityLog)
        .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
        .limit(info.perPage)
        .offset(info.offset);
      return { entries, page: info };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
