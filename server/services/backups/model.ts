import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import type pg from "pg";
import { z } from "zod";
import { BACKUP_PLACES, type BackupPlace, type DrillRecord, type DrillState } from "#domain/backups.ts";
import { ARCHIVE_NAME, keyCounts, REASON_LABELS, type Manifest } from "#server/backup/manifest.ts";
import type { RemoteBackups } from "#server/backup/remote.ts";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { JobsOptions, JobsService } from "#server/services/jobs.ts";
import type { MailsService } from "#server/services/mails.ts";

/** The recurring job that backs up: daily at 03:00 UTC, or now from the back office (once across the instances). */
export const BACKUP_JOB = "backup";
/** The queue of restore tests (one waits and one runs at most, across the instances). */
export const DRILL_QUEUE = "backup-drill";
export const DAILY_AT = "0 3 * * *";
/** A backup of a large database takes minutes: it counts as failed only after this long. */
export const BACKUP_LIMIT_SECONDS = 6 * 60 * 60;
/** Work folders of a backup or restore test that never finished (the process died) are removed after this long. */
export const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;
/** How long the Backups screen waits for the bucket's list. */
export const LIST_TIMEOUT_MS = 10_000;
/** The restore tests the screen shows, newest first. */
export const DRILLS_SHOWN = 20;

/** One backup, as the back office lists it: on this server, in the bucket, or both. */
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
  /** Where its copies are. */
  places: BackupPlace[];
}

/** A restore test, as the screen shows it. */
export interface DrillInfo {
  id: string;
  backupName: string;
  place: BackupPlace;
  state: DrillState;
  requestedBy: string;
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  report: DrillRecord | null;
  error: string | null;
}

export const drillRequestSchema = z.object({
  name: z.string({ error: "Choose a backup." }).regex(ARCHIVE_NAME, { error: "Choose a backup from the list." }),
  place: z.enum(BACKUP_PLACES, { error: "Choose where the backup is read from: this server or the bucket." }),
});

export interface BackupsServiceDeps {
  db: Db;
  pool: pg.Pool;
  /** BACKUP_DIR, and how many archives each place keeps (BACKUP_KEEP). */
  dir: string;
  keep: number;
  /** The BACKUP_TARGET bucket each verified backup is uploaded to, if set. */
  remote: RemoteBackups | undefined;
  jobs: Pick<JobsService, "every" | "trigger" | "isPending" | "worker" | "send">;
  jobOptions: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">;
  mails: Pick<MailsService, "queueToAdmins">;
  logger: Logger;
  now: () => Date;
}

/** The dependencies, and what the service remembers between calls (built once by the factory). */
export interface Backups extends BackupsServiceDeps {
  /** Manifests read before, by file name and size: an archive never changes once it has its name. */
  manifests: Map<string, { size: number; manifest: Manifest | null }>;
  /** The bucket's manifests read before, by key and ETag. */
  remoteManifests: Map<string, { etag: string; manifest: Manifest | null }>;
  /** The database's name, once asked. */
  dbName: string | undefined;
}

export const backupsOf = (deps: BackupsServiceDeps): Backups => ({
  ...deps,
  manifests: new Map(),
  remoteManifests: new Map(),
  dbName: undefined,
});

export function infoOf(name: string, size: number, m: Manifest | null, fallback: Date, place: BackupPlace): BackupInfo {
  return {
    name,
    size,
    createdAt: m ? new Date(m.createdAt) : fallback,
    reason: m ? REASON_LABELS[m.reason] : "Unreadable",
    appVersion: m?.app.version ?? null,
    migration: m?.schema.migration ?? null,
    counts: m ? keyCounts(m) : null,
    places: [place],
  };
}

export async function fileOf({ dir }: Backups, name: string): Promise<string | undefined> {
  if (!ARCHIVE_NAME.test(name)) return undefined;
  const file = path.join(dir, name);
  const info = await stat(file).catch(() => undefined);
  return info?.isFile() ? file : undefined;
}

export async function ensureDir({ dir }: Backups): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
