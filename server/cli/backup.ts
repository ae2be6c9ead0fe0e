/**
 * `npm run backup [-- FOLDER]`: writes one archive of the app's database into BACKUP_DIR (DATA_DIR/backups), or into
 * FOLDER, while the app runs or not: DATABASE_URL's server, the embedded server the running app started, or, when the
 * app is stopped, the embedded server started for the backup and stopped after it (docs/decisions/033). With
 * BACKUP_TARGET, the archive is verified and copied to that bucket too (docs/decisions/082); nothing is pruned.
 */
import path from "node:path";
import { createBackup } from "../backup/create";
import { keyCounts } from "../backup/manifest";
import { verifyArchive } from "../backup/read";
import { RemoteBackupError, targetLabel, uploadArchive } from "../backup/remote";
import { s3Client } from "../lib/s3";
import { ConfigError, loadConfig } from "../config";
import { createPool } from "../db/client";
import { commandConnection } from "../db/command-connection";
import { AppLockError } from "../db/lock";
import { createLogger } from "../lib/logger";
import { describeBackup } from "./describe";

try {
  const config = loadConfig();
  const logger = createLogger(config.logLevel === "info" ? "warn" : config.logLevel);
  const dir = process.argv[2] ? path.resolve(process.env.INIT_CWD ?? ".", process.argv[2]) : config.backup.dir;
  const { connection, server, close } = await commandConnection(config, logger);
  const pool = createPool({
    ...(typeof connection === "string" ? { connectionString: connection } : connection),
    max: 1,
    application_name: "atelier-backup",
  });
  try {
    if (server?.created) throw new ConfigError(`DATA_DIR ${config.dataDir} holds no database yet: nothing to back up.`);
    const backup = await createBackup(pool, { dir, reason: "command" });
    process.stdout.write(`${describeBackup(backup.file, backup.size, backup.manifest, backup.ms)}\n`);
    if (config.backup.remote) {
      const verified = await verifyArchive(backup.file, backup.manifest);
      const remote = { client: s3Client(config.s3), location: config.backup.remote };
      await uploadArchive(remote, backup.file, backup.name, verified);
      process.stdout.write(
        `Copied to ${targetLabel(config.backup.remote)}${backup.name} (${verified.size} bytes, SHA-256 ${verified.sha256}).\n`,
      );
    }
    const counts = keyCounts(backup.manifest);
    process.stdout.write(
      `Restore it into an empty DATA_DIR or an empty DATABASE_URL with: npm run restore ${backup.file}\n` +
        `(${counts.orders} orders, ${counts.accounts} accounts, ${counts.images} images)\n`,
    );
  } finally {
    await pool.end();
    await close();
    if (server?.created) {
      const { rmSync } = await import("node:fs");
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof AppLockError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof RemoteBackupError) {
    process.stderr.write(`The backup was written, but not copied to the bucket: ${error.message}\n`);
  } else
    process.stderr.write(`The backup failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exit(1);
}
