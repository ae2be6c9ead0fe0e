import type { PoolConfig } from "pg";
import { backupBeforeMigrations } from "../backup/before-migration";
import type { Config, EnvConfig } from "../config";
import type { Logger } from "../lib/logger";
import { checkConnections, poolOptions } from "./capacity";
import { connect, type Database } from "./client";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { acquireAppLock } from "./lock";
import { runMigrations } from "./migrate";
import { withSharedSecrets } from "./secrets";

export interface OpenDatabase {
  database: Database;
  /** The configuration with the auth secret every host on this database shares (server/db/secrets.ts). */
  config: Config;
  /** How to reach it: DATABASE_URL, or the embedded server's socket (what the worker processes connect with). */
  connection: PoolConfig | string;
  /** Closes the pool, then stops the embedded server and releases the lock. */
  close(): Promise<void>;
  embedded: boolean;
}

/**
 * DATABASE_URL: a pooled connection to that server. Otherwise: take the app lock on DATA_DIR, start the embedded
 * server (stopping an orphan first) and connect over its socket. In both cases the server's connection limit is
 * checked against this host's processes and pools, a database with data is backed up when migrations are pending
 * (unless BACKUP_BEFORE_MIGRATION=false), migrations are applied, and the shared secrets read.
 */
export async function openDatabase(envConfig: EnvConfig, logger: Logger): Promise<OpenDatabase> {
  let releaseLock: (() => void) | undefined;
  let server: EmbeddedServer | undefined;
  let database: Database | undefined;
  let connection: PoolConfig | string;
  let config: Config;
  try {
    if (envConfig.databaseUrl) {
      connection = envConfig.databaseUrl;
      database = connect(connection, poolOptions(envConfig));
      logger.info("using the PostgreSQL server from DATABASE_URL");
    } else {
      releaseLock = acquireAppLock(envConfig.dataDir);
      server = await startEmbeddedPostgres(envConfig.dataDir, logger);
      connection = server.connection;
      database = connect(connection, poolOptions(envConfig));
      logger.info({ dataDir: server.dataDir }, "embedded PostgreSQL is running");
    }
    await checkConnections(database.pool, envConfig, logger);
    // Embedded or DATABASE_URL: a backup before a new migration changes the data, by the host that migrates, inside the
    // migrations' lock (docs/operations/upgrading.md).
    const pool = database.pool;
    const started = Date.now();
    await runMigrations(database, {
      beforeApply: () =>
        backupBeforeMigrations(pool, envConfig.backup.dir, logger, { enabled: envConfig.backup.beforeMigration }),
    });
    logger.info({ ms: Date.now() - started }, "database migrations applied");
    config = await withSharedSecrets(envConfig, database.db, logger);
  } catch (error) {
    await database?.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    releaseLock?.();
    throw error;
  }
  return {
    database,
    config,
    connection,
    embedded: Boolean(server),
    async close() {
      await database.close().catch(() => undefined);
      await server?.stop();
      releaseLock?.();
    },
  };
}
