import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "./schema";

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** A pooled connection to any PostgreSQL: the embedded one (socket config) or DATABASE_URL. */
export function connect(connection: pg.PoolConfig | string, options: { max?: number } = {}): Database {
  const config: pg.PoolConfig = typeof connection === "string" ? { connectionString: connection } : { ...connection };
  const pool = new pg.Pool({
    ...config,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: "atelier",
  });
  pool.on("error", () => {
    /* a broken idle client is dropped by the pool; the next query reports the outage */
  });
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
