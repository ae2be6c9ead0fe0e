import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import type pg from "pg";
import type { BackupPlace, DrillRecord } from "#domain/backups.ts";
import { readManifest, verifyArchive } from "#server/backup/read.ts";
import { downloadArchive, head, reasonOf, RemoteBackupError, targetLabel } from "#server/backup/remote.ts";
import { drillBackup, RestoreError } from "#server/backup/restore.ts";
import { backupDrills } from "#server/db/schema.ts";
import { badRequest, conflict, notFound } from "#server/lib/errors.ts";
import { s3Key } from "#server/lib/s3.ts";
import {
  DRILL_QUEUE,
  drillRequestSchema,
  DRILLS_SHOWN,
  ensureDir,
  fileOf,
  type Backups,
  type DrillInfo,
} from "./model.ts";

/** The archive of a restore test on disk: the server's file, or the bucket's downloaded into a work folder. */
async function archiveFor(
  backups: Backups,
  name: string,
  place: BackupPlace,
): Promise<{ file: string; archive: DrillRecord["archive"]; done: () => Promise<void> }> {
  const { dir, remote } = backups;
  if (place === "server") {
    const file = await fileOf(backups, name);
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
  const work = await mkdtemp(path.join(await ensureDir(backups), ".drill-"));
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

async function databaseName(backups: Backups): Promise<string> {
  backups.dbName ??= (await backups.pool.query<{ name: string }>("select current_database() as name")).rows[0]!.name;
  return backups.dbName;
}

/** Runs one restore test (the queue's job): its row goes waiting → running → passed or failed, with its findings. */
export async function drill(backups: Backups, id: string): Promise<void> {
  const { db, pool, logger, now } = backups;
  const [row] = await db.select().from(backupDrills).where(eq(backupDrills.id, id));
  if (!row || row.state === "passed" || row.state === "failed") return;
  await db.update(backupDrills).set({ state: "running", startedAt: now() }).where(eq(backupDrills.id, id));
  let archive: Awaited<ReturnType<typeof archiveFor>> | undefined;
  try {
    archive = await archiveFor(backups, row.backupName, row.place);
    // pg-pool keeps the password out of its options' enumerable keys: it is copied by name.
    const options = pool.options as pg.PoolConfig;
    const { manifest, report } = await drillBackup(
      archive.file,
      { ...options, password: options.password },
      {
        scratch: `${await databaseName(backups)}_drill_${id.replace(/-/g, "").slice(0, 12)}`.slice(-63),
        jobs: backups.jobOptions,
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

/**
 * Asks for a restore test of a backup, read from this server or from the bucket: queued (one runs and one waits at
 * most), run by whichever instance takes it. Refused for a backup that is not in that place.
 */
export async function requestDrill(backups: Backups, input: unknown, requestedBy: string): Promise<{ id: string }> {
  const { db, remote, jobs, now } = backups;
  const parsed = drillRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest([{ field: String(issue.path[0] ?? "body"), message: issue.message }]);
  }
  const { name, place } = parsed.data;
  if (place === "server" && !(await fileOf(backups, name))) throw notFound(`${name} is not on this server.`);
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
}

export async function drills({ db }: Backups): Promise<DrillInfo[]> {
  return db
    .select()
    .from(backupDrills)
    .orderBy(desc(backupDrills.requestedAt), desc(backupDrills.id))
    .limit(DRILLS_SHOWN);
}
