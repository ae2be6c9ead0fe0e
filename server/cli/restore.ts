/**
 * `npm run restore FILE`: restores a backup archive into an empty DATABASE_URL, or, without it, into the embedded
 * PostgreSQL of an empty DATA_DIR (docs/decisions/033). Refuses a target that holds anything, and an archive that is
 * not this app's, is damaged, or comes from a newer schema; a failure part-way leaves the target as empty as it was.
 * FILE may be `s3://bucket/prefix/atelier-backup-….tar` (S3_* settings): the archive is downloaded first, its
 * checksum checked against the one stored with it (docs/decisions/082), and removed after the restore.
 */
import path from "node:path";
import { RestoreError, restoreBackup, restoreIntoDataDir } from "../backup/restore";
import { ConfigError, loadConfig, parseS3Target } from "../config";
import { AppLockError } from "../db/lock";
import { createLogger } from "../lib/logger";
import { migrations } from "../backup/schema";
import { describeBackup } from "./describe";
import { stat } from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { ARCHIVE_NAME } from "../backup/manifest";
import { downloadArchive, RemoteBackupError } from "../backup/remote";
import { s3Client } from "../lib/s3";

const file = process.argv[2];
if (!file) {
  process.stderr.write(
    "Usage: npm run restore FILE (or s3://bucket/prefix/atelier-backup-….tar)\nRestores into DATABASE_URL when it is set, else into DATA_DIR's embedded database (./data).\n",
  );
  process.exit(2);
}

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  // npm runs scripts in the package folder: a relative FILE is where the command was typed.
  let archive = path.resolve(process.env.INIT_CWD ?? ".", file);
  if (file.startsWith("s3://")) {
    const { bucket, prefix } = parseS3Target(file);
    const name = prefix.replace(/\/$/, "").split("/").pop() ?? "";
    if (!ARCHIVE_NAME.test(name)) {
      throw new ConfigError(`${file} does not name a backup archive (s3://bucket/prefix/atelier-backup-….tar).`);
    }
    const folder = mkdtempSync(path.join(tmpdir(), "atelier-restore-"));
    process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
    archive = path.join(folder, name);
    process.stdout.write(`Downloading ${file}…\n`);
    const remote = { client: s3Client(config.s3), location: { bucket, prefix: prefix.slice(0, -name.length - 1) } };
    await downloadArchive(remote, name, archive);
  }
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
  if (
    error instanceof RestoreError ||
    error instanceof ConfigError ||
    error instanceof AppLockError ||
    error instanceof RemoteBackupError
  ) {
    process.stderr.write(`Restore refused: ${error.message}\n`);
  } else {
    process.stderr.write(
      `The restore failed, and nothing was kept: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
  }
  process.exit(1);
}
