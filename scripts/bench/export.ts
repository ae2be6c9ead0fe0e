/**
 * `npm run bench:export`: the orders CSV of a shop with a million orders, downloaded from the built app (one process),
 * measured (not part of `npm test`):
 * - rows/s and MB/s of the download, from the request to the last byte;
 * - the server's resident memory: idle (before), and its peak during the export (VmHWM, reset just before), the goal
 *   being a flat line under idle + 100 MB whatever the number of rows;
 * - how long `/healthz` takes while the export runs (asked every 100 ms): the event loop stays free.
 *
 * Settings: BENCH_ORDERS (default 1,000,000), BENCH_CUSTOMERS (default 20,000).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import pg from "pg";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { ROOT } from "#tests/support/server.ts";
import { buildIsCurrent } from "../build-state.mjs";
import { insertBenchOrders, makeScratch, signIn, startApp } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password-1" };
const MB = 1024 * 1024;

const thousands = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A field of /proc/<pid>/status in bytes (VmRSS: resident now, VmHWM: the peak since the last reset). */
function memory(pid: number, field: "VmRSS" | "VmHWM"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? NaN) * 1024;
}

/** Orders as the shop's own would be: a customer each of CUSTOMERS, over two years, most paid, some delivered. */
async function insertOrders(client: pg.Client) {
  const started = Date.now();
  await insertBenchOrders(client, { orders: ORDERS, customers: CUSTOMERS, quotedAddresses: true });
  await client.query("vacuum (analyze)");
  await client.query("checkpoint");
  console.log(`inserted ${thousands(ORDERS)} orders in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Downloads `url` to the end, counting its bytes and rows, and answers how long it took. */
async function download(url: string, cookie: string) {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  if (!res.ok || !res.body) throw new Error(`the export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  let firstByteMs = 0;
  for await (const chunk of res.body) {
    if (!bytes) firstByteMs = performance.now() - started;
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { bytes, rows: lines - 1, ms: performance.now() - started, firstByteMs };
}

interface Measured {
  bytes: number;
  rows: number;
  ms: number;
  firstByteMs: number;
  peak: number;
  healthMedian: number;
  healthMax: number;
}

/** One export, with the server's peak resident memory (VmHWM reset first) and /healthz asked every 100 ms meanwhile. */
async function measured(url: string, pid: number, cookie: string): Promise<Measured> {
  writeFileSync(`/proc/${pid}/clear_refs`, "5"); // VmHWM := VmRSS: the peak from here on
  let highest = 0;
  const latencies: number[] = [];
  let running = true;
  const watch = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      latencies.push(performance.now() - started);
      highest = Math.max(highest, memory(pid, "VmRSS"));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const result = await download(`${url}/admin/export/orders.csv`, cookie);
  running = false;
  await watch;
  latencies.sort((x, y) => x - y);
  return {
    ...result,
    peak: Math.max(memory(pid, "VmHWM"), highest),
    healthMedian: latencies[Math.floor(latencies.length / 2)] ?? NaN,
    healthMax: latencies.at(-1) ?? NaN,
  };
}

async function main() {
  if (!buildIsCurrent()) {
    console.log("building");
    if (spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" }).status !== 0)
      throw new Error("build failed");
  }
  const { dir: scratch } = makeScratch("atelier-bench-export-");
  const pgServer = await startEmbeddedPostgres(scratch, silentLogger);
  const setup = new pg.Client(pgServer.connection);
  await setup.connect();
  await setup.query("create database bench");
  await setup.end();
  const { host, port, user, password } = pgServer.connection as Record<string, string>;
  const databaseUrl = `postgresql://${encodeURIComponent(user!)}:${encodeURIComponent(password!)}@localhost:${port}/bench?host=${encodeURIComponent(host!)}`;
  const app = await startApp({
    DATABASE_URL: databaseUrl,
    DATA_DIR: `${scratch}/app`,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    WEB_CONCURRENCY: "1",
    TZ: "Europe/London",
  });
  try {
    const client = new pg.Client({ ...(pgServer.connection as pg.ClientConfig), database: "bench" });
    await client.connect();
    await insertOrders(client);
    await client.end();
    const cookie = await signIn(app.url, ADMIN);
    const pid = app.child.pid!;

    await (await fetch(`${app.url}/admin`, { headers: { cookie } })).arrayBuffer();
    await new Promise((r) => setTimeout(r, 3_000));
    const idle = memory(pid, "VmRSS");
    const first = await measured(app.url, pid, cookie);
    await new Promise((r) => setTimeout(r, 3_000));
    const idleAfter = memory(pid, "VmRSS");
    const second = await measured(app.url, pid, cookie);
    const row = (label: string, f: (m: Measured) => string) => console.log(`| ${label} | ${f(first)} | ${f(second)} |`);

    console.log(`\n## Orders CSV export, ${thousands(first.rows)} rows (one app process)\n`);
    console.log(
      `server RSS idle before the first export: ${(idle / MB).toFixed(0)} MB; before the second: ${(idleAfter / MB).toFixed(0)} MB\n`,
    );
    console.log("| measurement | first export | second export |");
    console.log("| --- | ---: | ---: |");
    row("size", (m) => `${(m.bytes / MB).toFixed(1)} MB`);
    row("first byte", (m) => `${m.firstByteMs.toFixed(0)} ms`);
    row("whole download", (m) => `${(m.ms / 1000).toFixed(1)} s`);
    row("rows/s", (m) => thousands(m.rows / (m.ms / 1000)));
    row("MB/s", (m) => (m.bytes / MB / (m.ms / 1000)).toFixed(1));
    row("server RSS peak", (m) => `${(m.peak / MB).toFixed(0)} MB`);
    row("peak − idle before the first export (goal < 100 MB)", (m) => `${((m.peak - idle) / MB).toFixed(0)} MB`);
    row("/healthz while exporting: median", (m) => `${m.healthMedian.toFixed(1)} ms`);
    row("/healthz while exporting: max", (m) => `${m.healthMax.toFixed(1)} ms`);
    const result = first;
    if (result.rows !== ORDERS) throw new Error(`the export held ${result.rows} rows, not ${ORDERS}`);
  } finally {
    await app.stop();
    await pgServer.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
