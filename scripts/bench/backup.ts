/**
 * `npm run bench:backup`: `npm run backup` and `npm run restore` on a shop with a million orders and 200 images
 * (not part of `npm test`; docs/decisions/033). It fills an embedded PostgreSQL (a DATA_DIR of its own) with the
 * orders of BENCH_CUSTOMERS customers and BENCH_IMAGES images of four WebP widths each (random bytes of the sizes such
 * files have, which compress no more than WebP does), then runs the two commands as an operator would, each in its own
 * process, and prints for each its wall time and that process's peak resident memory (VmHWM):
 * - the backup while the database runs (the app's lock held, as by a running app), into the archive;
 * - the restore of that archive into a fresh DATA_DIR (initdb included), then the row counts compared.
 *
 * Settings: BENCH_ORDERS (default 1,000,000), BENCH_CUSTOMERS (20,000), BENCH_IMAGES (200).
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { readManifest } from "#server/backup/read.ts";
import { connect } from "#server/db/client.ts";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { acquireAppLock } from "#server/db/lock.ts";
import { runMigrations } from "#server/db/migrate.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { installJobQueue } from "#server/services/jobs.ts";
import { ROOT } from "#tests/support/server.ts";
import { insertBenchOrders, makeScratch } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const IMAGES = Number(process.env.BENCH_IMAGES ?? 200);
/** The widths of a wide photograph and the sizes of their WebP files. */
const VARIANTS = [
  { width: 480, bytes: 28_000 },
  { width: 960, bytes: 85_000 },
  { width: 1600, bytes: 190_000 },
  { width: 2400, bytes: 380_000 },
];
const MB = 1024 * 1024;
const thousands = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Orders as the shop's own would be: a customer each of CUSTOMERS, over two years, most paid, some delivered. */
async function fill(client: pg.Client) {
  const started = Date.now();
  await insertBenchOrders(client, { orders: ORDERS, customers: CUSTOMERS });
  for (let i = 0; i < IMAGES; i++) {
    const id = randomUUID();
    await client.query(
      `insert into media (id, key, file_name, source_format, source_bytes, width, height, color)
       values ($1, $2, $3, 'jpeg', 2400000, 2400, 1600, '#a08060')`,
      [id, randomBytes(8).toString("hex"), `photo-${i}.jpg`],
    );
    for (const v of VARIANTS) {
      await client.query(
        `insert into media_variants (media_id, format, width, height, size, data, sha256)
         values ($1, 'webp', $2, $3, $4, $5, encode(sha256($5), 'hex'))`,
        [id, v.width, Math.round((v.width * 2) / 3), v.bytes, randomBytes(v.bytes)],
      );
    }
  }
  await client.query("vacuum (analyze)");
  await client.query("checkpoint");
  console.log(
    `inserted ${thousands(ORDERS)} orders and ${IMAGES} images in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * Runs one of the commands in its own Node.js process: its wall time and that process's peak resident memory (VmHWM,
 * read until it exits; the database server it may start is a process of its own, not counted).
 */
async function timed(label: string, args: string[], env: Record<string, string>) {
  const started = performance.now();
  const child = spawn(path.join(ROOT, "node_modules/.bin/node"), ["--import", "tsx", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  let peak = 0;
  const watch = setInterval(() => {
    try {
      const line = readFileSync(`/proc/${child.pid}/status`, "utf8")
        .split("\n")
        .find((l) => l.startsWith("VmHWM:"));
      peak = Math.max(peak, Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0) * 1024);
    } catch {
      /* exited */
    }
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(watch);
  if (code !== 0) throw new Error(`${label} failed:\n${out}`);
  process.stdout.write(out.replace(/^/gm, "  "));
  return { seconds: (performance.now() - started) / 1000, peak };
}

async function count(connection: pg.ClientConfig) {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const { rows } = await client.query<{ orders: number; variants: number; bytes: string }>(
      `select (select count(*)::int from orders) as orders, (select count(*)::int from media_variants) as variants,
              (select sum(length(data))::text from media_variants) as bytes`,
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

async function main() {
  const { dir: scratch } = makeScratch("atelier-bench-backup-");
  const source = path.join(scratch, "data");
  const restored = path.join(scratch, "restored");
  const backups = path.join(scratch, "backups");
  mkdirSync(source);
  const release = acquireAppLock(source); // as the running app holds it: the backup connects to its server
  const server = await startEmbeddedPostgres(source, silentLogger);
  try {
    const database = connect(server.connection, { max: 2 });
    await runMigrations(database);
    await installJobQueue(database.pool, { retryLimit: 8, retryDelaySeconds: 30 });
    await database.close();
    const client = new pg.Client(server.connection);
    await client.connect();
    await fill(client);
    const { rows } = await client.query<{ size: string }>("select pg_database_size(current_database())::text as size");
    await client.end();
    const before = await count(server.connection);

    console.log("\nnpm run backup (the database running, as under the app):");
    const backup = await timed("backup", ["server/cli/backup.ts", backups], { DATA_DIR: source, LOG_LEVEL: "warn" });
    const file = path.join(
      backups,
      readdirSync(backups).find((n) => n.endsWith(".tar"))!,
    );
    const manifest = await readManifest(file);
    const size = statSync(file).size;

    console.log("\nnpm run restore (into a fresh DATA_DIR, initdb included):");
    const restore = await timed("restore", ["server/cli/restore.ts", file], { DATA_DIR: restored, LOG_LEVEL: "warn" });

    const check = await startEmbeddedPostgres(restored, silentLogger);
    const after = await count(check.connection);
    await check.stop();
    if (JSON.stringify(after) !== JSON.stringify(before)) {
      throw new Error(`the restore holds ${JSON.stringify(after)}, the source ${JSON.stringify(before)}`);
    }

    console.log(`\n## Backup and restore: ${thousands(ORDERS)} orders, ${IMAGES} images\n`);
    console.log(
      `database ${(Number(rows[0]!.size) / MB).toFixed(0)} MB on disk; archive ${(size / MB).toFixed(1)} MB; ` +
        `${thousands(manifest.totals.rows)} rows; images ${(Number(before.bytes) / MB).toFixed(0)} MB\n`,
    );
    console.log("| command | wall time | rows/s | peak RSS of its process |");
    console.log("| --- | ---: | ---: | ---: |");
    for (const [label, m] of [
      ["`npm run backup`", backup],
      ["`npm run restore`", restore],
    ] as const) {
      console.log(
        `| ${label} | ${m.seconds.toFixed(1)} s | ${thousands(manifest.totals.rows / m.seconds)} | ${(m.peak / MB).toFixed(0)} MB |`,
      );
    }
    console.log(
      `\nrestored: ${thousands(after.orders)} orders and ${after.variants} image files, the same as the source`,
    );
  } finally {
    await server.stop();
    release();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
