/**
 * `npm run restore FILE`: restores a backup archive into an empty DATABASE_URL, or, without it, into the embedded
 * PostgreSQL of an empty DATA_DIR (docs/decisions/033). Refuses a target that holds anything, and an archive that is
 * not this app's, is damaged, or comes from a newer schema; a failure part-way leaves the target as empty as it was.
 */
import path from "node:path";
import { RestoreError, restoreBackup, restoreIntoDataDir } from "../backup/restore";
import { ConfigError, loadConfig } from "../config";
import { AppLockError } from "../db/lock";
import { createLogger } from "../lib/logger";
import { migrations } from "../backup/schema";
import { describeBackup } from "./describe";
import { stat } from "node:fs/promises";

const file = process.argv[2];
if (!file) {
  process.stderr.write(
    "Usage: npm run restore FILE\nRestores into DATABASE_URL when it is set, else into DATA_DIR's embedded database (./data).\n",
  );
  process.exit(2);
}

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  // npm runs scripts in the package folder: a relative FILE is where the command was typed.
  const archive = path.resolve(process.env.INIT_CWD ?? ".", file);
  const target = config.databaseUrl ? "the database of DATABASE_URL" : `the embedded database of ${config.dataDir}`;
  process.stdout.write(`Restoring ${archive} into ${target}…\n`);
  const options = { jobs: config.jobs, logger };
  const { manifest, ms } = config.databaseUrl
    ? await restoreBackup(archive, config.databaseUrl, options)
    : await restoreIntoDataDir(archive, config.dataDir, options);
  process.stdout.write(
    `Restored in ${(ms / 1000).toFixed(1)} s.\n${describeBackup(archive, (await stat(archive)).size, manifest)}\n`,
  );
  const later = Math.max(0, migrations().length - manifest.schema.migrations);
  if (later) process.stdout.write(`The app applies the ${later} later migrations when it starts.\n`);
  process.stdout.write(
    `Start the app on it: ${config.databaseUrl ? "DATABASE_URL=… " : config.dataDir === path.resolve("data") ? "" : `DATA_DIR=${config.dataDir} `}npm start\n`,
  );
} catch (error) {
  if (error instanceof RestoreError || error instanceof ConfigError || error instanceof AppLockError) {
    process.stderr.write(`Restore refused: ${error.message}\n`);
  } else {
    process.stderr.write(
      `The restore failed, and nothing was kept: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
  }
  process.exit(1);
}
