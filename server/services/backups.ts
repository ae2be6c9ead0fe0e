import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { createBackup, type CreatedBackup } from "../backup/create";
import { ARCHIVE_NAME, keyCounts, REASON_LABELS, type BackupReason, type Manifest } from "../backup/manifest";
import { readManifest } from "../backup/read";
import type { Db } from "../db/client";
import type { Logger } from "../lib/logger";
import { jobKey, type JobsService } from "./jobs";
import type { MailsService } from "./mails";

/** The recurring job that backs up: daily at 03:00 UTC, or now from the back office (once across the instances). */
export const BACKUP_JOB = "backup";
const DAILY_AT = "0 3 * * *";
/** A backup of a large database takes minutes: it counts as failed only after this long. */
const BACKUP_LIMIT_SECONDS = 6 * 60 * 60;
/** Work folders of a backup that never finished (the process died) are removed after this long. */
const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;

/** One archive in BACKUP_DIR, as the back office lists it. */
export interface BackupInfo {
  name: string;
  size: number;
  /** The snapshot's moment (from the manifest), or the file's time when it cannot be read. */
  createdAt: Date;
  /** Why it was made, in words; "Unreadable" for a file whose manifest cannot be read. */
  reason: string;
  appVersion: string | null;
  migration: string | null;
  counts: ReturnType<typeof keyCounts> | null;
}

export interface BackupsServiceDeps {
  db: Db;
  pool: pg.Pool;
  /** BACKUP_DIR, and how many archives the daily backup keeps (BACKUP_KEEP). */
  dir: string;
  keep: number;
  jobs: Pick<JobsService, "every" | "trigger" | "isPending">;
  mails: Pick<MailsService, "queueToAdmins">;
  logger: Logger;
  now: () => Date;
}

/**
 * Backups (docs/decisions/033): the daily one on the job queue, one started from the back office, the list of the
 * archives in BACKUP_DIR and their files for download. A failed backup fails its job (the background-jobs screen shows
 * it with its reason) and mails the admins.
 */
export function createBackupsService({ db, pool, dir, keep, jobs, mails, logger, now }: BackupsServiceDeps) {
  /** Manifests read before, by file name and size: an archive never changes once it has its name. */
  const manifests = new Map<string, { size: number; manifest: Manifest | null }>();

  async function run(reason: BackupReason): Promise<CreatedBackup> {
    const startedAt = now();
    try {
      const backup = await createBackup(pool, { dir, reason });
      logger.info(
        { file: backup.file, bytes: backup.size, rows: backup.manifest.totals.rows, ms: backup.ms, reason },
        "backup written",
      );
      await prune();
      return backup;
    } catch (error) {
      logger.error({ error, dir, reason }, "backup failed");
      const message = error instanceof Error ? error.message : String(error);
      await db
        .transaction((tx) =>
          mails.queueToAdmins(
            tx,
            "adminBackupFailed",
            { startedAt, error: message.slice(0, 500), folder: dir },
            jobKey("backup-failed", startedAt.getTime()),
          ),
        )
        .catch((mailError: unknown) => logger.error({ error: mailError }, "the backup failure could not be mailed"));
      throw error;
    }
  }

  /** Keeps the newest `keep` archives (their names sort by time) and removes work folders a dead backup left. */
  async function prune(): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    const archives = entries
      .filter((e) => e.isFile() && ARCHIVE_NAME.test(e.name))
      .map((e) => e.name)
      .sort();
    for (const name of archives.slice(0, Math.max(0, archives.length - keep))) {
      await rm(path.join(dir, name), { force: true });
      manifests.delete(name);
      logger.info({ name, keep }, "old backup removed");
    }
    for (const e of entries.filter((e) => e.isDirectory() && e.name.startsWith(".partial-"))) {
      const at = path.join(dir, e.name);
      const { mtimeMs } = await stat(at);
      if (now().getTime() - mtimeMs > STALE_PARTIAL_MS) await rm(at, { recursive: true, force: true });
    }
  }

  async function list(): Promise<BackupInfo[]> {
    const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [] as string[];
      throw error;
    });
    const found: BackupInfo[] = [];
    for (const name of names.filter((n) => ARCHIVE_NAME.test(n))) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      let known = manifests.get(name);
      if (!known || known.size !== info.size) {
        known = { size: info.size, manifest: await readManifest(file).catch(() => null) };
        manifests.set(name, known);
      }
      const m = known.manifest;
      found.push({
        name,
        size: info.size,
        createdAt: m ? new Date(m.createdAt) : info.mtime,
        reason: m ? REASON_LABELS[m.reason] : "Unreadable",
        appVersion: m?.app.version ?? null,
        migration: m?.schema.migration ?? null,
        counts: m ? keyCounts(m) : null,
      });
    }
    return found.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.name.localeCompare(a.name));
  }

  jobs.every(
    BACKUP_JOB,
    DAILY_AT,
    async (data) => {
      await run((data as { reason?: string } | null)?.reason === "manual" ? "manual" : "daily");
    },
    { title: "Backup of the database", expireInSeconds: BACKUP_LIMIT_SECONDS },
  );

  return {
    dir,
    keep,
    list,
    /** Backs up now in this process (the job's handler; the tests). */
    run,
    /** Queues a backup now, run once by whichever instance takes it: false when one is already waiting. */
    requestNow: () => jobs.trigger(BACKUP_JOB, { reason: "manual" }),
    /** Whether a backup waits or runs now. */
    inProgress: () => jobs.isPending(BACKUP_JOB),
    /** The newest readable backup's moment (the metrics' backup age), if any. */
    async latestAt(): Promise<Date | undefined> {
      return (await list()).find((b) => b.counts)?.createdAt;
    },
    /** The path of an archive for download, or undefined for a name that is not one of them. */
    async file(name: string): Promise<string | undefined> {
      if (!ARCHIVE_NAME.test(name)) return undefined;
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => undefined);
      return info?.isFile() ? file : undefined;
    },
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
