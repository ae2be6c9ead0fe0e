import type { PoolConfig } from "pg";
import type { EnvConfig } from "../config";
import type { Logger } from "../lib/logger";
import { runningEmbeddedConnection, startEmbeddedPostgres, type EmbeddedServer } from "./embedded";
import { acquireAppLock, appLockOwner } from "./lock";

/** How a command reaches the app's database, and how it lets go of it. */
export interface CommandConnection {
  connection: PoolConfig | string;
  /** The embedded server started for the command (the app was stopped), if any. */
  server?: EmbeddedServer;
  /** Stops the server started for the command and releases DATA_DIR; nothing when the command used another's. */
  close(): Promise<void>;
}

/**
 * A command line's way to the database, while the app runs or not (decision 033): DATABASE_URL's server; the embedded
 * server the running app started (its socket and password); or, when the app is stopped, the embedded server started
 * for the command under the app lock, so that the app cannot start beside it.
 */
export async function commandConnection(config: EnvConfig, logger: Logger): Promise<CommandConnection> {
  if (config.databaseUrl) return { connection: config.databaseUrl, close: async () => {} };
  if (appLockOwner(config.dataDir))
    return { connection: runningEmbeddedConnection(config.dataDir, logger), close: async () => {} };
  const release = acquireAppLock(config.dataDir);
  try {
    const server = await startEmbeddedPostgres(config.dataDir, logger);
    return {
      connection: server.connection,
      server,
      async close() {
        try {
          await server.stop();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
