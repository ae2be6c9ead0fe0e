/**
 * `npm run bench:import`: a member import of BENCH_ROWS generated rows (default 100,000) through the imports service
 * (issue 37 part 3, decision 079), on a scratch embedded PostgreSQL, in this process (not part of `npm test`). The file
 * is generated as a stream into the upload (never whole in memory), then checked (the dry run) and imported by the
 * job queue's worker, as the screens do. Prints the time and rows/s of each step and this process's peak resident
 * memory during each (sampled every 100 ms; flat means nothing holds the file or its rows). BENCH_MEMBERS (default
 * 0.1) is the share of rows with a membership to give (each one a grant of its own, in its own transaction);
 * half the rows confirmed newsletter subscribers. Short run: BENCH_ROWS=10000. V8 lets garbage pile up before it
 * collects when the heap may grow: run with NODE_OPTIONS=--max-old-space-size=192 to see that nothing is kept (the
 * whole import then fits in that heap, RSS within a few tens of MB of the start).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import pg from "pg";
import { loadConfig } from "#server/config.ts";
import { connect } from "#server/db/client.ts";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { runMigrations } from "#server/db/migrate.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createServices } from "#server/services/index.ts";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 0.1);
const thousands = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The file, a line at a time: our own export's columns. */
function* lines(): Generator<string> {
  yield "Email,Name,Joined (UTC),Membership Package,Membership Ends (UTC),Newsletter\n";
  const ends = new Date(Date.now() + 200 * 86_400_000).toISOString();
  const step = MEMBERS > 0 ? Math.round(1 / MEMBERS) : 0;
  for (let i = 0; i < ROWS; i++) {
    const member = step > 0 && i % step === 0;
    yield `member${i}@example.org,Member ${i},2024-01-01T00:00:00.000Z,${member ? "Gold" : ""},${member ? ends : ""},${i % 2 ? "confirmed" : ""}\n`;
  }
}

/** Runs `step`, sampling this process's RSS: its time and peak. */
async function measured(step: () => Promise<void>) {
  let peak = process.memoryUsage().rss;
  let heap = process.memoryUsage().heapUsed;
  const start = peak;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heap = Math.max(heap, m.heapUsed + m.external);
  }, 100);
  const t0 = performance.now();
  try {
    await step();
  } finally {
    clearInterval(timer);
  }
  return { seconds: (performance.now() - t0) / 1000, start, peak, heap };
}

const dir = mkdtempSync(path.join(tmpdir(), "atelier-bench-import-"));
const server = await startEmbeddedPostgres(dir, silentLogger);
try {
  const admin = new pg.Client(server.connection);
  await admin.connect();
  await admin.query("create database bench");
  await admin.end();
  const database = connect({ ...server.connection, database: "bench" });
  await runMigrations(database);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: path.join(dir, "data"),
    AUTH_SECRET: "bench-import-secret-".padEnd(40, "x"),
    ADMIN_2FA: "optional",
    TZ: "Europe/London",
  });
  const services = createServices(database, config, silentLogger);
  await services.start();
  const actor = { id: "bench-staff", email: "bench@example.org" };
  const until = async (id: string, state: string) => {
    for (;;) {
      const r = await services.imports.get(id);
      if (r.state === state) return r;
      if (r.state === "failed") throw new Error(r.error ?? "failed");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  let id = "";
  const upload = await measured(async () => {
    const bytes = Readable.from(lines(), { objectMode: false });
    id = (await services.imports.upload(bytes, "bench.csv", actor)).id;
  });
  const check = await measured(async () => {
    await services.imports.checkFile(id, { preset: "ours" });
    await until(id, "checked");
  });
  const record = await services.imports.get(id);
  const run = await measured(async () => {
    await services.imports.start(id, actor);
    await until(id, "done");
  });
  const { rows } = await database.pool.query(
    `select (select count(*) from "user")::int as customers, (select count(*) from orders)::int as memberships,
       (select count(*) from subscribers)::int as subscribers`,
  );
  console.log(
    `member import of ${thousands(ROWS)} rows (${mb(record.bytes)} file), ${MEMBERS * 100}% with a membership`,
  );
  for (const [name, m] of [
    ["upload (streamed to disk)", upload],
    ["check (the dry run)", check],
    ["import (the job)", run],
  ] as const)
    console.log(
      `  ${name.padEnd(26)} ${m.seconds.toFixed(1).padStart(6)} s  ${thousands(ROWS / m.seconds).padStart(8)} rows/s  RSS ${mb(m.start)} → peak ${mb(m.peak)}, JS heap + buffers peak ${mb(m.heap)}`,
    );
  console.log(`  counts: ${JSON.stringify(record.counts)}; in the database: ${JSON.stringify(rows[0])}`);
  await services.close();
  await database.close();
} finally {
  await server.stop();
}
