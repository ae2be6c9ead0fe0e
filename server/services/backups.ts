import { isId } from "#server/lib/errors.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import { targetLabel } from "#server/backup/remote.ts";
import { drill, drills, requestDrill } from "./backups/drills.ts";
import { latestAt, list } from "./backups/list.ts";
import {
  BACKUP_JOB,
  BACKUP_LIMIT_SECONDS,
  backupsOf,
  DAILY_AT,
  DRILL_QUEUE,
  fileOf,
  type BackupsServiceDeps,
} from "./backups/model.ts";
import { run } from "./backups/run.ts";

export {
  BACKUP_JOB,
  DRILL_QUEUE,
  drillRequestSchema,
  type BackupInfo,
  type BackupsServiceDeps,
  type DrillInfo,
} from "./backups/model.ts";

/**
 * Backups (docs/decisions/033 and 082): the daily one on the job queue, one started from the back office, each
 * verified and then uploaded to the bucket when BACKUP_TARGET is set, both places pruned to BACKUP_KEEP on their own;
 * the list of both places; downloads; restore tests into a scratch database. A failed backup or upload fails its job
 * (the background-jobs screen shows it with its reason) and mails the admins.
 *
 * A backup is in backups/run.ts, the list in backups/list.ts, the restore tests in backups/drills.ts: functions over
 * the dependencies and the manifests read before (backups/model.ts), which this factory only wires (decision 085).
 */
export function createBackupsService(deps: BackupsServiceDeps) {
  const { dir, keep, remote, jobs } = deps;
  const backups = backupsOf(deps);
  const runNow = withDeps(backups, run);
  const drillNow = withDeps(backups, drill);

  jobs.every(
    BACKUP_JOB,
    DAILY_AT,
    async (data) => {
      await runNow((data as { reason?: string } | null)?.reason === "manual" ? "manual" : "daily");
    },
    { title: "Backup of the database", expireInSeconds: BACKUP_LIMIT_SECONDS },
  );
  jobs.worker(
    DRILL_QUEUE,
    async (data) => {
      const id = (data as { id?: unknown } | null)?.id;
      if (typeof id === "string" && isId(id)) await drillNow(id);
    },
    { title: "Restore test of a backup", expireInSeconds: BACKUP_LIMIT_SECONDS },
  );

  return {
    dir,
    keep,
    /** Where backups are copied to, in words (s3://bucket/prefix/), if a bucket is set. */
    target: remote ? targetLabel(remote.location) : undefined,
    list: withDeps(backups, list),
    /** Backs up now in this process (the job's handler; the tests). */
    run: runNow,
    /** Queues a backup now, run once by whichever instance takes it: false when one is already waiting. */
    requestNow: () => jobs.trigger(BACKUP_JOB, { reason: "manual" }),
    /** Whether a backup waits or runs now. */
    inProgress: () => jobs.isPending(BACKUP_JOB),
    /** The newest readable backup's moment on this server (the metrics' backup age), if any. */
    latestAt: withDeps(backups, latestAt),
    /** The path of an archive on this server for download, or undefined for a name that is not one of them. */
    file: withDeps(backups, fileOf),
    requestDrill: withDeps(backups, requestDrill),
    /** Runs a restore test now in this process (the job's handler; the tests). */
    drill: drillNow,
    /** The newest restore tests, newest first. */
    drills: withDeps(backups, drills),
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
