import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type Config } from "#server/config.ts";
import { createApp } from "#server/http/app.ts";
import { createLogger } from "#server/lib/logger.ts";
import { recordBackup } from "#server/lib/metrics.ts";
import { createServices, type Services } from "#server/services/index.ts";
import { attemptSignIn, attemptSignUp } from "../support/accounts";
import { createTestDatabase } from "../support/db";
import { linkOf, outbox } from "../support/mail";
import { builtApp } from "../support/server";

/**
 * Issue 24, parts 2 and 3, in process with the real build and a logger whose output the test reads: one access line
 * per request (page-cache hits included) with the id the response carries, the secrets a request and its mails hold
 * never in the log, and /metrics on the site's port only for a bearer of METRICS_TOKEN.
 */
const TOKEN = "m".repeat(24) + "3tr1csT0k3n!";
const PASSWORD = "harbour-lights-93";
let log = "";
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let services: Services;
let config: Config;
let url: string;
/** The same app without METRICS_TOKEN and without a trusted proxy: the defaults. */
let plainUrl: string;
const servers: Server[] = [];

const lines = () =>
  log
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const accessLine = (reqId: string | null) => lines().find((l) => l.msg === "request" && l.reqId === reqId);
/** The access line is written when the response is over, a moment after the client has it. */
const accessLineOf = async (res: Response) => {
  await expect.poll(() => accessLine(res.headers.get("x-request-id"))).toBeDefined();
  return accessLine(res.headers.get("x-request-id"))!;
};

/** A mail's text with quoted-printable's soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

beforeAll(async () => {
  const build = await builtApp();
  db = await createTestDatabase();
  config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "atelier-observe-")),
    AUTH_SECRET: "x".repeat(40),
    TRUST_PROXY: "loopback",
    METRICS_TOKEN: TOKEN,
  });
  const destination = new Writable({
    write(chunk, _encoding, done) {
      log += String(chunk);
      done();
    },
  });
  const logger = createLogger("debug", { format: "json", destination });
  services = createServices(db, config, logger);
  await services.start();
  const listen = async (options: Parameters<typeof createApp>[0]) => {
    const server = createApp(options).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  url = await listen({ config, database: db, services, logger, build });
  plainUrl = await listen({
    config: { ...config, trustProxy: false, metrics: { ...config.metrics, token: undefined } },
    database: db,
    services,
    logger,
    build,
  });
  services.paypal.bindSelf(url);
}, 180_000);

afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await services?.close();
  await db?.drop();
  if (config) rmSync(config.dataDir, { recursive: true, force: true });
});

describe("the access log", () => {
  it("writes one line per request, page-cache hits included, with the id the response carries", async () => {
    const miss = await fetch(url + "/");
    const hit = await fetch(url + "/?utm_source=mail");
    expect(hit.headers.get("x-cache")).toBe("HIT");
    const api = await fetch(url + "/api/pricings");
    const item = await fetch(url + "/item/7", { redirect: "manual" });
    const unknown = await fetch(url + "/no/such/page");

    for (const [res, route, status] of [
      [miss, "/", 200],
      [hit, "/", 200],
      [api, "/api/pricings", 200],
      [item, "/item/:id", 302],
      [unknown, "/*", 404],
    ] as const) {
      await res.arrayBuffer();
      const line = await accessLineOf(res);
      expect(line, route).toMatchObject({ level: "info", method: "GET", route, status });
      expect(line.ms, route).toEqual(expect.any(Number));
      expect(line.bytes, route).toBeGreaterThan(Number(res.headers.get("content-length") ?? 0));
    }
    const ids = [miss, hit, api, item, unknown].map((r) => r.headers.get("x-request-id"));
    expect(new Set(ids).size).toBe(5);
  });

  it("takes X-Request-Id from a trusted proxy, and makes its own for anyone else", async () => {
    const id = "3f2a9c1e-6b7d-4e1f-9a0b-2c3d4e5f6a7b";
    const proxied = await fetch(url + "/api/pricings", { headers: { "x-request-id": id } });
    expect(proxied.headers.get("x-request-id")).toBe(id);
    expect(await accessLineOf(proxied)).toMatchObject({ route: "/api/pricings" });
    const cached = await fetch(url + "/", { headers: { "x-request-id": `${id}-2` } });
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(cached.headers.get("x-request-id")).toBe(`${id}-2`);

    const malformed = await fetch(url + "/api/pricings", { headers: { "x-request-id": "<script>" } });
    expect(malformed.headers.get("x-request-id")).not.toBe("<script>");
    // No trusted proxy (TRUST_PROXY unset): whatever the client says, the id is ours.
    const direct = await fetch(plainUrl + "/", { headers: { "x-request-id": id } });
    expect(direct.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
  });
});

describe("secrets", () => {
  it("a password, a cookie, an authorization header, a reset link's token and a confirmation token never reach the log", async () => {
    const email = "private@example.org";
    await attemptSignUp({ url }, email, { password: PASSWORD });
    const { res: signedIn, jar } = await attemptSignIn({ url }, email, PASSWORD);
    expect(signedIn.status).toBe(200);
    const cookie = jar.header();
    const session = /=([^;]+)/.exec(cookie)![1]!;
    const bearer = "Bearer atl_0p3n5e5ame00_n0t-f0r-l0gs-n0t-f0r-l0gs-n0t-f0r-l0gs-n0t";
    expect((await fetch(url + "/api/me", { headers: { cookie } })).status).toBe(200);
    await (await fetch(url + "/dashboard", { headers: { cookie } })).arrayBuffer();
    // A Bearer header is an API key's (decision 077), never a cookie session's: this one is no key.
    expect((await fetch(url + "/api/me", { headers: { cookie, authorization: bearer } })).status).toBe(401);
    await (await fetch(url + "/api/orders", { headers: { authorization: bearer } })).arrayBuffer();

    // A reset link and a newsletter confirmation, mailed through the job queue to the outbox, then opened.
    await fetch(url + "/api/auth/request-password-reset", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, redirectTo: "/reset-password" }),
    });
    await fetch(url + "/api/add-subscriber", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ subemail: "reader@example.org" }),
    });
    const mail = (subject: RegExp) => outbox(config.dataDir).find((m) => subject.test(m.subject));
    const [reset, confirm, verify] = [/^Reset your password/, /^Confirm your subscription/, /^Confirm your email/];
    await expect.poll(() => mail(reset) && mail(confirm) && mail(verify), { timeout: 15_000 }).toBeTruthy();
    const resetLink = new URL(linkOf(mail(reset)!.raw));
    const resetToken = resetLink.pathname.split("/").pop()!;
    // Its first link is List-Unsubscribe's: the confirmation link is the one to /newsletter/confirm/.
    const confirmToken = /\/newsletter\/confirm\/([A-Za-z0-9_-]+)/.exec(decoded(mail(confirm)!.raw))![1]!;
    const confirmLink = new URL(`${url}/newsletter/confirm/${confirmToken}`);
    const verifyToken = new URL(linkOf(mail(verify)!.raw)).searchParams.get("token")!;
    expect(verifyToken.length).toBeGreaterThan(10);
    expect(resetToken.length).toBeGreaterThan(10);
    expect(confirmToken.length).toBeGreaterThan(10);
    const opened = await fetch(url + resetLink.pathname + resetLink.search, { redirect: "manual" });
    const confirmed = await fetch(url + confirmLink.pathname);
    await accessLineOf(opened);
    expect(await accessLineOf(confirmed)).toMatchObject({ route: "/newsletter/confirm/:token" });
    await expect.poll(() => lines().filter((l) => l.msg === "mail written to the outbox (no SMTP_URL)").length).toBe(3);

    const secrets = [
      PASSWORD,
      session,
      decodeURIComponent(session),
      bearer,
      "0p3n5e5ame00_n0t",
      resetToken,
      confirmToken,
    ];
    for (const secret of [...secrets, verifyToken]) expect(log, `the log holds ${secret}`).not.toContain(secret);
  });
});

describe("/metrics on the site's port", () => {
  it("is not there without METRICS_TOKEN", async () => {
    const res = await fetch(plainUrl + "/metrics");
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("atelier_");
  });

  it("answers only the bearer of METRICS_TOKEN", async () => {
    const none = await fetch(url + "/metrics");
    expect(none.status).toBe(401);
    expect(await none.text()).not.toContain("atelier_");
    expect((await fetch(url + "/metrics", { headers: { authorization: "Bearer not-the-token" } })).status).toBe(401);
    const ok = await fetch(url + "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });

  it("reports requests by route and status, the page cache, mails, jobs, the pool, backups, the event loop and memory", async () => {
    for (let i = 0; i < 3; i++) await (await fetch(url + "/pricing")).arrayBuffer();
    // More queries at once than the pool has connections: some wait, and the wait is counted.
    await Promise.all(Array.from({ length: 12 }, () => db.pool.query("select pg_sleep(0.05)")));
    recordBackup(new Date(Date.now() - 3_600_000));
    const text = await (await fetch(url + "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(series + " "));
      expect(line, series).toBeDefined();
      return Number(line!.slice(series.length + 1));
    };
    expect(value('atelier_http_request_duration_seconds_count{method="GET",route="/pricing",status="200"}')).toBe(3);
    expect(
      value('atelier_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/",status="200"}'),
    ).toBeGreaterThan(1);
    expect(value('atelier_page_cache_requests_total{outcome="hit"}')).toBeGreaterThanOrEqual(3);
    expect(value('atelier_page_cache_requests_total{outcome="miss"}')).toBeGreaterThanOrEqual(2);
    expect(value('atelier_mails_total{outcome="sent"}')).toBeGreaterThanOrEqual(2);
    expect(value('atelier_jobs{queue="send-mail",state="queued"}')).toBeGreaterThanOrEqual(0);
    expect(value('atelier_job_failures_total{queue="send-mail"}')).toBe(0);
    expect(value('atelier_db_pool_max{pool="app"}')).toBeGreaterThanOrEqual(5);
    const acquired = value('atelier_db_pool_acquire_seconds_count{pool="app"}');
    expect(acquired).toBeGreaterThanOrEqual(12);
    expect(value('atelier_db_pool_acquire_seconds_bucket{le="0.005",pool="app"}'), "some waited").toBeLessThan(
      acquired,
    );
    expect(value("atelier_backup_age_seconds")).toBeGreaterThanOrEqual(3600);
    expect(value("atelier_backup_age_seconds")).toBeLessThan(3700);
    expect(value("nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(value("process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    // Patterns only: no address's own values (a token, an id) becomes a label.
    expect(text).not.toMatch(/route="[^"]*(private|\d{2,}|confirm\/[^:])/);
  });

  it("counts a job's failed attempts for its queue, and the mail that could not be written", async () => {
    const counts = async () => {
      const text = await (await fetch(url + "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      const read = (series: string) =>
        Number(
          text
            .split("\n")
            .find((l) => l.startsWith(series + " "))
            ?.split(" ")[1],
        );
      return {
        jobs: read('atelier_job_failures_total{queue="send-mail"}'),
        mails: read('atelier_mails_total{outcome="failed"}'),
      };
    };
    const before = await counts();
    expect(before).toEqual({ jobs: 0, mails: 0 });
    // A file where the outbox folder goes: writing the next mail fails, and the queue retries it.
    const outboxDir = path.join(config.dataDir, "outbox");
    rmSync(outboxDir, { recursive: true, force: true });
    writeFileSync(outboxDir, "");
    try {
      await fetch(url + "/api/add-subscriber", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ subemail: "unlucky@example.org" }),
      });
      await expect.poll(async () => (await counts()).jobs, { timeout: 15_000 }).toBeGreaterThan(0);
      const after = await counts();
      expect(after.mails).toBeGreaterThanOrEqual(after.jobs);
    } finally {
      rmSync(outboxDir, { force: true });
    }
  });
});
