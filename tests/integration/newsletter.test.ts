import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { startSmtpServer, type ReceivedMail } from "../support/mail";
import { CookieJar } from "../support/session";
import { queueDrained } from "../support/wait";

/**
 * Issue 13, part 3: double opt-in and one-click unsubscribe, against a real database, the real job queue and a real
 * SMTP listener, with the services' clock in the test's hands (no sleeping for 7 days).
 */
const DAY = 24 * 60 * 60_000;
let clock = new Date("2026-03-02T10:00:00.000Z");
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const admin = new CookieJar();
const customer = new CookieJar();

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp(
    {
      SMTP_URL: smtp.url,
      ADMIN_EMAIL: "owner@example.org",
      ADMIN_PASSWORD: "owner-pass-1",
      RATE_LIMIT_PUBLIC_FORMS: "1000",
      PUBLIC_URL: "https://studio.example",
      PAYPAL_MODE: "simulator",
    },
    { now: () => clock },
  );
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  await signUp(app, "member@example.org", { jar: customer });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const signup = (subemail: string) => app.request("/api/add-subscriber", { method: "POST", json: { subemail } });
const mailsTo = (address: string) =>
  smtp.received.filter((m) => m.to.includes(address) && m.subject.startsWith("Confirm your subscription"));
/** The queue sends in the background: wait until `address` has received `n` confirmation mails. */
async function mailCount(address: string, n: number): Promise<ReceivedMail[]> {
  await expect.poll(() => mailsTo(address).length, { timeout: 10_000 }).toBe(n);
  return mailsTo(address);
}
/** Header lines of a raw message, unfolded. */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  return new RegExp(`^${name}: (.*)$`, "mi").exec(head)?.[1]?.trim();
}
/** The message's text with quoted-printable undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const confirmTokenOf = (mail: ReceivedMail) =>
  /https:\/\/studio\.example\/newsletter\/confirm\/([A-Za-z0-9_-]+)/.exec(decoded(mail.raw))![1]!;
const unsubscribeTokenOf = (mail: ReceivedMail) =>
  /<https:\/\/studio\.example\/newsletter\/unsubscribe\/([^>]+)>/.exec(headerOf(mail.raw, "List-Unsubscribe")!)![1]!;
const row = async (email: string) =>
  (
    await app.db.pool.query(
      "select state, subscribed_at, confirmed_at, unsubscribed_at, confirm_token_hash from subscribers where lower(subemail) = lower($1)",
      [email],
    )
  ).rows[0] as
    | {
        state: string;
        subscribed_at: Date;
        confirmed_at: Date | null;
        unsubscribed_at: Date | null;
        confirm_token_hash: string | null;
      }
    | undefined;

describe("signing up in the footer", () => {
  it("answers the same to a new, pending, confirmed and unsubscribed address; only a pending one is mailed", async () => {
    const answers: { status: number; body: unknown }[] = [];
    const ask = async (email: string) => {
      const res = await signup(email);
      answers.push({ status: res.status, body: await res.json() });
    };

    await ask("ana@example.org"); // new
    const [first] = await mailCount("ana@example.org", 1);
    expect((await row("ana@example.org"))!.state).toBe("pending");

    await ask("ANA@example.org"); // pending, mailed a minute ago: no second mail yet
    advance(11 * 60_000);
    await ask("ana@example.org"); // pending, mailed over 10 minutes ago: a fresh link
    const mails = await mailCount("ana@example.org", 2);
    // The fresh link replaces the first one.
    expect((await app.services.newsletter.confirmLink(confirmTokenOf(first!))).state).toBe("invalid");
    expect((await app.services.newsletter.confirm(confirmTokenOf(mails[1]!))).state).toBe("confirmed");

    await ask("ana@example.org"); // confirmed: no second subscription, no mail
    await queueDrained(app);
    expect(mailsTo("ana@example.org")).toHaveLength(2);
    expect((await row("ana@example.org"))!.state).toBe("confirmed");

    await app.services.newsletter.unsubscribe(unsubscribeTokenOf(mails[1]!));
    advance(60_000);
    await ask("ana@example.org"); // unsubscribed: pending again, with a new link
    await mailCount("ana@example.org", 3);
    const again = (await row("ana@example.org"))!;
    expect(again.state).toBe("pending");
    expect(again.subscribed_at).toEqual(clock);
    expect(again.unsubscribed_at).toBeNull();

    expect(answers).toHaveLength(5);
    for (const a of answers) expect(a).toEqual({ status: 202, body: { acknowledged: true, insertedId: null } });
    const { rows } = await app.db.pool.query(
      "select count(*)::int as n from subscribers where lower(subemail) = 'ana@example.org'",
    );
    expect(rows[0].n).toBe(1);
  });

  it("the confirmation mail carries the one-click unsubscribe headers and a visible unsubscribe link", async () => {
    await signup("headers@example.org");
    const [mail] = await mailCount("headers@example.org", 1);
    expect(mail!.to).toEqual(["headers@example.org"]);
    const listUnsubscribe = headerOf(mail!.raw, "List-Unsubscribe")!;
    expect(listUnsubscribe).toMatch(/^<https:\/\/studio\.example\/newsletter\/unsubscribe\/[0-9a-f-]{36}\.[\w-]{43}>$/);
    expect(headerOf(mail!.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const url = listUnsubscribe.slice(1, -1);
    const body = decoded(mail!.raw);
    const text = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)\r?\n--/.exec(body)![1]!;
    const html = /Content-Type: text\/html[^]*?\r?\n\r?\n([^]*?)\r?\n--/.exec(body)![1]!;
    expect(text).toContain(url); // visible in the plain text part
    expect(html).toContain(`href="${url}"`); // and a link in the HTML part
    expect(text).toMatch(/https:\/\/studio\.example\/newsletter\/confirm\/[\w-]{43}/);
    expect(html).toMatch(/href="https:\/\/studio\.example\/newsletter\/confirm\/[\w-]{43}"/);
    expect(body).toContain("7 days");
    // The token itself is not stored, only its hash.
    expect((await row("headers@example.org"))!.confirm_token_hash).not.toContain(confirmTokenOf(mail!));
  });

  it("refuses a bad address with 400 naming the field, and stores nothing", async () => {
    const res = await signup("not-an-address");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "subemail" });
    expect(await row("not-an-address")).toBeUndefined();
  });
});

describe("confirming", () => {
  it("a valid link confirms once; used again it changes nothing", async () => {
    await signup("bo@example.org");
    const [mail] = await mailCount("bo@example.org", 1);
    const token = confirmTokenOf(mail!);
    expect(await app.services.newsletter.confirmLink(token)).toEqual({ state: "ready", email: "bo@example.org" });
    expect((await row("bo@example.org"))!.state).toBe("pending"); // looking at the link changed nothing

    advance(DAY);
    expect(await app.services.newsletter.confirm(token)).toEqual({ state: "confirmed", email: "bo@example.org" });
    const confirmed = (await row("bo@example.org"))!;
    expect(confirmed.state).toBe("confirmed");
    expect(confirmed.confirmed_at).toEqual(clock);

    advance(DAY);
    expect(await app.services.newsletter.confirm(token)).toEqual({ state: "confirmed", email: "bo@example.org" });
    expect((await row("bo@example.org"))!.confirmed_at).toEqual(confirmed.confirmed_at);

    // Used, then the address left: the link offers a new one rather than subscribing again by itself.
    await app.services.newsletter.unsubscribe(unsubscribeTokenOf(mail!));
    expect(await app.services.newsletter.confirm(token)).toEqual({ state: "used", email: "bo@example.org" });
    expect((await row("bo@example.org"))!.state).toBe("unsubscribed");
  });

  it("a link expires after 7 days (not a moment before); signing up again sends a new one", async () => {
    await signup("cy@example.org");
    const [mail] = await mailCount("cy@example.org", 1);
    const token = confirmTokenOf(mail!);
    advance(7 * DAY - 1);
    expect((await app.services.newsletter.confirmLink(token)).state).toBe("ready");
    advance(1);
    expect(await app.services.newsletter.confirmLink(token)).toEqual({ state: "expired", email: "cy@example.org" });
    expect((await app.services.newsletter.confirm(token)).state).toBe("expired");
    expect((await row("cy@example.org"))!.state).toBe("pending");

    await signup("cy@example.org");
    const mails = await mailCount("cy@example.org", 2);
    expect((await app.services.newsletter.confirm(confirmTokenOf(mails[1]!))).state).toBe("confirmed");
  });

  it("an unknown or absurd token is invalid", async () => {
    for (const token of ["nope", "x".repeat(43), "y".repeat(5000)]) {
      expect(await app.services.newsletter.confirmLink(token)).toEqual({ state: "invalid" });
      expect(await app.services.newsletter.confirm(token)).toEqual({ state: "invalid" });
    }
  });
});

describe("unsubscribing", () => {
  it("the stable link unsubscribes a confirmed or pending address, once; a forged one does nothing", async () => {
    await signup("di@example.org");
    const [mail] = await mailCount("di@example.org", 1);
    const token = unsubscribeTokenOf(mail!);
    expect(await app.services.newsletter.unsubscribeLink(token)).toEqual({ email: "di@example.org", state: "pending" });
    await app.services.newsletter.confirm(confirmTokenOf(mail!));

    advance(DAY);
    expect(await app.services.newsletter.unsubscribe(token)).toEqual({ email: "di@example.org" });
    const left = (await row("di@example.org"))!;
    expect(left.state).toBe("unsubscribed");
    expect(left.unsubscribed_at).toEqual(clock);
    expect(left.confirmed_at).not.toBeNull(); // the dates stay for the admin

    advance(DAY);
    expect(await app.services.newsletter.unsubscribe(token)).toEqual({ email: "di@example.org" });
    expect((await row("di@example.org"))!.unsubscribed_at).toEqual(left.unsubscribed_at);

    const [id, signature] = token.split(".");
    const otherId = "00000000-0000-4000-8000-000000000000";
    for (const forged of [`${otherId}.${signature}`, `${id}.${"A".repeat(43)}`, "garbage", ""]) {
      expect(await app.services.newsletter.unsubscribeLink(forged)).toBeNull();
      expect(await app.services.newsletter.unsubscribe(forged)).toBeNull();
    }
  });

  it("a pending address unsubscribed from its confirmation mail cannot be confirmed by that mail any more", async () => {
    await signup("ed@example.org");
    const [mail] = await mailCount("ed@example.org", 1);
    await app.services.newsletter.unsubscribe(unsubscribeTokenOf(mail!));
    expect((await app.services.newsletter.confirm(confirmTokenOf(mail!))).state).toBe("used");
    expect((await row("ed@example.org"))!.state).toBe("unsubscribed");
  });
});

describe("GET /api/subscribers", () => {
  it("401 signed out, 403 for a customer; the admin gets confirmed addresses, or one state with ?state=", async () => {
    expect((await app.request("/api/subscribers")).status).toBe(401);
    expect((await app.request("/api/subscribers", { jar: customer })).status).toBe(403);
    expect((await app.request("/api/subscribers?state=pending", { jar: customer })).status).toBe(403);

    const counts = await app.services.newsletter.counts();
    const res = await app.request("/api/subscribers", { jar: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe(String(counts.confirmed));
    const confirmed = (await res.json()) as Record<string, unknown>[];
    expect(confirmed.length).toBe(counts.confirmed);
    expect(confirmed.every((s) => s.state === "confirmed")).toBe(true);
    const ana = confirmed.find((s) => s.subemail === "cy@example.org")!;
    expect(Object.keys(ana).sort()).toEqual(
      ["_id", "subemail", "state", "subscribedAt", "confirmedAt", "unsubscribedAt", "createdAt"].sort(),
    );

    for (const state of ["pending", "unsubscribed"] as const) {
      const list = (await (await app.request(`/api/subscribers?state=${state}`, { jar: admin })).json()) as {
        state: string;
      }[];
      expect(list.length).toBe(counts[state]);
      expect(list.every((s) => s.state === state)).toBe(true);
    }
    const unsubscribed = (await (await app.request("/api/subscribers?state=unsubscribed", { jar: admin })).json()) as {
      subemail: string;
      unsubscribedAt: string | null;
    }[];
    expect(unsubscribed.map((s) => s.subemail)).toContain("di@example.org");
    expect(unsubscribed.every((s) => s.unsubscribedAt !== null)).toBe(true);

    const bad = await app.request("/api/subscribers?state=everyone", { jar: admin });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "state" });
  });

  it("pages newest signup first", async () => {
    const page1 = await app.request("/api/subscribers?state=unsubscribed&limit=1&page=1", { jar: admin });
    const page2 = await app.request("/api/subscribers?state=unsubscribed&limit=1&page=2", { jar: admin });
    const [a] = (await page1.json()) as { subscribedAt: string }[];
    const [b] = (await page2.json()) as { subscribedAt: string }[];
    expect(page1.headers.get("x-pages")).toBe(page1.headers.get("x-total-count"));
    expect(a!.subscribedAt >= b!.subscribedAt).toBe(true);
  });
});

describe("migration 0009", () => {
  it("keeps existing subscribers subscribed: they read as confirmed when they were stored", async () => {
    const sql = await import("node:fs").then((fs) =>
      fs.readFileSync(new URL("../../drizzle/0009_newsletter_opt_in.sql", import.meta.url), "utf8"),
    );
    expect(sql).toMatch(
      /UPDATE "subscribers" SET "state" = 'confirmed', "subscribed_at" = "created_at", "confirmed_at" = "created_at";/,
    );
    // Run against a table shaped as before the migration: the statement turns old rows into confirmed ones.
    const client = await app.db.pool.connect();
    try {
      await client.query("begin");
      await client.query(
        "create temp table old_subscribers (id uuid primary key default gen_random_uuid(), subemail text not null, created_at timestamptz not null default now())",
      );
      await client.query(
        "insert into old_subscribers (subemail, created_at) values ('old@example.org', '2025-01-02T03:04:05Z')",
      );
      const after = sql
        .split("--> statement-breakpoint")
        .map((s) => s.replace(/^--.*$/gm, "").trim())
        .filter((s) => /^(ALTER TABLE "subscribers" ADD COLUMN|UPDATE)/.test(s))
        .map((s) => s.replaceAll('"subscribers"', "old_subscribers"));
      for (const statement of after) await client.query(statement);
      const { rows } = await client.query("select state, subscribed_at, confirmed_at from old_subscribers");
      expect(rows).toEqual([
        {
          state: "confirmed",
          subscribed_at: new Date("2025-01-02T03:04:05Z"),
          confirmed_at: new Date("2025-01-02T03:04:05Z"),
        },
      ]);
    } finally {
      await client.query("rollback");
      client.release();
    }
  });
});
