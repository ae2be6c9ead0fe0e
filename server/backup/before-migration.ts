import type pg from "pg";
import type { Logger } from "../lib/logger";
import { createBackup } from "./create";
import { lastAppliedMigration, pendingMigrations } from "./schema";

/**
 * The embedded default backs up before it applies a new migration to a database that has data (docs/decisions/033):
 * an upgrade that goes wrong can then be undone with `npm run restore`. A failed backup stops the start, before
 * anything was migrated.
 */
export async function backupBeforeMigrations(pool: pg.Pool, dir: string, logger: Logger): Promise<void> {
  if ((await lastAppliedMigration(pool)) === undefined) return; // a new database: nothing to lose
  const pending = await pendingMigrations(pool);
  if (!pending.length) return;
  logger.info({ migrations: pending.map((m) => m.tag), dir }, "backing up before applying new migrations");
  try {
    const backup = await createBackup(pool, { dir, reason: "before-migration" });
    logger.info({ file: backup.file, bytes: backup.size, ms: backup.ms }, "backup before the migrations written");
  } catch (error) {
    throw new Error(
      `The backup before applying migration ${pending[0]!.tag} failed, so nothing was migrated and the app did not ` +
        `start: ${error instanceof Error ? error.message : String(error)}. Free space in BACKUP_DIR (${dir}) or fix ` +
        `its permissions, then start again.`,
      { cause: error },
    );
  }
}
