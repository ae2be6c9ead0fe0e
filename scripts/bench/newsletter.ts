/**
 * `npm run bench:newsletter`: a newsletter to BENCH_RECIPIENTS generated subscribers (default 100,000) through the
 * built app to a local SMTP listener (not part of `npm test`; issue 36, "Done when"). It starts a scratch embedded
 * PostgreSQL and the built app (`npm run build` first), inserts the subscribers with SQL, and prints:
 * - the app's peak resident memory while it sends (sampled every 200 ms, with its RSS at the start and at the end:
 *   flat means the send holds no list of recipients in memory);
 * - p99 of `GET /` (BENCH_CONNECTIONS loops of fetch, default 4) for BENCH_SECONDS (default 10) before the send and
 *   during it, and their ratio;
 * - after a kill -9 at half the send (BENCH_KILL=0 to leave it out) and a restart, that every recipient got exactly
 *   one mail: counted at the listener by recipient and Message-ID (the restart uses the same DATA_DIR, whose note of
 *   what SMTP accepted settles the mails in flight at the kill).
 * The listener keeps only counts (recipient → Message-IDs), never the mails. Short run: BENCH_RECIPIENTS=5000.
 * BENCH_APP_HEAP_MB=N caps the app's JavaScript heap at N MB (--max-old-space-size): a send that completes under a cap
 * far below what its recipients would take held no list of them (RSS alone also counts the heap V8 keeps for later).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { withClient } from "#tests/support/global-db.ts";
import { databaseUrl, startBuiltServer, type RunningServer } from "#tests/support/server.ts";
import { signIn } from "./support";

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const KILL = process.env.BENCH_KILL !== "0";
const APP_HEAP_MB = process.env.BENCH_APP_HEAP_MB;
const ADMIN = { email: "bench-admin@example.org", password: "bench-admin-pass-1" };
const SUBJECT = "Bench letter";
const thousands = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An SMTP listener that counts: recipient → the Message-IDs it received, and all copies. */
async function countingSmtp() {
  const byRecipient = new Map<string, Set<string>>();
  let copies = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let head = "";
      stream.on("data", (c: Buffer) => {
        if (head.length < 8192) head += c.toString("utf8");
      });
      stream.on("end", () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head.replace(/\r?\n(?=[ \t])/g, ""))?.[1] ?? "none";
        for (const r of session.envelope.rcptTo) {
          const ids = byRecipient.get(r.address) ?? new Set<string>();
          ids.add(id);
          byRecipient.set(r.address, ids);
          copies++;
        }
        callback();
      });
    },
  });
  // A connection cut by the kill -9 is expected.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    byRecipient,
    copies: () => copies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const rssMb = (pid: number, field = "VmRSS") => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`))!;
  return Number(line.replace(/\D+/g, "")) / 1024;
};

/** p99 (and median) of GET / over `seconds`, `connections` loops of fetch. */
async function latencyOf(url: string, seconds: number, connections: number) {
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        const res = await fetch(`${url}/`);
        await res.arrayBuffer();
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { n: times.length, p50: at(0.5), p99: at(0.99) };
}

type Query = <T>(text: string, params?: unknown[]) => Promise<T[]>;
type Smtp = Awaited<ReturnType<typeof countingSmtp>>;

/** A query on its own connection to the app's database. */
const queryOn =
  (url: string): Query =>
  async <T>(text: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  };

/** Starts the built app on the database and the listener (again after the kill: the same DATA_DIR). */
async function startApp(url: string, smtpUrl: string, dir: string, servers: RunningServer[]) {
  const server = await startBuiltServer(
    {
      DATABASE_URL: url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUTH_SECRET: "bench-newsletter-secret-".padEnd(40, "x"),
      SMTP_URL: smtpUrl,
      NEWSLETTER_RATE_PER_MINUTE: process.env.NEWSLETTER_RATE_PER_MINUTE ?? "600000",
      WEB_CONCURRENCY: "1",
      NODE_ENV: "production",
      PAYPAL_MODE: "simulator",
      LOG_LEVEL: "warn",
      ...(APP_HEAP_MB ? { NODE_OPTIONS: `--max-old-space-size=${Number(APP_HEAP_MB)}` } : {}),
    },
    { dataDir: path.join(dir, "app") },
  );
  servers.push(server);
  return server;
}

/** The subscribers inserted, then GET / measured before the send. */
async function subscribersAndLatencyBefore(query: Query, appUrl: string) {
  const t0 = Date.now();
  await query(
    `insert into subscribers (subemail, state, confirmed_at)
       select 'reader' || g || '@example.org', 'confirmed', now() from generate_series(1, $1) g`,
    [RECIPIENTS],
  );
  console.log(`inserted ${thousands(RECIPIENTS)} subscribers in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await latencyOf(appUrl, 2, CONNECTIONS); // warm up
  const before = await latencyOf(appUrl, SECONDS, CONNECTIONS);
  console.log(`GET / before the send: p50 ${before.p50.toFixed(1)} ms, p99 ${before.p99.toFixed(1)} ms (${before.n})`);
  return before;
}

/** The letter written and sent, as the admin. */
async function createAndSend(app: RunningServer) {
  const cookie = await signIn(app.url, ADMIN);
  const call = async (p: string, body: unknown) => {
    const res = await fetch(`${app.url}/api${p}`, {
      method: "POST",
      headers: { cookie, origin: app.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return res;
  };
  const created = (await (
    await call("/newsletters", { subject: SUBJECT, bodyText: "Hello.\n\nA benchmark.", audience: ["subscribers"] })
  ).json()) as { insertedId: string };
  const sendStarted = Date.now();
  const sent = await call(`/newsletters/${created.insertedId}/send`, {});
  console.log(`send: ${sent.status} ${await sent.text()} in ${Date.now() - sendStarted} ms (the audience expanded)`);
  return { id: created.insertedId, sendStarted };
}

/** The app's RSS at the start, and its peak sampled every 200 ms until `stop`. */
function sampleRss(pid: () => number) {
  const startRss = rssMb(pid());
  let peak = startRss;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid()));
    } catch {
      /* between the kill and the restart */
    }
  }, 200);
  return { startRss, peak: () => peak, stop: () => clearInterval(sampler) };
}

/** kill -9 at half the send, then a restart: the new app, and how many mails were in flight. */
async function killHalfWay(app: RunningServer, smtp: Smtp, query: Query, start: () => Promise<RunningServer>) {
  while (smtp.copies() < RECIPIENTS / 2) await sleep(200);
  await sleep(Math.floor(Math.random() * 500));
  await app.stop("SIGKILL");
  const inFlight = (
    await query<{ n: number }>(`select count(*)::int as n from newsletter_recipients where status = 'sending'`)
  )[0]!.n;
  console.log(`kill -9 at ${thousands(smtp.copies())} mails (${inFlight} in flight); restarting`);
  return { app: await start(), inFlight };
}

async function waitUntilSent(query: Query, id: string) {
  const deadline = Date.now() + 4 * 3600_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error("The newsletter was not sent within 4 hours.");
    const [n] = await query<{ state: string }>(`select state from newsletters where id = $1`, [id]);
    if (n?.state === "sent" || n?.state === "partly-sent") break;
    await sleep(1000);
  }
}

function report(
  smtp: Smtp,
  {
    seconds,
    startRss,
    peak,
    endRss,
    inFlight,
  }: Record<"seconds" | "startRss" | "peak" | "endRss" | "inFlight", number>,
) {
  const multiple = [...smtp.byRecipient.values()].filter((ids) => ids.size !== 1).length;
  const missing = RECIPIENTS - smtp.byRecipient.size;
  const resent = smtp.copies() - smtp.byRecipient.size;
  console.log(
    `sent ${thousands(smtp.copies())} mails to ${thousands(smtp.byRecipient.size)} recipients in ${seconds.toFixed(0)} s ` +
      `(${(smtp.copies() / seconds).toFixed(0)}/s)`,
  );
  console.log(
    `app RSS: ${startRss.toFixed(0)} MB at the start, peak ${peak.toFixed(0)} MB, ${endRss.toFixed(0)} MB at the end` +
      (APP_HEAP_MB ? ` (its JavaScript heap capped at ${Number(APP_HEAP_MB)} MB)` : ""),
  );
  console.log(
    `exactly one mail each: ${missing === 0 && multiple === 0 ? "yes" : "NO"} (missing ${missing}, ` +
      `with two Message-IDs ${multiple}; copies of the same Message-ID resent after the kill: ${resent}, ` +
      `in flight at the kill: ${inFlight})`,
  );
  if (missing || multiple || resent > inFlight) process.exitCode = 1;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "atelier-bench-newsletter-"));
  const db = await startEmbeddedPostgres(dir, silentLogger);
  const smtp = await countingSmtp();
  const servers: RunningServer[] = [];
  try {
    await withClient(db.connection, (c) => c.query("create database atelier"));
    const url = databaseUrl(db.connection, "atelier");
    const query = queryOn(url);
    const start = () => startApp(url, smtp.url, dir, servers);
    let app = await start();
    const before = await subscribersAndLatencyBefore(query, app.url);
    const { id, sendStarted } = await createAndSend(app);

    const pid = () => servers.at(-1)!.process.pid!;
    const rss = sampleRss(pid);
    const during = await latencyOf(app.url, SECONDS, CONNECTIONS);
    console.log(
      `GET / during the send: p50 ${during.p50.toFixed(1)} ms, p99 ${during.p99.toFixed(1)} ms (${during.n}); ` +
        `p99 ratio ${(during.p99 / before.p99).toFixed(2)}; ${thousands(smtp.copies())} mails sent so far`,
    );
    let inFlight = 0;
    if (KILL) ({ app, inFlight } = await killHalfWay(app, smtp, query, start));
    await waitUntilSent(query, id);
    rss.stop();
    const endRss = rssMb(pid());
    const seconds = (Date.now() - sendStarted) / 1000;
    await sleep(2000);
    report(smtp, { seconds, startRss: rss.startRss, peak: rss.peak(), endRss, inFlight });
  } finally {
    for (const s of servers) await s.stop("SIGKILL").catch(() => {});
    await smtp.close();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
