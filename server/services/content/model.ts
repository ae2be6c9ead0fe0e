import { sql } from "drizzle-orm";
import type pg from "pg";
import { getSection, type ContentSnapshot, type SectionDef } from "#domain/registry.ts";
import type { Db } from "#server/db/client.ts";
import { notFound } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";

export type ContentRecord = { _id: string } & Record<string, unknown>;

export const CHANNEL = "content_changed";

export const toRecord = (row: { id: string; data: Record<string, unknown> }): ContentRecord => ({
  _id: row.id,
  ...row.data,
});

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

/** The service's options with their defaults, and its state: the snapshot in memory and the listening connection. */
export interface Live extends Required<ContentServiceOptions> {
  snapshot: { value: ContentSnapshot; loadedAt: number } | undefined;
  /** The last snapshot read, served while the database cannot be reached (a stale page beats an error page). */
  lastGood: ContentSnapshot | undefined;
  failedAt: number;
  /** The snapshot being read, and the generation it was started in. */
  loading: { generation: number; promise: Promise<ContentSnapshot> } | undefined;
  generation: number;
  listener: pg.PoolClient | undefined;
  reconnectTimer: NodeJS.Timeout | undefined;
  attempts: number;
  closed: boolean;
}

export function liveOf({ db, pool, logger, ttlMs, now = Date.now, clock = () => new Date() }: ContentServiceOptions) {
  const live: Live = {
    db,
    pool,
    logger,
    ttlMs,
    now,
    clock,
    snapshot: undefined,
    lastGood: undefined,
    failedAt: 0,
    loading: undefined,
    generation: 0,
    listener: undefined,
    reconnectTimer: undefined,
    attempts: 0,
    closed: false,
  };
  return live;
}

export async function notifyChanged(tx: Pick<Db, "execute">) {
  await tx.execute(sql`select pg_notify(${CHANNEL}, '')`);
}

export function sectionOr404(type: string): SectionDef {
  const def = getSection(type);
  if (!def) throw notFound("Unknown section");
  return def;
}
