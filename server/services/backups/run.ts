import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { beyondKeep } from "#domain/backups.ts";
import { createBackup, type CreatedBackup } from "#server/backup/create.ts";
import { ARCHIVE_NAME, type BackupReason } from "#server/backup/manifest.ts";
import { verifyArchive } from "#server/backup/read.ts";
import { pruneArchives, reasonOf, targetLabel, uploadArchive, type RemoteArchive } from "#server/backup/remote.ts";
import { s3Key } from "#server/lib/s3.ts";
import { jobKey } from "#server/services/jobs.ts";
import { STALE_PARTIAL_MS, type Backups } from "./model.ts";

export async function run(
  backups: Backups,
  reason: BackupReason,
): Promise<CreatedBackup & { uploaded: RemoteArchive | undefined }> {
  const { pool, dir, remote, logger, now } = backups;
  const startedAt = now();
  let backup: CreatedBackup | undefined;
  // Whether the failure is the bucket's: only once the archive is written, verified and pruned here is it uploaded.
  let uploading = false;
  try {
    backup = await createBackup(pool, { dir, reason });
    const verified = await verifyArchive(backup.file, backup.manifest);
    logger.info(
      { file: backup.file, bytes: backup.size, rows: backup.manifest.totals.rows, ms: backup.ms, reason },
      "backup written",
    );
    await prune(backups, backup.name);
    uploading = remote !== undefined;
    const uploaded = await uploadToBucket(backups, backup, verified);
    return { ...backup, uploaded };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const upload = uploading && backup !== undefined && remote !== undefined;
    logger.error({ error: message, dir, reason }, upload ? "backup upload failed" : "backup failed");
    await backups.db
      .transaction((tx) =>
        backups.mails.queueToAdmins(
          tx,
          "adminBackupFailed",
          {
            startedAt,
            error: message.slice(0, 500),
            folder: dir,
            ...(upload ? { bucket: targetLabel(remote.location), written: backup!.name } : {}),
          },
          jobKey("backup-failed", startedAt.getTime()),
        ),
      )
      .catch((mailError: unknown) => logger.error({ error: mailError }, "the backup failure could not be mailed"));
    throw error;
  }
}

/** The verified backup uploaded to the bucket, if one is set, and the bucket pruned to BACKUP_KEEP. */
async function uploadToBucket(
  { remote, keep, logger, remoteManifests }: Backups,
  backup: CreatedBackup,
  verified: Awaited<ReturnType<typeof verifyArchive>>,
): Promise<RemoteArchive | undefined> {
  let uploaded: RemoteArchive | undefined;
  if (remote) {
    const started = Date.now();
    uploaded = await uploadArchive(remote, backup.file, backup.name, verified);
    logger.info(
      { target: targetLabel(remote.location), name: backup.name, bytes: uploaded.size, ms: Date.now() - started },
      "backup uploaded to the bucket",
    );
    // Only after this upload was checked: a failed one never costs the bucket an older backup. A prune that fails
    // leaves one more copy than BACKUP_KEEP there, which the next backup's prune removes: it is logged, and the
    // backup, which is in both places, stands.
    try {
      for (const name of await pruneArchives(remote, keep, backup.name)) {
        remoteManifests.delete(s3Key(remote.location.prefix, name));
        logger.info({ name, keep }, "old backup removed from the bucket");
      }
    } catch (error) {
      logger.warn(
        { error: reasonOf(error), target: targetLabel(remote.location), keep },
        "old backups could not be removed from the bucket",
      );
    }
  }
  return uploaded;
}

/** Keeps the newest `keep` archives in the folder and removes work folders a dead backup or test left. */
async function prune({ dir, keep, logger, now, manifests }: Backups, justMade: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  const archives = entries.filter((e) => e.isFile() && ARCHIVE_NAME.test(e.name)).map((e) => e.name);
  for (const name of beyondKeep(archives, keep, justMade)) {
    await rm(path.join(dir, name), { force: true });
    manifests.delete(name);
    logger.info({ name, keep }, "old backup removed");
  }
  for (const e of entries.filter((e) => e.isDirectory() && /^\.(partial|drill)-/.test(e.name))) {
    const at = path.join(dir, e.name);
    const { mtimeMs } = await stat(at);
    if (now().getTime() - mtimeMs > STALE_PARTIAL_MS) await rm(at, { recursive: true, force: true });
  }
}
