import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import type pg from "pg";
import { z } from "zod";
import { createBackup, type CreatedBackup } from "../backup/create";
import { ARCHIVE_NAME, keyCounts, REASON_LABELS, type BackupReason, type Manifest } from "../backup/manifest";
import { readManifest, verifyArchive } from "../backup/read";
import {
  downloadArchive,
  head,
  listArchives,
  pruneArchives,
  readRemoteManifest,
  reasonOf,
  RemoteBackupError,
  targetLabel,
  uploadArchive,
  type RemoteArchive,
  type RemoteBackups,
} from "../backup/remote";
import { drillBackup, RestoreError } from "../backup/restore";
import type { Db } from "../db/client";
import { backupDrills } from "../db/schema";
import { badRequest, conflict, notFound, isId } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { s3Key } from "../lib/s3";
import { jobKey, type JobsOptions, type JobsService } from "./jobs";
import type { MailsService } from "./mails";
import {
  BACKUP_PLACES,
  beyondKeep,
  byAge,
  type BackupPlace,
  type DrillRecord,
  type DrillState,
} from "#domain/backups.ts";

/** The recurring job that backs up: daily at 03:00 UTC, or now from the back office (once across the instances). */
export const BACKUP_JOB = "backup";
/** The queue of restore tests (one waits and one runs at most, across the instances). */
export const DRILL_QUEUE = "backup-drill";
const DAILY_AT = "0 3 * * *";
/** A backup of a large database takes minutes: it counts as failed only after this long. */
const BACKUP_LIMIT_SECONDS = 6 * 60 * 60;
/** Work folders of a backup or restore test that never finished (the process died) are removed after this long. */
const STALE_PARTIAL_MS = 24 * 60 * 60 * 1000;
/** How long the Backups screen waits for the bucket's list. */
const LIST_TIMEOUT_MS = 10_000;
/** The restore tests the screen shows, newest first. */
const DRILLS_SHOWN = 20;

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

/**
 * Backups (docs/decisions/033 and 082): the daily one on the job queue, one started from the back office, each
 * verified and then uploaded to the bucket when BACKUP_TARGET is set, both places pruned to BACKUP_KEEP on their own;
 * the list of both places; downloads; restore tests into a scratch database. A failed backup or upload fails its job
 * (the background-jobs screen shows it with its reason) and mails the admins.
 */
export function createBackupsService(deps: BackupsServiceDeps) {
  const { db, pool, dir, keep, remote, jobs, mails, logger, now } = deps;
  /** Manifests read before, by file name and size: an archive never changes once it has its name. */
  const manifests = new Map<string, { size: number; manifest: Manifest | null }>();
  /** The bucket's manifests read before, by key and ETag. */
  const remoteManifests = new Map<string, { etag: string; manifest: Manifest | null }>();

  async function run(reason: BackupReason): Promise<CreatedBackup & { uploaded: RemoteArchive | undefined }> {
    const startedAt = now();
    let backup: CreatedBackup | undefined;
    try {
      backup = await createBackup(pool, { dir, reason });
      const verified = await verifyArchive(backup.file, backup.manifest);
      logger.info(
        { file: backup.file, bytes: backup.size, rows: backup.manifest.totals.rows, ms: backup.ms, reason },
        "backup written",
      );
      await prune(backup.name);
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
      return { ...backup, uploaded };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const upload = backup !== undefined && remote !== undefined;
      logger.error({ error: message, dir, reason }, upload ? "backup upload failed" : "backup failed");
      await db
        .transaction((tx) =>
          mails.queueToAdmins(
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

  /** Keeps the newest `keep` archives in the folder and removes work folders a dead backup or test left. */
  async function prune(justMade: string): Promise<void> {
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

  async function localList(): Promise<BackupInfo[]> {
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
      found.push(infoOf(name, info.size, known.manifest, info.mtime, "server"));
    }
    return found;
  }

  /** The bucket's archives (listed from the bucket itself, whoever made them), each with its manifest's facts. */
  async function remoteList(r: RemoteBackups): Promise<BackupInfo[]> {
    // The screen waits for it: a service that does not answer is given up on, and said so, after a while.
    const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
    const found: BackupInfo[] = [];
    for (const o of await listArchives(r, signal)) {
      let known = remoteManifests.get(o.key);
      if (!known || known.etag !== o.etag) {
        const manifest = await readRemoteManifest(r, o.key, signal).catch(() => null);
        // Cut short is not unreadable: nothing is kept, and the list says the bucket did not answer.
        if (signal.aborted) throw new Error(`no answer within ${LIST_TIMEOUT_MS / 1000} s`);
        known = { etag: o.etag, manifest };
        remoteManifests.set(o.key, known);
      }
      found.push(infoOf(o.name, o.size, known.manifest, o.modifiedAt, "bucket"));
    }
    return found;
  }

  /** Both places, one row per backup (the same name in both is one backup), newest first. */
  async function list(): Promise<{ backups: BackupInfo[]; bucketError: string | null }> {
    const local = await localList();
    let inBucket: BackupInfo[] = [];
    let bucketError: string | null = null;
    if (remote) {
      inBucket = await remoteList(remote).catch((error: unknown) => {
        logger.warn({ error: reasonOf(error), target: targetLabel(remote.location) }, "the bucket could not be listed");
        bucketError = `The bucket ${targetLabel(remote.location)} could not be read: ${reasonOf(error)}`;
        return [];
      });
    }
    const byName = new Map<string, BackupInfo>();
    for (const b of [...local, ...inBucket]) {
      const seen = byName.get(b.name);
      if (!seen) byName.set(b.name, b);
      else {
        seen.places = [...seen.places, ...b.places];
        if (!seen.counts && b.counts) byName.set(b.name, { ...b, places: seen.places });
      }
    }
    const backups = [...byName.values()].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || byAge(b.name, a.name),
    );
    return { backups, bucketError };
  }

  /** The archive of a restore test on disk: the server's file, or the bucket's downloaded into a work folder. */
  async function archiveFor(
    name: string,
    place: BackupPlace,
  ): Promise<{ file: string; archive: DrillRecord["archive"]; done: () => Promise<void> }> {
    if (place === "server") {
      const file = await fileOf(name);
      if (!file) {
        throw new RestoreError(
          `${name} is not in ${dir} on the server that ran the restore test: it was removed since, or it is on ` +
            `another of the site's servers (each keeps its own backups folder).`,
        );
      }
      const manifest = await readManifest(file);
      const { size, sha256 } = await verifyArchive(file, manifest);
      return { file, archive: { size, sha256, storedSha256: null }, done: async () => {} };
    }
    if (!remote) throw new RestoreError("No bucket is set (BACKUP_TARGET), so there is no backup in a bucket to test.");
    const work = await mkdtemp(path.join(await ensureDir(), ".drill-"));
    const done = () => rm(work, { recursive: true, force: true });
    try {
      const file = path.join(work, name);
      const got = await downloadArchive(remote, name, file);
      return { file, archive: { ...got, storedSha256: got.storedSha256 ?? null }, done };
    } catch (error) {
      await done();
      throw error;
    }
  }

  async function ensureDir(): Promise<string> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Runs one restore test (the queue's job): its row goes waiting → running → passed or failed, with its findings. */
  async function drill(id: string): Promise<void> {
    const [row] = await db.select().from(backupDrills).where(eq(backupDrills.id, id));
    if (!row || row.state === "passed" || row.state === "failed") return;
    await db.update(backupDrills).set({ state: "running", startedAt: now() }).where(eq(backupDrills.id, id));
    let archive: Awaited<ReturnType<typeof archiveFor>> | undefined;
    try {
      archive = await archiveFor(row.backupName, row.place);
      // pg-pool keeps the password out of its options' enumerable keys: it is copied by name.
      const options = pool.options as pg.PoolConfig;
      const { manifest, report } = await drillBackup(
        archive.file,
        { ...options, password: options.password },
        {
          scratch: `${await databaseName()}_drill_${id.replace(/-/g, "").slice(0, 12)}`.slice(-63),
          jobs: deps.jobOptions,
          logger,
        },
      );
      const record: DrillRecord = { ...report, archive: archive.archive, createdAt: manifest.createdAt };
      await db
        .update(backupDrills)
        .set({ state: "passed", finishedAt: now(), report: record, error: null })
        .where(eq(backupDrills.id, id));
      logger.info({ name: row.backupName, place: row.place, rows: report.rows, ms: report.ms }, "restore test passed");
    } catch (error) {
      // A refused or damaged archive, a bucket that does not answer, a scratch database that cannot be made: the test
      // failed, with its reason on the screen (and the log). Running it again is asking for a new test.
      const known = error instanceof RestoreError || error instanceof RemoteBackupError;
      const message = error instanceof Error ? error.message : String(error);
      logger.warn({ name: row.backupName, place: row.place, error: message }, "restore test failed");
      await db
        .update(backupDrills)
        .set({
          state: "failed",
          finishedAt: now(),
          error: (known ? message : `The restore test stopped: ${message}`).slice(0, 2000),
        })
        .where(eq(backupDrills.id, id));
    } finally {
      await archive?.done();
    }
  }

  let dbName: string | undefined;
  async function databaseName(): Promise<string> {
    dbName ??= (await pool.query<{ name: string }>("select current_database() as name")).rows[0]!.name;
    return dbName;
  }

  async function fileOf(name: string): Promise<string | undefined> {
    if (!ARCHIVE_NAME.test(name)) return undefined;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    return info?.isFile() ? file : undefined;
  }

  jobs.every(
    BACKUP_JOB,
    DAILY_AT,
    async (data) => {
      await run((data as { reason?: string } | null)?.reason === "manual" ? "manual" : "daily");
    },
    { title: "Backup of the database", expireInSeconds: BACKUP_LIMIT_SECONDS },
  );
  jobs.worker(
    DRILL_QUEUE,
    async (data) => {
      const id = (data as { id?: unknown } | null)?.id;
      if (typeof id === "string" && isId(id)) await drill(id);
    },
    { title: "Restore test of a backup", expireInSeconds: BACKUP_LIMIT_SECONDS },
  );

  return {
    dir,
    keep,
    /** Where backups are copied to, in words (s3://bucket/prefix/), if a bucket is set. */
    target: remote ? targetLabel(remote.location) : undefined,
    list,
    /** Backs up now in this process (the job's handler; the tests). */
    run,
    /** Queues a backup now, run once by whichever instance takes it: false when one is already waiting. */
    requestNow: () => jobs.trigger(BACKUP_JOB, { reason: "manual" }),
    /** Whether a backup waits or runs now. */
    inProgress: () => jobs.isPending(BACKUP_JOB),
    /** The newest readable backup's moment on this server (the metrics' backup age), if any. */
    async latestAt(): Promise<Date | undefined> {
      return (await localList()).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).find((b) => b.counts)
        ?.createdAt;
    },
    /** The path of an archive on this server for download, or undefined for a name that is not one of them. */
    file: fileOf,
    /**
     * Asks for a restore test of a backup, read from this server or from the bucket: queued (one runs and one waits at
     * most), run by whichever instance takes it. Refused for a backup that is not in that place.
     */
    async requestDrill(input: unknown, requestedBy: string): Promise<{ id: string }> {
      const parsed = drillRequestSchema.safeParse(input);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw badRequest([{ field: String(issue.path[0] ?? "body"), message: issue.message }]);
      }
      const { name, place } = parsed.data;
      if (place === "server" && !(await fileOf(name))) throw notFound(`${name} is not on this server.`);
      if (place === "bucket") {
        if (!remote) throw notFound("No bucket is set (BACKUP_TARGET).");
        const found = await head(remote, s3Key(remote.location.prefix, name)).catch((error: unknown) => {
          throw conflict(`The bucket ${targetLabel(remote.location)} could not be read: ${reasonOf(error)}`);
        });
        if (!found) throw notFound(`${name} is not in the bucket.`);
      }
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(backupDrills)
          .values({ backupName: name, place, requestedBy, requestedAt: now() })
          .returning({ id: backupDrills.id });
        const queued = await jobs.send(DRILL_QUEUE, { id: row!.id }, { singletonKey: "drill", tx });
        if (!queued) {
          throw conflict("A restore test is already waiting to run. Start this one when it has started.");
        }
        return { id: row!.id };
      });
    },
    /** Runs a restore test now in this process (the job's handler; the tests). */
    drill,
    /** The newest restore tests, newest first. */
    async drills(): Promise<DrillInfo[]> {
      return db
        .select()
        .from(backupDrills)
        .orderBy(desc(backupDrills.requestedAt), desc(backupDrills.id))
        .limit(DRILLS_SHOWN);
    },
  };
}

function infoOf(name: string, size: number, m: Manifest | null, fallback: Date, place: BackupPlace): BackupInfo {
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

export type BackupsService = ReturnType<typeof createBackupsService>;
