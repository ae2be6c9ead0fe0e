import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import { AppError } from "../lib/errors";
import { observePool } from "../lib/metrics";
import * as schema from "./schema";

/** The app's drizzle database, with the pool it runs on (`$client`). */
export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * A pg pool whose connections' errors are always heard. pg emits 'error' on a client whose server went away, and
 * pg-pool takes its own listener off a client it hands out: a connection lost while checked out (a transaction, a
 * backup's snapshot) would be an uncaught exception that stops the process. The statement in flight, or the next one,
 * rejects with the same error and the pool drops the broken client when it is released, so hearing it is enough.
 */
export function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  const heard = () => {
    /* the caller's statement reports the outage */
  };
  pool.on("connect", (client) => client.on("error", heard));
  pool.on("error", heard); // a broken idle client: the pool drops it; the next query reports the outage
  return pool;
}

/**
 * A pooled connection to any PostgreSQL: the embedded one (socket config) or DATABASE_URL. The app's processes give
 * DATABASE_POOL_SIZE and a name telling their host (server/db/capacity.ts: poolOptions).
 */
export function connect(
  connection: pg.PoolConfig | string,
  options: { max?: number; applicationName?: string } = {},
): Database {
  const config: pg.PoolConfig = typeof connection === "string" ? { connectionString: connection } : { ...connection };
  const pool = createPool({
    ...config,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: options.applicationName ?? "atelier",
  });
  const db = drizzle(pool, { schema });
  const unobserve = observePool("app", pool, pool.options.max ?? 10); // its use and waits in /metrics
  return {
    db,
    pool,
    close: () => {
      unobserve();
      return pool.end();
    },
  };
}

// Socket-level failures and PostgreSQL's "connection exception" (08…), shutdown (57P…) and too-many-connections codes.
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ENOENT", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH"]);
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|connection error|Client was closed|Cannot use a pool after calling end|the database system is (starting up|shutting down|in recovery mode)/i;

/** Whether a failure means "the database cannot be reached right now" (503, try again), not "this query is wrong". */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue = [error];
  while (queue.length) {
    const e = queue.shift() as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined;
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const code = typeof e.code === "string" ? e.code : "";
    if (UNAVAILABLE_CODES.has(code) || code.startsWith("08") || code.startsWith("57P") || code === "53300") return true;
    if (typeof e.message === "string" && UNAVAILABLE_TEXT.test(e.message)) return true;
    queue.push(e.cause);
    if (Array.isArray(e.errors)) queue.push(...e.errors);
  }
  return false;
}

/** Seconds after which a client should try again while the database is away. */
export const RETRY_AFTER_SECONDS = 10;
export const UNAVAILABLE_MESSAGE =
  "The site is briefly unavailable: its database cannot be reached. Please try again in a minute.";
export const databaseUnavailable = () => new AppError(503, UNAVAILABLE_MESSAGE);
