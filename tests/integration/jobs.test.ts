import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tx } from "#server/services/jobs.ts";
import type { Mail } from "#server/services/mailer.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createServices, type Services } from "#server/services/index.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { startSmtpServer } from "../support/mail";
import { CookieJar } from "../support/session";
import { gate, until } from "../support/wait";

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const admin = new CookieJar();
const customer = new CookieJar();

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp({
    SMTP_URL: smtp.url,
    ADMIN_EMAIL: "jobs-admin@example.org",
    ADMIN_PASSWORD: "jobs-pass-12",
  });
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  await signUp(app, "jobs-customer@example.org", { jar: customer });
  // A stand-in for the change that causes a mail (an order paid, a subscriber added): a row in its own table.
  await app.db.pool.query("create table test_changes (id text primary key)");
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const mail = (n: string, extra: Partial<Mail> = {}): Mail => ({
  to: `person-${n}@example.org`,
  subject: `Test mail ${n}`,
  text: `Plain text of ${n}`,
  html: `<p>HTML of ${n}</p>`,
  ...extra,
});
const change = (tx: Tx, id: string) => tx.execute(sql`insert into test_changes (id) values (${id})`);
const received = (subject: string) => smtp.received.filter((m) => m.subject === subject);
/** Waits for the queue to be idle: nothing waiting, retrying or running. */
const settled = (services: Services = app.services) =>
  expect.poll(async () => (await services.jobs.list()).pending.length, { timeout: 15_000 }).toBe(0);

describe("a mail queued with its change", () => {
  it("is delivered once, with every field", async () => {
    const queued = await app.db.db.transaction(async (tx) => {
      await change(tx, "delivered");
      return app.services.jobs.queueMail(
        tx,
        mail("one", {
          replyTo: "visitor@example.org",
          headers: {
            "List-Unsubscribe": "<https://example.org/u/1>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          },
        }),
        "test-mail:one",
      );
    });
    expect(queued).toBe(true);
    await expect.poll(() => received("Test mail one").length).toBe(1);
    await settled();
    const [m] = received("Test mail one");
    expect(m!.to).toEqual(["person-one@example.org"]);
    expect(m!.raw).toContain("Plain text of one");
    expect(m!.raw).toContain("<p>HTML of one</p>");
    expect(m!.raw).toMatch(/^Reply-To: visitor@example.org$/m);
    expect(m!.raw).toMatch(/^List-Unsubscribe: <https:\/\/example.org\/u\/1>$/m);
    expect(m!.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(received("Test mail one")).toHaveLength(1);
  });

  it("is not queued when the change is rolled back (and its key stays free)", async () => {
    await expect(
      app.db.db.transaction(async (tx) => {
        await change(tx, "rolled-back");
        await app.services.jobs.queueMail(tx, mail("rolled"), "test-mail:rolled");
        throw new Error("the change fails after queueing its mail");
      }),
    ).rejects.toThrow("the change fails");
    const jobs = await app.db.pool.query(
      "select count(*)::int as n from pgboss.job where data->>'key' = 'test-mail:rolled'",
    );
    expect(jobs.rows[0].n).toBe(0);
    expect((await app.db.pool.query("select * from test_changes where id = 'rolled-back'")).rowCount).toBe(0);
    await settled();
    expect(received("Test mail rolled")).toHaveLength(0);
    // The key was never used: the real change may still send it.
    expect(
      await app.db.db.transaction((tx) => app.services.jobs.queueMail(tx, mail("rolled"), "test-mail:rolled")),
    ).toBe(true);
    await expect.poll(() => received("Test mail rolled").length).toBe(1);
  });

  it("with a key used before is not queued again, even after the first was sent", async () => {
    const queue = () =>
      app.db.db.transaction((tx) => app.services.jobs.queueMail(tx, mail("twice"), "test-mail:twice"));
    expect(await queue()).toBe(true);
    expect(await queue()).toBe(false);
    await expect.poll(() => received("Test mail twice").length).toBe(1);
    await settled();
    expect(await queue()).toBe(false);
    await settled();
    expect(received("Test mail twice")).toHaveLength(1);
  });

  it("can be queued without a transaction (the key and the job commit together)", async () => {
    expect(await app.services.jobs.queueMail(app.db.db, mail("bare"), "test-mail:bare")).toBe(true);
    expect(await app.services.jobs.queueMail(app.db.db, mail("bare"), "test-mail:bare")).toBe(false);
    await expect.poll(() => received("Test mail bare").length).toBe(1);
  });
});

describe("a failing SMTP server", { timeout: 60_000 }, () => {
  it("is retried with backoff, then the job shows as failed with its reason; Retry sends it once", async () => {
    await settled(); // the customer's address confirmation, sent at the start
    smtp.setFailing(true);
    try {
      await app.services.jobs.queueMail(app.db.db, mail("refused"), "test-mail:refused");
      // Test settings: 2 retries after the first attempt, 1 s then about 2 s apart.
      await expect
        .poll(async () => (await app.services.jobs.list()).failed.length, { timeout: 20_000, interval: 250 })
        .toBe(1);
    } finally {
      smtp.setFailing(false);
    }
    const { failed, pending } = await app.services.jobs.list();
    expect(pending).toHaveLength(0);
    const [job] = failed;
    expect(job).toMatchObject({
      queue: "send-mail",
      status: "Failed",
      summary: "Test mail refused → person-refused@example.org",
      attempts: 3,
      maxAttempts: 3,
    });
    expect(job!.error).toMatch(/Mailbox temporarily unavailable/);
    expect(received("Test mail refused")).toHaveLength(0);
    // Exponential backoff: the first retry 1 to 2 s after the first attempt, the second 2 to 4 s after it (plus a poll).
    const [first, second, third] = smtp.refusedAt;
    expect(smtp.refusedAt).toHaveLength(3);
    expect(second! - first!).toBeGreaterThanOrEqual(900);
    expect(third! - second!).toBeGreaterThanOrEqual(1900);

    // The same list through GET /api/jobs, for the admin only; Retry through POST /api/jobs/{id}/retry.
    const listed = await app.request("/api/jobs", { jar: admin });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { failed: { id: string; error: string }[] }).failed).toEqual([
      expect.objectContaining({ id: job!.id, error: job!.error }),
    ]);
    for (const [jar, status] of [
      [undefined, 401],
      [customer, 403],
    ] as const) {
      expect((await app.request("/api/jobs", { jar })).status).toBe(status);
      expect((await app.request(`/api/jobs/${job!.id}/retry`, { method: "POST", json: {}, jar })).status).toBe(status);
    }
    expect(received("Test mail refused")).toHaveLength(0);
    const retried = await app.request(`/api/jobs/${job!.id}/retry`, { method: "POST", json: {}, jar: admin });
    expect(retried.status).toBe(200);
    await expect.poll(() => received("Test mail refused").length).toBe(1);
    await settled();
    expect((await app.services.jobs.list()).failed).toHaveLength(0);
    expect(received("Test mail refused")).toHaveLength(1);
    await expect(app.services.jobs.retry(job!.id)).rejects.toMatchObject({ status: 404 });
    expect((await app.request(`/api/jobs/${job!.id}/retry`, { method: "POST", json: {}, jar: admin })).status).toBe(
      404,
    );
    expect((await app.request("/api/jobs/not-a-job/retry", { method: "POST", json: {}, jar: admin })).status).toBe(404);
  });
});

describe("several instances on one database", { timeout: 60_000 }, () => {
  it("send each mail exactly once", async () => {
    const second = createServices(app.db, app.config, silentLogger);
    await second.start();
    try {
      const count = 50;
      await Promise.all(
        Array.from({ length: count }, (_, i) =>
          app.db.db.transaction(async (tx) => {
            await change(tx, `many-${i}`);
            // Half queued through each instance.
            await (i % 2 ? second : app.services).jobs.queueMail(tx, mail(`many ${i}`), `test-mail:many-${i}`);
          }),
        ),
      );
      const many = () => smtp.received.filter((m) => m.subject.startsWith("Test mail many "));
      await expect.poll(() => many().length, { timeout: 30_000 }).toBe(count);
      await settled();
      await settled(second);
      expect(new Set(many().map((m) => m.subject)).size).toBe(count);
      expect(many()).toHaveLength(count);
    } finally {
      await second.close();
    }
  });
});

describe("a crash between the change and the send", { timeout: 60_000 }, () => {
  it("loses no mail: the next instance sends it", async () => {
    // The instance running jobs in this file is away: only the fresh one below may send.
    await app.services.jobs.close();
    // An instance that commits the change and its mail, then stops before any worker sent it.
    const first = createServices(app.db, { ...app.config, jobs: { ...app.config.jobs, work: false } }, silentLogger);
    await first.start();
    await app.db.db.transaction(async (tx) => {
      await change(tx, "crash");
      await first.jobs.queueMail(tx, mail("crash"), "test-mail:crash");
    });
    await first.close();
    expect(received("Test mail crash")).toHaveLength(0);
    const waiting = await app.db.pool.query("select state from pgboss.job where data->>'key' = 'test-mail:crash'");
    expect(waiting.rows).toEqual([{ state: "created" }]);

    const fresh = createServices(app.db, app.config, silentLogger);
    await fresh.start();
    try {
      await expect.poll(() => received("Test mail crash").length, { timeout: 15_000 }).toBe(1);
      await settled(fresh);
      expect(received("Test mail crash")).toHaveLength(1);
    } finally {
      await fresh.close();
      await app.services.jobs.start();
    }
  });
});

describe("a recurring task", { timeout: 60_000 }, () => {
  it("is scheduled once and runs once, never twice at a time, however many instances run it", async () => {
    // A throttle slot is a clock minute: start both instances well inside one (in its first 55 s).
    await until("a minute with 5 s left at least", () => Date.now() % 60_000 < 55_000, 10_000);
    const runs: string[] = [];
    // The run holds until the test has seen it start: the other instance had that long to start one too.
    const held = gate();
    let running = 0;
    let overlapped = false;
    const instances = ["a", "b"].map((label) => {
      const services = createServices(
        app.db,
        { ...app.config, jobs: { ...app.config.jobs, recurring: true } },
        silentLogger,
      );
      services.jobs.every(
        "test-tick",
        "0 3 1 1 *",
        async () => {
          running++;
          if (running > 1) overlapped = true;
          runs.push(label);
          await held.opened;
          running--;
        },
        { firstRunAfterSeconds: 0 },
      );
      return services;
    });
    try {
      await Promise.all(instances.map((s) => s.start()));
      await expect.poll(() => runs.length, { timeout: 15_000 }).toBe(1);
      held.open();
      await expect
        .poll(async () => (await instances[0]!.jobs.list()).pending.filter((j) => j.queue === "test-tick").length)
        .toBe(0);
      expect(runs).toHaveLength(1);
      expect(overlapped).toBe(false);
      const schedules = await app.db.pool.query("select cron from pgboss.schedule where name = 'test-tick'");
      expect(schedules.rows).toEqual([{ cron: "0 3 1 1 *" }]);
    } finally {
      held.open();
      for (const s of instances) await s.close();
    }
  });

  it("the PayPal re-verification is one of them, every 5 minutes", async () => {
    const services = createServices(
      app.db,
      { ...app.config, jobs: { ...app.config.jobs, recurring: true } },
      silentLogger,
    );
    await services.start();
    try {
      const schedules = await app.db.pool.query("select cron from pgboss.schedule where name = 'paypal-retry'");
      expect(schedules.rows).toEqual([{ cron: "*/5 * * * *" }]);
      // Its first run (10 s after the start) waits on the jobs screen under its name in words.
      const pending = (await services.jobs.list()).pending.find((j) => j.queue === "paypal-retry");
      expect(pending?.summary).toBe("PayPal notifications checked again");
    } finally {
      await services.close();
    }
  });
});
