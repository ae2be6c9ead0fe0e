import { createHash, type Hash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import QueryStream from "pg-query-stream";
import tar from "tar-stream";
import { name as appName, version as appVersion } from "../../package.json";
import {
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_ENTRY,
  archiveName,
  type BackupReason,
  type Manifest,
  type TableEntry,
} from "./manifest";
import { currentMigration, lastAppliedMigration } from "./schema";

/** The job queue's schema (server/services/jobs.ts), read here without importing the queue. */
const JOBS_SCHEMA = "pgboss";
/** Quick gzip: most of the bytes are text that compresses well at any level, images are WebP that does not. */
const GZIP_LEVEL = 3;

export interface CreateBackupOptions {
  /** The folder the archive is written to (made if missing). */
  dir: string;
  reason: BackupReason;
}

export interface CreatedBackup {
  /** The archive's full path. */
  file: string;
  name: string;
  size: number;
  manifest: Manifest;
  ms: number;
}

/** A double-quoted SQL identifier. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Writes one archive of every table of the app, consistent as of one instant: one REPEATABLE READ transaction reads
 * them all while writes go on (docs/decisions/033). Each table leaves PostgreSQL as a COPY stream, gzipped and hashed
 * on the way to a file of its own beside the archive; the archive (tar: the manifest, then those files in restore
 * order) is then assembled, synced and renamed into place, so a crash leaves no half-written archive under a real name.
 * Memory stays bounded whatever the size: nothing is held but the streams' buffers.
 */
export async function createBackup(pool: pg.Pool, options: CreateBackupOptions): Promise<CreatedBackup> {
  const started = Date.now();
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(path.join(options.dir, ".partial-"));
  let partial: string | undefined;
  try {
    const { manifest, files } = await dumpSnapshot(pool, options.reason, work);
    const suffix = suffixFor(options.reason);
    let name = archiveName(new Date(manifest.createdAt), suffix);
    for (let n = 2; await exists(path.join(options.dir, name)); n++) {
      name = archiveName(new Date(manifest.createdAt), [suffix, String(n)].filter(Boolean).join("-"));
    }
    partial = path.join(work, name);
    await writeArchive(partial, manifest, files);
    const file = path.join(options.dir, name);
    await rename(partial, file);
    await syncDir(options.dir);
    return { file, name, size: (await stat(file)).size, manifest, ms: Date.now() - started };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** One transaction, one snapshot: every table, sequence and pending job as the database was at its first statement. */
async function dumpSnapshot(
  pool: pg.Pool,
  reason: BackupReason,
  work: string,
): Promise<{ manifest: Manifest; files: Map<string, string> }> {
  const client = await pool.connect();
  const files = new Map<string, string>();
  try {
    await client.query("begin isolation level repeatable read read only");
    // The snapshot is taken here, by the transaction's first statement.
    const { rows: head } = await client.query<{ at: Date; server: string }>(
      "select now() as at, current_setting('server_version') as server",
    );
    await client.query("set local statement_timeout = 0");
    await client.query("set local idle_in_transaction_session_timeout = 0");

    const migrationMillis = await lastAppliedMigration(client);
    if (migrationMillis === undefined) {
      throw new Error(
        "This database has no schema of this app (no migration was applied): there is nothing to back up.",
      );
    }
    const { rows: applied } = await client.query<{ n: number }>(
      `select count(*)::int as n from "drizzle"."__drizzle_migrations"`,
    );
    const migration = (await currentMigration(client))?.tag ?? `unknown-${migrationMillis}`;

    const tables: TableEntry[] = [];
    for (const table of await appTables(client)) {
      const entry = `data/${table.name}.copy.gz`;
      const file = path.join(work, `${tables.length}.gz`);
      const copy = client.query(
        copyTo(`copy (select ${table.columns.map(ident).join(", ")} from public.${ident(table.name)}) to stdout`),
      );
      const written = await spool(file, copy);
      tables.push({ name: table.name, columns: table.columns, entry, rows: copy.rowCount, ...written });
      files.set(entry, file);
    }

    const { rows: seqNames } = await client.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
    );
    const sequences: Manifest["sequences"] = [];
    for (const { name } of seqNames) {
      const { rows } = await client.query<{ last: string; called: boolean }>(
        `select last_value::text as last, is_called as called from public.${ident(name)}`,
      );
      sequences.push({ name, lastValue: rows[0]!.last, isCalled: rows[0]!.called });
    }

    const jobsFile = path.join(work, "jobs.gz");
    const jobs = await dumpJobs(client, jobsFile);
    files.set(jobs.entry, jobsFile);
    await client.query("commit");

    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      app: { name: appName, version: appVersion },
      reason,
      createdAt: new Date(head[0]!.at).toISOString(),
      server: { version: head[0]!.server },
      schema: { migration, migrationMillis, migrations: applied[0]!.n },
      tables,
      sequences,
      jobs,
      totals: {
        rows: tables.reduce((n, t) => n + t.rows, 0) + jobs.rows,
        bytes: tables.reduce((n, t) => n + t.bytes, 0) + jobs.bytes,
      },
    };
    return { manifest, files };
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The app's tables (schema public) with their stored columns (generated ones are computed again on restore), each
 * after the tables its foreign keys point at, so that a restore can load them in this order with every check on.
 */
export async function appTables(client: Pick<pg.ClientBase, "query">): Promise<{ name: string; columns: string[] }[]> {
  const { rows: tables } = await client.query<{ name: string; columns: string[] }>(
    `select c.relname as name, array_agg(a.attname::text order by a.attnum) as columns
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
     group by c.relname
     order by c.relname`,
  );
  const { rows: links } = await client.query<{ child: string; parent: string }>(
    `select t.relname as child, p.relname as parent
     from pg_constraint k
     join pg_class t on t.oid = k.conrelid
     join pg_class p on p.oid = k.confrelid
     join pg_namespace n on n.oid = t.relnamespace
     where k.contype = 'f' and n.nspname = 'public' and t.oid <> p.oid`,
  );
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of links) parents.set(child, (parents.get(child) ?? new Set()).add(parent));
  const ordered: { name: string; columns: string[] }[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find(
      (t) => !placed.has(t.name) && [...(parents.get(t.name) ?? [])].every((p) => placed.has(p)),
    );
    if (!next) throw new Error("The app's tables reference each other in a circle: no order restores them.");
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** The job queue's queues, and its jobs not done yet as JSON lines (what a restore queues again). */
async function dumpJobs(client: pg.PoolClient, file: string): Promise<Manifest["jobs"]> {
  const entry = "jobs/pending.jsonl.gz";
  const { rows: found } = await client.query<{ found: boolean }>(
    `select to_regclass('${JOBS_SCHEMA}.job') is not null and to_regclass('${JOBS_SCHEMA}.queue') is not null as found`,
  );
  if (!found[0]?.found) {
    return { queues: [], entry, rows: 0, ...(await spool(file, Readable.from([]))) };
  }
  const { rows: queues } = await client.query<Manifest["jobs"]["queues"][number]>(
    `select name, policy, retry_limit as "retryLimit", retry_delay as "retryDelay", retry_backoff as "retryBackoff",
       retry_delay_max as "retryDelayMax", expire_seconds as "expireInSeconds",
       retention_seconds as "retentionSeconds", deletion_seconds as "deleteAfterSeconds"
     from ${JOBS_SCHEMA}.queue order by name`,
  );
  let rows = 0;
  const stream = client.query(
    new QueryStream(
      `select id, name, priority, data, retry_limit as "retryLimit", retry_delay as "retryDelay",
         retry_backoff as "retryBackoff", retry_delay_max as "retryDelayMax", expire_seconds as "expireInSeconds",
         deletion_seconds as "deleteAfterSeconds", singleton_key as "singletonKey", start_after as "startAfter"
       from ${JOBS_SCHEMA}.job where state in ('created', 'retry', 'active') order by created_on, id`,
      [],
      { batchSize: 500 },
    ),
  );
  const lines = new Transform({
    writableObjectMode: true,
    transform(row: unknown, _encoding, done) {
      rows++;
      done(null, JSON.stringify(row) + "\n");
    },
  });
  const written = await spool(file, stream, lines);
  return { queues, entry, rows, ...written };
}

/** Streams `source` gzipped into `file`, hashing what is written (the bytes the archive will hold). */
async function spool(
  file: string,
  source: Readable,
  ...through: Transform[]
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  const counted = { bytes: 0 };
  await pipeline([
    source,
    ...through,
    createGzip({ level: GZIP_LEVEL }),
    hashing(hash, counted),
    createWriteStream(file),
  ]);
  return { bytes: counted.bytes, sha256: hash.digest("hex") };
}

export function hashing(hash: Hash, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      counted.bytes += chunk.length;
      done(null, chunk);
    },
  });
}

/** The tar: the manifest first (a restore checks it before touching anything), then each entry in restore order. */
async function writeArchive(file: string, manifest: Manifest, files: Map<string, string>): Promise<void> {
  const mtime = new Date(manifest.createdAt);
  const pack = tar.pack();
  const written = pipeline(pack, createWriteStream(file, { mode: 0o600 }));
  const entries = [...manifest.tables.map((t) => ({ entry: t.entry, bytes: t.bytes })), manifest.jobs];
  const adding = (async () => {
    await addEntry(pack, { name: MANIFEST_ENTRY, mtime, mode: 0o600 }, Buffer.from(JSON.stringify(manifest, null, 2)));
    for (const { entry, bytes } of entries) {
      const target = pack.entry({ name: entry, size: bytes, mtime, mode: 0o600 });
      await pipeline(createReadStream(files.get(entry)!), target);
    }
    pack.finalize();
  })();
  await Promise.all([adding, written]);
  const handle = await open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function addEntry(pack: tar.Pack, header: Parameters<tar.Pack["entry"]>[0], body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => pack.entry(header, body, (error) => (error ? reject(error) : resolve())));
}

/** Daily archives carry the time only; the others say why they were made. */
const suffixFor = (reason: BackupReason) => (reason === "daily" ? undefined : reason);

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
