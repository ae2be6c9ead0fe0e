/**
 * `npm run bench:webhooks`: BENCH_EVENTS events (default 10,000) delivered to a local HTTP listener through the job
 * queue (issue 37, "Done when"; not part of `npm test`). It starts a scratch embedded PostgreSQL and the services in
 * this process (no build needed), adds one endpoint on the listener (WEBHOOKS_ALLOW_PRIVATE), writes each event in a
 * transaction of its own (BENCH_WRITERS at once, default 8) as the services do, and prints:
 * - how long writing the events took, and how long until the listener had every delivery (deliveries/s);
 * - that every event arrived exactly once, the first 200 signatures checked with the library's own verifier;
 * - the job queue's figures for the webhook queue: jobs created, completed and failed, and how many deliveries each
 *   job's drain sent on average.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/open.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createServices } from "#server/services/index.ts";
import { WEBHOOK_QUEUE } from "#server/services/webhooks.ts";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const VERIFIED = 200;
const thousands = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

const dataDir = mkdtempSync(path.join(tmpdir(), "atelier-bench-webhooks-"));
const seen = new Map<string, number>();
const toVerify: { body: string; headers: Record<string, string> }[] = [];
const listener = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const id = String(req.headers["webhook-id"]);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    if (toVerify.length < VERIFIED)
      toVerify.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers as Record<string, string> });
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/bench`;

const opened = await openDatabase(
  loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    AUTH_SECRET: "b".repeat(40),
    LOG_LEVEL: "silent",
    WEBHOOKS_ALLOW_PRIVATE: "1",
    JOB_POLL_SECONDS: "0.5",
  }),
  silentLogger,
);
const services = createServices(opened.database, opened.config, silentLogger);
try {
  await services.start();
  const { pool, db } = opened.database;
  const { rows } = await pool.query(
    `insert into "user" (id, name, email) values ('bench-owner', 'Owner', 'owner@example.org') returning id, email`,
  );
  const { secret } = await services.webhooks.add({ url, description: "Bench", events: ["all"] }, rows[0]);

  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < EVENTS) {
        const n = next++;
        await db.transaction((tx) =>
          services.webhooks.emitTx(tx, "contact_message.received", {
            message: { id: `bench-${n}`, name: "Bench", email: `bench-${n}@example.org`, subject: "Bench" },
          }),
        );
      }
    }),
  );
  const written = performance.now();
  console.log(
    `wrote ${thousands(EVENTS)} events in ${((written - started) / 1000).toFixed(1)} s ` +
      `(${thousands(EVENTS / ((written - started) / 1000))} events/s, ${WRITERS} writers, one transaction each)`,
  );
  const deadline = Date.now() + 10 * 60_000;
  let delivered = 0;
  while (Date.now() < deadline) {
    const r = await pool.query("select count(*)::int as n from webhook_deliveries where state = 'succeeded'");
    delivered = r.rows[0].n;
    if (delivered >= EVENTS) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const done = performance.now();
  const seconds = (done - started) / 1000;
  console.log(
    `delivered ${thousands(delivered)} of ${thousands(EVENTS)} in ${seconds.toFixed(1)} s from the first event ` +
      `(${thousands(delivered / seconds)} deliveries/s; ${((done - written) / 1000).toFixed(1)} s after the last write)`,
  );
  const twice = [...seen.values()].filter((n) => n > 1).length;
  console.log(`the listener received ${thousands(seen.size)} distinct events, ${twice} more than once`);
  const hook = new Webhook(secret);
  for (const r of toVerify) hook.verify(r.body, r.headers);
  console.log(`${toVerify.length} signatures verified with standardwebhooks' Webhook#verify`);
  const jobs = await pool.query<{ state: string; n: number }>(
    "select state::text, count(*)::int as n from pgboss.job where name = $1 group by state order by state",
    [WEBHOOK_QUEUE],
  );
  const byState = Object.fromEntries(jobs.rows.map((r) => [r.state, r.n]));
  const completed = byState.completed ?? 0;
  console.log(
    `job queue "${WEBHOOK_QUEUE}": ${JSON.stringify(byState)}; ` +
      `${completed ? (delivered / completed).toFixed(1) : "n/a"} deliveries per completed job on average`,
  );
  if (delivered < EVENTS || twice || seen.size !== EVENTS) process.exitCode = 1;

  // A backlog (the receiver was away): EVENTS deliveries already due, one job to wake a worker: the sending side alone.
  const backlogStart = performance.now();
  const endpointId = (await pool.query("select id from webhook_endpoints limit 1")).rows[0].id as string;
  await pool.query(
    `insert into webhook_deliveries (endpoint_id, event_id, event_type, payload, next_attempt_at)
     select $1, 'msg_backlog' || n, 'contact_message.received',
       jsonb_build_object('type', 'contact_message.received', 'version', 1, 'timestamp', now(),
         'data', jsonb_build_object('message', jsonb_build_object('id', n))), now()
     from generate_series(1, $2::int) n`,
    [endpointId, EVENTS],
  );
  await services.jobs.send(WEBHOOK_QUEUE, {}, { singletonKey: "bench-backlog" });
  for (;;) {
    const r = await pool.query(
      "select count(*)::int as n from webhook_deliveries where state = 'succeeded' and event_id like 'msg_backlog%'",
    );
    if (r.rows[0].n >= EVENTS || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const backlogSeconds = (performance.now() - backlogStart) / 1000;
  console.log(
    `a backlog of ${thousands(EVENTS)} due deliveries sent in ${backlogSeconds.toFixed(1)} s ` +
      `(${thousands(EVENTS / backlogSeconds)} deliveries/s: the sending side alone)`,
  );
} finally {
  await services.close();
  await opened.close();
  listener.close();
  rmSync(dataDir, { recursive: true, force: true });
}
