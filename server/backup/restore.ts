import { createHash } from "node:crypto";
import { createReadStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { JobInsert, PgBoss } from "pg-boss";
import tar from "tar-stream";
import { version as appVersion } from "../../package.json";
import { createPool } from "../db/client";
import { startEmbeddedPostgres } from "../db/embedded";
import { acquireAppLock } from "../db/lock";
import type { Logger } from "../lib/logger";
import { installJobQueue, JOBS_SCHEMA, MAIL_QUEUE, type JobsOptions } from "../services/jobs";
import { hashing, ident } from "./create";
import { FORMAT_VERSION, MANIFEST_ENTRY, type Manifest } from "./manifest";
import { readManifest, RestoreError } from "./read";
import { applyMigrationsUpTo, matchBackupSchema } from "./schema";

/**
 * Whether this version can restore the archive: its format, and a schema this version's migrations reach (an older one
 * is restored as it was and migrated at the next start; a newer one is refused).
 */
export function checkRestorable(manifest: Manifest): void {
  if (manifest.formatVersion > FORMAT_VERSION) {
    throw new RestoreError(
      `This backup was made by a newer version of the app (${manifest.app.version}, archive format ` +
        `${manifest.formatVersion}); this one (${appVersion}) reads format ${FORMAT_VERSION}. Restore it with the ` +
        `version that made it, or a newer one.`,
    );
  }
  const match = matchBackupSchema(manifest.schema);
  if (match.kind === "known") return;
  throw new RestoreError(
    match.kind === "newer"
      ? `This backup's database schema is newer than this version of the app knows: it was made at migration ` +
          `${manifest.schema.migration} by version ${manifest.app.version}, and this version (${appVersion}) stops at ` +
          `${match.newest.tag}. Restore it with version ${manifest.app.version} or newer.`
      : `This backup's database schema (migration ${manifest.schema.migration}) is not one of this app's migrations; ` +
          `it was not made by this app.`,
  );
}

export { readManifest, RestoreError };

const JOB_BATCH = 500;

export interface RestoreResult {
  manifest: Manifest;
  ms: number;
}

/**
 * Restores an archive into an empty database (no table of the app, no job queue): refused on any other, and on an
 * archive that is not this app's, is corrupt, or has a newer schema. Everything lands in one transaction (the schema
 * up to the archive's migration, every row, the sequences, the pending jobs), so a failure part-way leaves the target
 * as empty as it was; the job queue's schema, which pg-boss installs on its own connection, is dropped again.
 */
export async function restoreBackup(
  file: string,
  target: pg.PoolConfig | string,
  options: { jobs: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">; logger: Logger },
): Promise<RestoreResult> {
  const started = Date.now();
  const manifest = await readManifest(file);
  checkRestorable(manifest);
  const pool = createPool({
    ...(typeof target === "string" ? { connectionString: target } : target),
    max: 3,
    application_name: "atelier-restore",
  });
  try {
    await refuseNonEmpty(pool);
    let installed = false;
    try {
      await installJobQueue(pool, options.jobs, async (boss) => {
        installed = true;
        for (const queue of manifest.jobs.queues) {
          if (queue.name === MAIL_QUEUE || (await boss.getQueue(queue.name))) continue;
          const { retryDelayMax, ...rest } = queue;
          await boss.createQueue(queue.name, { ...rest, ...(retryDelayMax === null ? {} : { retryDelayMax }) });
        }
        await loadArchive(file, manifest, pool, boss, options.logger);
      });
    } catch (error) {
      if (installed) await pool.query(`drop schema if exists ${JOBS_SCHEMA} cascade`).catch(() => undefined);
      throw error;
    }
    // Fresh statistics for the planner: a restored million orders would otherwise be planned as an empty table.
    await pool
      .query("analyze")
      .catch((error: unknown) => options.logger.warn({ error }, "analyze after the restore failed"));
    return { manifest, ms: Date.now() - started };
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** An empty target: nothing of the app's (tables, sequences, the migrations' or the job queue's schema). */
async function refuseNonEmpty(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'drizzle', $1) and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
     order by 1`,
    [JOBS_SCHEMA],
  );
  if (rows.length) {
    const names = rows.slice(0, 5).map((r) => r.name);
    throw new RestoreError(
      `The target database is not empty: it holds ${rows.length} tables or sequences (${names.join(", ")}` +
        `${rows.length > 5 ? ", …" : ""}). A restore only goes into an empty database, so that nothing is mixed or ` +
        `overwritten: create a new database (createdb) for DATABASE_URL, or use a new DATA_DIR.`,
    );
  }
}

/** The one transaction: the schema, then each entry as the archive holds it, checked against the manifest. */
async function loadArchive(file: string, manifest: Manifest, pool: pg.Pool, boss: PgBoss, logger: Logger) {
  const expected = [...manifest.tables.map((t) => t.entry), manifest.jobs.entry];
  const client = await pool.connect();
  let extract: tar.Extract | undefined;
  try {
    await client.query("begin");
    await client.query("set local statement_timeout = 0");
    await applyMigrationsUpTo(client, manifest.schema);
    // The archive holds every table exactly as it was, derived ones included (the order tallies): their triggers stay
    // off while it loads, and what the migrations inserted (the tallies' time zone) makes way for the archive's rows.
    // Foreign keys stay on; the archive's order satisfies them.
    const tables = manifest.tables.map((t) => `public.${ident(t.name)}`);
    for (const table of tables) await client.query(`alter table ${table} disable trigger user`);
    if (tables.length) await client.query(`truncate ${tables.join(", ")}`);
    // As pg_restore does: the rows first, then the indexes and constraints, each built once over all of them (a
    // million orders load several times faster than into their indexes row by row).
    const rebuild = await dropIndexesAndConstraints(
      client,
      manifest.tables.map((t) => t.name),
    );
    // Read from here on only: tar-stream hands an entry to the iterator waiting at that moment, and to nobody later.
    extract = tar.extract();
    const reading = pipeline(createReadStream(file), extract);
    reading.catch(() => undefined);
    let index = -1;
    for await (const entry of extract) {
      const name = entry.header.name;
      if (index === -1) {
        if (name !== MANIFEST_ENTRY) throw corrupt(file, "its first entry is not the manifest");
        entry.resume();
        index++;
        continue;
      }
      if (name !== expected[index]) throw corrupt(file, `found ${name} where ${expected[index] ?? "the end"} belongs`);
      const hash = createHash("sha256");
      const counted = { bytes: 0 };
      const check = hashing(hash, counted);
      const table = manifest.tables[index];
      const started = Date.now();
      let rows: number;
      if (table) {
        const target = `public.${ident(table.name)}`;
        const copy = client.query(copyFrom(`copy ${target} (${table.columns.map(ident).join(", ")}) from stdin`));
        await pipeline(entry, check, createGunzip(), copy).catch((error: unknown) => {
          throw failed(file, name, error);
        });
        rows = copy.rowCount;
      } else {
        rows = await queueJobs(entry as unknown as Readable, check, client, boss, file);
      }
      const want = table ?? manifest.jobs;
      if (counted.bytes !== want.bytes || hash.digest("hex") !== want.sha256) {
        throw corrupt(file, `${name} does not match its checksum in the manifest`);
      }
      if (rows !== want.rows) throw corrupt(file, `${name} holds ${rows} rows, its manifest says ${want.rows}`);
      logger.debug({ entry: name, rows, ms: Date.now() - started }, "restored");
      index++;
    }
    await reading.catch((error: unknown) => {
      throw corrupt(file, error instanceof Error ? error.message : String(error));
    });
    if (index < expected.length) throw corrupt(file, `it ends before ${expected[Math.max(index, 0)]}`);
    await client.query("set local maintenance_work_mem = '256MB'");
    for (const statement of rebuild) await client.query(statement);
    for (const table of tables) await client.query(`alter table ${table} enable trigger user`);
    for (const s of manifest.sequences) {
      await client.query(`select setval($1::regclass, $2::bigint, $3)`, [
        `public.${ident(s.name)}`,
        s.lastValue,
        s.isCalled,
      ]);
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    extract?.destroy();
    client.release();
  }
}

/**
 * Drops the indexes, primary and unique keys and foreign keys of the tables about to be loaded, and answers the
 * statements that make them again (their own definitions, read from the catalogue), keys before the foreign keys that
 * need them. Check and not-null constraints stay: they cost nothing to keep.
 */
async function dropIndexesAndConstraints(client: pg.PoolClient, tables: string[]): Promise<string[]> {
  const { rows: constraints } = await client.query<{ target: string; name: string; def: string; type: string }>(
    `select format('public.%I', t.relname) as target, k.conname as name, pg_get_constraintdef(k.oid) as def,
            k.contype::text as type
     from pg_constraint k join pg_class t on t.oid = k.conrelid join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = 'public' and t.relname = any($1) and k.contype in ('p', 'u', 'f', 'x')
     order by case k.contype when 'f' then 1 else 0 end, t.relname, k.conname`,
    [tables],
  );
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `select format('public.%I', i.relname) as name, pg_get_indexdef(x.indexrelid) as def
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
     join pg_namespace n on n.oid = t.relnamespace
     where n.nspname = 'public' and t.relname = any($1)
       and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid and k.conrelid = x.indrelid)
     order by t.relname, i.relname`,
    [tables],
  );
  const foreign = constraints.filter((k) => k.type === "f");
  const keys = constraints.filter((k) => k.type !== "f");
  for (const k of [...foreign, ...keys]) await client.query(`alter table ${k.target} drop constraint ${ident(k.name)}`);
  for (const i of indexes) await client.query(`drop index ${i.name}`);
  return [
    ...keys.map((k) => `alter table ${k.target} add constraint ${ident(k.name)} ${k.def}`),
    ...indexes.map((i) => i.def),
    ...foreign.map((k) => `alter table ${k.target} add constraint ${ident(k.name)} ${k.def}`),
  ];
}

/** The pending jobs, queued again through pg-boss inside the restore's transaction, in batches. */
async function queueJobs(
  entry: Readable,
  check: Transform,
  client: pg.PoolClient,
  boss: PgBoss,
  file: string,
): Promise<number> {
  const db = { executeSql: (text: string, values?: unknown[]) => client.query(text, values as unknown[]) };
  const gunzip = createGunzip();
  const feeding = pipeline(entry, check, gunzip);
  feeding.catch(() => undefined);
  let rows = 0;
  let batch: { name: string; jobs: JobInsert[] } | undefined;
  const flush = async () => {
    if (batch?.jobs.length) await boss.insert(batch.name, batch.jobs, { db });
    batch = undefined;
  };
  try {
    for await (const line of createInterface({ input: gunzip, crlfDelay: Infinity })) {
      if (!line) continue;
      const { name, retryDelayMax, ...job } = JSON.parse(line) as JobInsert & {
        name: string;
        retryDelayMax: number | null;
      };
      if (batch && (batch.name !== name || batch.jobs.length >= JOB_BATCH)) await flush();
      batch ??= { name, jobs: [] };
      batch.jobs.push({ ...job, ...(retryDelayMax === null ? {} : { retryDelayMax }) });
      rows++;
    }
    await flush();
    await feeding;
  } catch (error) {
    throw failed(file, "jobs", error);
  }
  return rows;
}

/** A load that failed: a damaged entry (gzip, COPY's parser) or a row the schema refused. */
const failed = (file: string, entry: string, error: unknown) =>
  new RestoreError(
    `${path.basename(file)} could not be restored (${entry}: ${error instanceof Error ? error.message : String(error)}); ` +
      `nothing was restored. If the file was copied, copy it again; else use another backup.`,
  );

const corrupt = (file: string, why: string) =>
  new RestoreError(
    `${path.basename(file)} is damaged (${why}); nothing was restored. Use another backup, or copy this one again.`,
  );

/**
 * Restores into the embedded PostgreSQL of an empty DATA_DIR: initialises its cluster, restores, stops it. The app
 * must not run on that DATA_DIR (the app lock says so). On failure, a cluster this restore created is removed again.
 */
export async function restoreIntoDataDir(
  file: string,
  dataDir: string,
  options: { jobs: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">; logger: Logger },
): Promise<RestoreResult> {
  const manifest = await readManifest(file);
  checkRestorable(manifest);
  mkdirSync(dataDir, { recursive: true });
  const release = acquireAppLock(dataDir);
  let server: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  try {
    server = await startEmbeddedPostgres(dataDir, options.logger);
    const result = await restoreBackup(file, server.connection, options);
    await server.stop();
    return result;
  } catch (error) {
    await server?.stop().catch(() => undefined);
    if (server?.created) rmSync(server.dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    release();
  }
}

/** What a restore test found: each table's rows as the manifest says and as counted after the restore. */
export interface DrillReport {
  tables: { name: string; rows: number; restored: number; sha256: string }[];
  /** The job queue's waiting jobs, queued again in the scratch database. */
  jobs: { rows: number; sha256: string };
  /** Rows restored in all (tables and jobs). */
  rows: number;
  ms: number;
}

/** The same server's connection, to another database of it. */
export function toDatabase(config: pg.PoolConfig, database: string): pg.PoolConfig {
  if (!config.connectionString) return { ...config, database };
  const url = new URL(config.connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return { ...config, connectionString: url.toString() };
}

/**
 * The restore test (docs/decisions/082): restores an archive into a scratch database made for it on the app's own
 * PostgreSQL server, exactly as `npm run restore` does (every entry checked against its manifest's SHA-256 and row
 * count as it loads), counts every table's rows there, and drops the scratch database whatever happened. Streams
 * throughout: memory stays bounded whatever the size. A scratch database of that name left by a test that died is
 * dropped first.
 */
export async function drillBackup(
  file: string,
  server: pg.PoolConfig,
  options: { scratch: string; jobs: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">; logger: Logger },
): Promise<{ manifest: Manifest; report: DrillReport }> {
  const started = Date.now();
  const manifest = await readManifest(file);
  checkRestorable(manifest);
  const admin = createPool({ ...server, max: 1, application_name: "atelier-restore-test" });
  const scratch = ident(options.scratch);
  try {
    await admin.query(`drop database if exists ${scratch} with (force)`);
    await admin.query(`create database ${scratch} template template0`).catch((error: unknown) => {
      const code = (error as { code?: string }).code;
      throw new RestoreError(
        code === "42501"
          ? `The restore test needs a scratch database, and the database user may not create one: give it the ` +
              `right (ALTER ROLE … CREATEDB), or test the backup with npm run restore into an empty database.`
          : `The scratch database for the restore test could not be created: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    try {
      const target = toDatabase(server, options.scratch);
      await restoreBackup(file, target, { jobs: options.jobs, logger: options.logger });
      const counted = createPool({ ...target, max: 1, application_name: "atelier-restore-test" });
      let restored: Map<string, number>;
      try {
        const { rows } = manifest.tables.length
          ? await counted.query<{ name: string; n: string }>(
              manifest.tables
                .map((t, i) => `select $${i + 1}::text as name, count(*)::text as n from public.${ident(t.name)}`)
                .join(" union all "),
              manifest.tables.map((t) => t.name),
            )
          : { rows: [] };
        restored = new Map(rows.map((r) => [r.name, Number(r.n)]));
      } finally {
        await counted.end().catch(() => undefined);
      }
      const tables = manifest.tables.map((t) => ({
        name: t.name,
        rows: t.rows,
        restored: restored.get(t.name) ?? 0,
        sha256: t.sha256,
      }));
      const wrong = tables.filter((t) => t.restored !== t.rows);
      if (wrong.length) {
        throw new RestoreError(
          `After the restore, ${wrong.map((t) => `${t.name} holds ${t.restored} rows, its manifest says ${t.rows}`).join("; ")}.`,
        );
      }
      const report: DrillReport = {
        tables,
        jobs: { rows: manifest.jobs.rows, sha256: manifest.jobs.sha256 },
        rows: tables.reduce((n, t) => n + t.restored, 0) + manifest.jobs.rows,
        ms: Date.now() - started,
      };
      return { manifest, report };
    } finally {
      await admin
        .query(`drop database if exists ${scratch} with (force)`)
        .catch((error: unknown) =>
          options.logger.error(
            { error, database: options.scratch },
            "the restore test's scratch database could not be dropped",
          ),
        );
    }
  } finally {
    await admin.end().catch(() => undefined);
  }
}
