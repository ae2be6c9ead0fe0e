import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedServer } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { withClient } from "../support/global-db";
import { startSmtpServer } from "../support/mail";
import { databaseUrl, startBuiltServer, type RunningServer } from "../support/server";
import { holdsFor, untilTimed as until } from "../support/wait";
import { signIn } from "./support";

/**
 * Issue 33, item 3: the app killed (kill -9) while a backup or a mail send runs. Its job must not stay "running" for
 * hours (a backup's limit is 6 h, a mail's 15 min): after the restart the backup is written and the mail sent within
 * a minute. A backup that a live instance is running is never taken over. The database is this file's own, so that
 * our own connection can hold a table lock that keeps a backup running as long as the test needs.
 */
const ADMIN = { email: "lost-admin@example.org", password: "lost-admin-password-1" };
const dir = mkdtempSync(path.join(tmpdir(), "atelier-lost-jobs-"));
chmodSync(dir, 0o755);
const backupDir = path.join(dir, "backups");
let db: EmbeddedServer;
let url: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let env: Record<string, string>;
const running: RunningServer[] = [];

beforeAll(async () => {
  db = await startEmbeddedPostgres(dir, silentLogger);
  await withClient(db.connection, (c) => c.query("create database atelier"));
  url = databaseUrl(db.connection, "atelier");
  smtp = await startSmtpServer();
  env = {
    DATABASE_URL: url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_SECRET: "lost-jobs-secret-".padEnd(40, "x"),
    SMTP_URL: smtp.url,
    BACKUP_DIR: backupDir,
    SEED_DEMO_CONTENT: "false",
    // What a production start uses: the first retry of a mail 30 s or more later, workers polling every 2 s.
    JOB_RETRY_DELAY_SECONDS: "30",
    JOB_RETRY_LIMIT: "8",
    JOB_POLL_SECONDS: "2",
  };
});
afterAll(async () => {
  for (const server of running) await server.stop("SIGKILL").catch(() => {});
  await smtp?.close();
  await db?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startBuiltServer({ ...env, ...extra }, { dataDir: path.join(dir, `app-${running.length}`) });
  running.push(server);
  return server;
}

/** Our own connection to the app's database. */
async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = await connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Holds an exclusive lock on a table the pages do not read until released: a backup's copy of it waits, so the backup runs on. */
async function holdBackup(): Promise<() => Promise<void>> {
  const client = await connect();
  await client.query("begin");
  await client.query("lock table paypal_simulator_messages in access exclusive mode");
  return async () => {
    await client.query("commit");
    await client.end();
  };
}

/** "Back up now" on the Backups screen, as the admin's browser posts it. */
async function backUpNow(server: RunningServer): Promise<string> {
  const cookie = await signIn(server.url, ADMIN.email, ADMIN.password);
  const res = await fetch(`${server.url}/backups`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: "intent=backup",
  });
  return `${res.status} ${await res.text()}`;
}

const archives = () => {
  try {
    return readdirSync(backupDir).filter((n) => n.endsWith(".tar"));
  } catch {
    return [];
  }
};

const jobs = (name: string) =>
  query<{ id: string; state: string }>("select id, state::text from pgboss.job where name = $1 order by created_on", [
    name,
  ]);

/** The backup's copy waiting on the lock that holdBackup holds: the job is inside its work, not before it. */
const backupWaitsOnLock = async () =>
  (
    await query<{ n: number }>(
      `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
        where c.relname = 'paypal_simulator_messages' and not l.granted`,
    )
  )[0]!.n > 0;

describe("kill -9 while a job runs", () => {
  it("a backup running when the app is killed is written within a minute of the restart", async () => {
    let app = await start();
    const release = await holdBackup();
    expect(await backUpNow(app)).toContain("The backup has started");
    await until("the backup job running", async () => (await jobs("backup")).some((j) => j.state === "active"), 30_000);
    await until("the backup copying the held table", backupWaitsOnLock, 30_000);
    await app.stop("SIGKILL");
    await release();
    app = await start();
    const ms = await until("a backup written after the restart", () => archives().length === 1, 60_000);
    console.info(`backup lost by a killed app: written ${ms} ms after the restart`);
    // Nothing is left waiting or running, and the next "Back up now" runs at once.
    await until("no backup pending", async () => !(await jobs("backup")).some((j) => j.state === "active"), 10_000);
    expect(await backUpNow(app)).toContain("The backup has started");
    await until("the next backup written", () => archives().length === 2, 30_000);
    await app.stop();
  }, 120_000);

  it("a mail being sent when the app is killed is sent within a minute of the restart", async () => {
    let app = await start();
    smtp.setStalled(true);
    const subject = `Lost mail ${Date.now()}`;
    const res = await fetch(`${app.url}/api/add-message`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Visitor", email: "visitor@example.org", subject, message: "Hello" }),
    });
    expect(res.status).toBe(201);
    await until("the mail being sent", () => smtp.stalls() > 0, 30_000);
    await app.stop("SIGKILL");
    smtp.setStalled(false);
    app = await start();
    const ms = await until(
      "the mail sent after the restart",
      () => smtp.received.some((m) => m.raw.includes(subject)),
      60_000,
    );
    console.info(`mail lost by a killed app: sent ${ms} ms after the restart`);
    await app.stop();
  }, 120_000);

  it("a backup that a live instance runs is not taken over by another", async () => {
    const [a, b] = [await start(), await start()];
    const before = archives().length;
    const earlier = new Set((await jobs("backup")).map((j) => j.id));
    const ours = async () => (await jobs("backup")).filter((j) => !earlier.has(j.id));
    const release = await holdBackup();
    try {
      expect(await backUpNow(a)).toContain("The backup has started");
      await until(
        "the backup job running",
        async () => (await jobs("backup")).some((j) => j.state === "active"),
        30_000,
      );
      const [job] = (await jobs("backup")).filter((j) => j.state === "active");
      // Longer than a lost heartbeat is given (10 s) plus the supervisor's pass: it stays the same running job all along
      // (a property of a span of time, so watched through the span; it fails at the first look that differs).
      await holdsFor("the same backup job running, none failed", 25_000, async () => {
        const now = await ours();
        return (
          JSON.stringify(now.filter((j) => j.state === "active").map((j) => j.id)) === JSON.stringify([job!.id]) &&
          !now.some((j) => j.state === "failed")
        );
      });
    } finally {
      await release();
    }
    await until("the backup written", () => archives().length === before + 1, 30_000);
    // One job, done: nothing is left that could write a second archive.
    await until("the backup job completed", async () => (await ours()).every((j) => j.state === "completed"), 30_000);
    expect((await ours()).length).toBe(1);
    expect(archives().length).toBe(before + 1);
    await a.stop();
    await b.stop();
  }, 120_000);
});
