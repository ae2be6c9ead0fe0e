import type pg from "pg";
import type { Logger } from "../lib/logger";
import { createBackup } from "./create";
import { lastAppliedMigration, pendingMigrations } from "./schema";

/**
 * Every start, on the embedded database or DATABASE_URL's, backs up before it applies a new migration to a database that
 * has data (docs/decisions/033, docs/operations/upgrading.md): an upgrade that goes wrong can then be undone with
 * `npm run restore`. It runs inside the migrations' advisory lock (server/db/migrate.ts's `beforeApply`), so of several
 * hosts starting at once only the one that migrates backs up; the others then find nothing pending. A failed backup
 * stops the start, before anything was migrated. `enabled: false` (BACKUP_BEFORE_MIGRATION=false, for a provider that
 * takes its own snapshots) logs the migrations it applies without a backup.
 */
export async function backupBeforeMigrations(
  pool: pg.Pool,
  dir: string,
  logger: Logger,
  { enabled = true }: { enabled?: boolean } = {},
): Promise<void> {
  if ((await lastAppliedMigration(pool)) === undefined) return; // a new database: nothing to lose
  const pending = await pendingMigrations(pool);
  if (!pending.length) return;
  if (!enabled) {
    logger.warn(
      { migrations: pending.map((m) => m.tag) },
      "BACKUP_BEFORE_MIGRATION=false: applying new migrations without a backup first",
    );
    return;
  }
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
