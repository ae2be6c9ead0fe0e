import type { PoolConfig } from "pg";
import type { Config } from "../config";
import type { Logger } from "../lib/logger";
import { connect, type Database } from "./client";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { acquireAppLock } from "./lock";
import { runMigrations } from "./migrate";

export interface OpenDatabase {
  database: Database;
  /** How to reach it: DATABASE_URL, or the embedded server's socket (what the worker processes connect with). */
  connection: PoolConfig | string;
  /** Closes the pool, then stops the embedded server and releases the lock. */
  close(): Promise<void>;
  embedded: boolean;
}

/**
 * DATABASE_URL: a pooled connection to that server. Otherwise: take the app lock on DATA_DIR, start the embedded
 * server (stopping an orphan first) and connect over its socket. Migrations are applied in both cases.
 */
export async function openDatabase(config: Config, logger: Logger): Promise<OpenDatabase> {
  let releaseLock: (() => void) | undefined;
  let server: EmbeddedServer | undefined;
  let database: Database;
  let connection: PoolConfig | string;
  try {
    if (config.databaseUrl) {
      connection = config.databaseUrl;
      database = connect(connection);
      logger.info("using the PostgreSQL server from DATABASE_URL");
    } else {
      releaseLock = acquireAppLock(config.dataDir);
      server = await startEmbeddedPostgres(config.dataDir, logger);
      connection = server.connection;
      database = connect(connection);
      logger.info("embedded PostgreSQL is running", { dataDir: server.dataDir });
    }
    const started = Date.now();
    await runMigrations(database);
    logger.info("database migrations applied", { ms: Date.now() - started });
  } catch (error) {
    await server?.stop().catch(() => undefined);
    releaseLock?.();
    throw error;
  }
  return {
    database,
    connection,
    embedded: Boolean(server),
    async close() {
      await database.close().catch(() => undefined);
      await server?.stop();
      releaseLock?.();
    },
  };
}
