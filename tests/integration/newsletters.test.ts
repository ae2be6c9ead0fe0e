import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { membershipOf, type MembershipOrder } from "#domain/membership.ts";
import { signInAsAdmin, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { startSmtpServer } from "../support/mail";
import { CookieJar } from "../support/session";
import { activeMemberOrder } from "#server/services/newsletters.ts";
import { sql } from "drizzle-orm";
import { until } from "../support/wait";

/**
 * Issue 36, parts 4 and 5: newsletters sent through the real job queue to the tests' SMTP listener; the audience
 * expanded in SQL (never an address twice, suppressed ones left out); one send however many clicks; the members-only
 * part only to members; one-click unsubscribe that holds for every audience; failed recipients retried alone; the
 * providers' bounce webhooks; DKIM.
 */
const SECRET = "mail-webhook-secret-0123456789";
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 1024,
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const admin = new CookieJar();
let editor: CookieJar;
const now = () => new Date();
const DAY = 86_400_000;

async function sql_(text: string, params: unknown[] = []) {
  return (await app.db.pool.query(text, params)).rows;
}

/** A customer account with one order: active (paid, delivered, not over), expired, or paid and waiting. */
async function customer(email: string, kind: "active" | "expired" | "waiting" | "none") {
  const id = `u-${email.replace(/[^a-z0-9]/gi, "")}`;
  await sql_(`insert into "user" (id, name, email) values ($1, 'C', $2)`, [id, email]);
  if (kind === "none") return id;
  const ends = kind === "expired" ? new Date(Date.now() - DAY) : new Date(Date.now() + 30 * DAY);
  await sql_(
    `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
       customer_address, customer_country, payment_status, order_status, order_date, membership_valid, membership_starts,
       paid_at)
     values ($1, $2, 'Basic', 49, 30, $3, 'C', 'Street', 'UK', 'Paid', $4, '01/01/2026', $5, $6, now())`,
    [
      `AN-T-${id}`,
      id,
      email,
      kind === "waiting" ? "Pending" : "Delivered",
      kind === "waiting" ? null : ends,
      kind === "waiting" ? null : new Date(ends.getTime() - 30 * DAY),
    ],
  );
  return id;
}

const subscriber = (email: string, state = "confirmed") =>
  sql_(`insert into subscribers (subemail, state, confirmed_at) values ($1, $2, now()) returning id`, [email, state]);

const api = (path: string, init: { method?: string; json?: unknown; jar?: CookieJar } = {}) =>
  app.request(`/api${path}`, { method: init.method ?? "GET", json: init.json, jar: init.jar ?? admin });

async function draft(body: Record<string, unknown>): Promise<string> {
  const res = await api("/newsletters", { method: "POST", json: body });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

async function sent(id: string) {
  await until("the newsletter sent", async () => {
    const n = (await (await api(`/newsletters/${id}`)).json()) as { state: string };
    return n.state === "sent" || n.state === "partly-sent";
  });
  return (await (await api(`/newsletters/${id}`)).json()) as {
    state: string;
    counts: Record<string, number>;
  };
}

const mailsTo = (address: string, subject: string) =>
  smtp.received.filter((m) => m.to.includes(address) && m.subject.includes(subject));

let articleId = "";
/** How far the services' clock is ahead of the real one (a scheduled send made due without waiting for it). */
let shift = 0;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp(
    {
      ADMIN_EMAIL: "nl-admin@example.org",
      ADMIN_PASSWORD: "nl-admin-pass-1",
      SMTP_URL: smtp.url,
      NEWSLETTER_RATE_PER_MINUTE: "60000",
      MAIL_WEBHOOK_SECRET: SECRET,
      DKIM_PRIVATE_KEY: privateKey,
      DKIM_SELECTOR: "news2026",
      DKIM_DOMAIN: "example.org",
      PUBLIC_URL: "https://atelier.example.org",
      PAYPAL_MODE: "simulator",
    },
    { now: () => new Date(Date.now() + shift) },
  );
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  editor = await signUpStaff(app, app.db.pool, "nl-editor@example.org", "Editor");
  // Three confirmed subscribers, one pending, one who left; two active members (one of them also a subscriber, typed
  // in another case), an expired member, a paid order waiting, a customer who never paid.
  await subscriber("sub1@example.org");
  await subscriber("sub2@example.org");
  await subscriber("Sub3@Example.org");
  await subscriber("pending@example.org", "pending");
  await subscriber("left@example.org", "unsubscribed");
  await customer("member1@example.org", "active");
  await customer("SUB2@example.org", "active");
  await customer("expired@example.org", "expired");
  await customer("waiting@example.org", "waiting");
  await customer("nobuy@example.org", "none");
  const [article] = await sql_(
    `insert into articles (slug, title, excerpt, body_html, access, state, published_at)
     values ('light-in-small-rooms', 'Light in small rooms', 'How to light a small room.',
       '<p>Public paragraph.</p><p><img src="/media/abc/800.webp" alt="A lit corner"></p><hr data-members-only /><p>Members secret paragraph.</p>',
       'split', 'published', now()) returning id`,
  );
  articleId = (article as { id: string }).id;
}, 60_000);
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

describe("the audience", () => {
  it("counts distinct addresses per mix of sources, never an address twice, the suppressed left out", async () => {
    const count = async (audience: string[]) =>
      ((await (await api("/newsletters/audience", { method: "POST", json: { audience } })).json()) as { count: number })
        .count;
    expect(await count(["subscribers"])).toBe(3);
    expect(await count(["members"])).toBe(2);
    // Customers: accounts that paid for a membership (active, expired, waiting).
    expect(await count(["customers"])).toBe(4);
    // sub2 is a subscriber and a member: once.
    expect(await count(["subscribers", "members"])).toBe(4);
    expect(await count(["subscribers", "members", "customers"])).toBe(6);
    await app.services.suppressions.suppress(["sub1@example.org"], "manual", "test");
    expect(await count(["subscribers", "members"])).toBe(3);
    expect((await api("/suppressions/sub1@example.org", { method: "DELETE" })).status).toBe(200);
    const bad = await api("/newsletters/audience", { method: "POST", json: { audience: [] } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe("Choose at least one audience");
  });

  it("finds active members in SQL exactly as membershipOf does in TypeScript", async () => {
    // Many customers with random orders around now: the SQL rule and the pure function agree on each.
    const statuses = [
      ["Paid", "Delivered"],
      ["Paid", "Pending"],
      ["UnPaid", "Pending"],
      ["Refunded", "Delivered"],
      ["Cancelled", "Delivered"],
    ];
    for (let i = 0; i < 60; i++) {
      const id = `rule-${i}`;
      await sql_(`insert into "user" (id, name, email) values ($1, 'R', $2)`, [id, `rule${i}@example.org`]);
      for (let j = 0; j < (i % 3) + 1; j++) {
        const [pay, order] = statuses[(i * 7 + j * 3) % statuses.length]!;
        const shift = (((i * 13 + j * 29) % 9) - 4) * DAY;
        const valid = (i + j) % 6 === 0 ? null : new Date(Date.now() + shift);
        const starts = valid && (i + j) % 4 === 0 ? new Date(valid.getTime() - (i % 2 ? 40 : 2) * DAY) : null;
        await sql_(
          `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
             customer_address, customer_country, payment_status, order_status, order_date, membership_valid, membership_starts)
           values ($1, $2, 'Basic', 49, 30, 'x@example.org', 'R', 'S', 'UK', $3, $4, '01/01/2026', $5, $6)`,
          [`AN-R-${i}-${j}`, id, pay, order, valid, starts],
        );
      }
    }
    const at = now();
    const inSql = await app.db.db.execute<{ id: string; member: boolean }>(
      sql`select u.id, ${activeMemberOrder(sql`u.id`, at)} as member from "user" u where u.id like 'rule-%'`,
    );
    const orders = await sql_(
      `select user_id, package_name, payment_status, order_status, membership_valid, membership_starts from orders
       where user_id like 'rule-%' order by created_at, id`,
    );
    let members = 0;
    for (const row of inSql.rows) {
      const mine: MembershipOrder[] = orders
        .filter((o) => o.user_id === row.id)
        .map((o) => ({
          packageName: o.package_name,
          paymentStatus: o.payment_status,
          orderStatus: o.order_status,
          membershipValid: o.membership_valid,
          membershipStarts: o.membership_starts,
        }));
      const active = membershipOf(mine, at).state === "active";
      expect(row.member, row.id).toBe(active);
      if (active) members++;
    }
    expect(members).toBeGreaterThan(3);
    expect(members).toBeLessThan(57);
    await sql_(`delete from orders where user_id like 'rule-%'`);
    await sql_(`delete from "user" where id like 'rule-%'`);
  });
});

describe("sending", () => {
  it("an article's newsletter: members get the members' part, the others do not, each with one-click unsubscribe", async () => {
    const id = await draft({
      subject: "Light in small rooms",
      previewText: "Three lamps, one mirror.",
      articleId,
      audience: ["subscribers", "members"],
    });
    // A test to me: only to the signed-in staff member, not counted.
    expect((await api(`/newsletters/${id}/test`, { method: "POST", json: {} })).status).toBe(200);
    await until("the test mail", () => mailsTo("nl-admin@example.org", "[Test] Light in small rooms").length === 1);
    // Two staff click "Send now" at once: one send.
    const [a, b] = await Promise.all([
      api(`/newsletters/${id}/send`, { method: "POST", json: {} }),
      api(`/newsletters/${id}/send`, { method: "POST", json: {} }),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const loser = a.status === 409 ? a : b;
    expect(((await loser.json()) as { error: string }).error).toBe(
      "This newsletter is already scheduled or sent: it is sent once.",
    );
    const done = await sent(id);
    expect(done.state).toBe("sent");
    expect(done.counts.sent).toBe(4);
    const subject = "Light in small rooms";
    for (const to of ["sub1@example.org", "sub2@example.org", "sub3@example.org", "member1@example.org"])
      expect(
        mailsTo(to, subject).filter((m) => !m.subject.startsWith("[Test]")),
        to,
      ).toHaveLength(1);
    const decoded = (raw: string) =>
      raw
        .replace(/\r?\n(?=[ \t])/g, "")
        .replace(/=\r?\n/g, "")
        .replace(/=3D/g, "=");
    const member = decoded(mailsTo("member1@example.org", subject)[0]!.raw);
    const other = decoded(mailsTo("sub1@example.org", subject)[0]!.raw);
    expect(member).toContain("Members secret paragraph.");
    expect(other).not.toContain("Members secret paragraph.");
    expect(other).toContain("Public paragraph.");
    expect(other).toContain("The rest of this article is for members.");
    // Readable without images: the image's alternative text, absolute addresses.
    expect(other).toContain('alt="A lit corner"');
    expect(other).toContain("https://atelier.example.org/media/abc/800.webp");
    const headers = (to: string) => mailsTo(to, subject)[0]!.raw.replace(/\r?\n(?=[ \t])/g, "");
    for (const raw of [headers("member1@example.org"), headers("sub1@example.org")]) {
      expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/atelier\.example\.org\/newsletter\/unsubscribe\/[^>]+>/m);
      expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
      expect(raw).toMatch(new RegExp(`^Message-ID: <nl-${id}-[0-9a-f-]+@`, "mi"));
      // DKIM: signed for the configured domain and selector.
      expect(raw).toMatch(/^DKIM-Signature: .*d=example\.org/m);
      expect(raw).toMatch(/^DKIM-Signature: .*s=news2026/m);
      // One-click unsubscribe (RFC 8058) counts only when the signature covers both List-Unsubscribe headers.
      const signed = /^DKIM-Signature: .*\bh=([^;]+)/im.exec(raw)![1]!.replace(/\s+/g, "").toLowerCase().split(":");
      expect(signed).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));
    }
    // Sending again is refused.
    expect((await api(`/newsletters/${id}/send`, { method: "POST", json: {} })).status).toBe(409);
  });

  it("an unsubscribe from a member's mail (no subscriber) suppresses the address: the next newsletter skips it", async () => {
    const subject = "Light in small rooms";
    const raw = mailsTo("member1@example.org", subject)[0]!.raw.replace(/\r?\n(?=[ \t])/g, "");
    const link = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)![1]!;
    const token = decodeURIComponent(new URL(link).pathname.split("/").pop()!);
    expect(await app.services.newsletter.unsubscribe(token)).toEqual({ email: "member1@example.org" });
    expect(await app.services.suppressions.isSuppressed("member1@example.org")).toBe(true);
    const id = await draft({
      subject: "Second letter",
      bodyText: "Hello.\n\nA second <b>paragraph</b>.",
      audience: ["members"],
    });
    await api(`/newsletters/${id}/send`, { method: "POST", json: {} });
    const done = await sent(id);
    expect(done.counts.sent).toBe(1);
    expect(mailsTo("member1@example.org", "Second letter")).toHaveLength(0);
    expect(mailsTo("sub2@example.org", "Second letter")).toHaveLength(1);
    // The plain text was made paragraphs, its markup escaped.
    expect(mailsTo("sub2@example.org", "Second letter")[0]!.raw).toContain("&lt;b&gt;paragraph&lt;/b&gt;");
  });

  it("refuses an empty audience, a time in the past, and sends what SMTP refused again, to those alone", async () => {
    await app.services.suppressions.suppress(["sub2@example.org", "member1@example.org"], "manual", "test");
    const empty = await draft({ subject: "Nobody", bodyText: "Hi", audience: ["members"] });
    const refused = await api(`/newsletters/${empty}/send`, { method: "POST", json: {} });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe("Nobody in this audience can be mailed.");
    expect(((await (await api(`/newsletters/${empty}`)).json()) as { state: string }).state).toBe("draft");
    const past = await api(`/newsletters/${empty}/send`, {
      method: "POST",
      json: { at: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(((await past.json()) as { error: string }).error).toBe(
      "The time to send is in the past. Choose a later time.",
    );
    expect((await api("/suppressions/sub2@example.org", { method: "DELETE" })).status).toBe(200);

    smtp.refuse("sub3@example.org");
    const id = await draft({ subject: "Partly", bodyText: "Hi", audience: ["subscribers"] });
    await api(`/newsletters/${id}/send`, { method: "POST", json: {} });
    const first = await sent(id);
    expect(first.state).toBe("partly-sent");
    expect(first.counts).toMatchObject({ sent: 2, failed: 1 });
    // "Retry the failed ones": the refused address alone is tried again.
    const before = smtp.received.length;
    expect((await api(`/newsletters/${id}/retry`, { method: "POST", json: {} })).status).toBe(202);
    const again = await sent(id);
    expect(again.counts).toMatchObject({ sent: 2, failed: 1 });
    expect(smtp.received.length).toBe(before);
    expect(mailsTo("sub1@example.org", "Partly")).toHaveLength(1);
  });

  it("schedules for later and starts once when due", async () => {
    const id = await draft({ subject: "Later", bodyText: "Hi", audience: ["subscribers"] });
    const at = new Date(Date.now() + 1500).toISOString();
    const res = await api(`/newsletters/${id}/send`, { method: "POST", json: { at } });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { state: string }).state).toBe("scheduled");
    // Not yet due: a tick starts nothing. Then its time comes (the services' clock moved past it).
    await app.services.newsletters.tick();
    expect((await app.services.newsletters.get(id))?.state).toBe("scheduled");
    shift = 1600;
    try {
      await Promise.all([app.services.newsletters.tick(), app.services.newsletters.tick()]);
    } finally {
      shift = 0;
    }
    const done = await sent(id);
    expect(done.counts.sent).toBeGreaterThanOrEqual(2);
    expect(mailsTo("sub1@example.org", "Later")).toHaveLength(1);
  });

  it("writes what staff did to a newsletter and to the suppression list in the activity log, with who did it", async () => {
    const id = await draft({ subject: "Logged", bodyText: "Hi", audience: ["subscribers"] });
    expect(
      (
        await api(`/newsletters/${id}`, {
          method: "PUT",
          json: { subject: "Logged again", bodyText: "Hi", audience: ["subscribers"] },
        })
      ).status,
    ).toBe(200);
    const at = new Date(Date.now() + 3600_000).toISOString();
    expect((await api(`/newsletters/${id}/send`, { method: "POST", json: { at } })).status).toBe(202);
    expect((await api(`/newsletters/${id}/unschedule`, { method: "POST" })).status).toBe(200);
    expect((await api(`/newsletters/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(
      (await api("/suppressions", { method: "POST", json: { address: "Logged@Example.org", note: "asked" } })).status,
    ).toBe(201);
    expect((await api("/suppressions/logged@example.org", { method: "DELETE" })).status).toBe(200);
    const rows = await sql_(
      `select entity, action, record_id, actor_email, changes from activity_log
       where (entity = 'newsletter' and record_id = $1) or (entity = 'suppression' and record_id = 'logged@example.org')
       order by created_at`,
      [id],
    );
    expect(rows.map((r) => `${r.entity} ${r.action}`)).toEqual([
      "newsletter create",
      "newsletter update",
      "newsletter update",
      "newsletter update",
      "newsletter delete",
      "suppression create",
      "suppression delete",
    ]);
    expect(new Set(rows.map((r) => r.actor_email))).toEqual(new Set(["nl-admin@example.org"]));
    expect(rows[1].changes.subject).toEqual({ before: "Logged", after: "Logged again" });
    expect(rows[2].changes.state).toEqual({ before: "draft", after: "scheduled" });
    expect(rows[3].changes.state).toEqual({ before: "scheduled", after: "draft" });
    expect(rows[6].changes.note).toEqual({ before: "asked", after: null });
  });
});

describe("the providers' webhooks", () => {
  const auth = (secret: string) => `Basic ${Buffer.from(`postmark:${secret}`).toString("base64")}`;
  const post = (path: string, body: string, secret?: string, type = "application/json") =>
    fetch(`${app.url}/api/mail-events/${path}`, {
      method: "POST",
      headers: { "content-type": type, ...(secret ? { authorization: auth(secret) } : {}) },
      body,
    });

  it("Postmark: refused without the secret; hard bounces and complaints suppress, soft bounces do not; repeats are safe", async () => {
    const hard = JSON.stringify({ RecordType: "Bounce", Type: "HardBounce", Email: "Bounced@Example.org" });
    expect((await post("postmark", hard)).status).toBe(401);
    expect((await post("postmark", hard, "wrong-secret-wrong-secret")).status).toBe(401);
    const ok = await post("postmark", hard, SECRET);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ suppressed: 1 });
    expect(await (await post("postmark", hard, SECRET)).json()).toEqual({ suppressed: 0 });
    const soft = JSON.stringify({ RecordType: "Bounce", Type: "SoftBounce", Email: "soft@example.org" });
    expect(await (await post("postmark", soft, SECRET)).json()).toEqual({ suppressed: 0 });
    const spam = JSON.stringify({ RecordType: "SpamComplaint", Type: "SpamComplaint", Email: "spam@example.org" });
    expect(await (await post("postmark", spam, SECRET)).json()).toEqual({ suppressed: 1 });
    expect((await post("postmark", "{}", SECRET)).status).toBe(400);
    expect((await post("postmark", "x".repeat(2_000_000), SECRET)).status).toBe(413);
    const list = (await (await api("/suppressions")).json()) as { address: string; reason: string }[];
    expect(list.find((s) => s.address === "bounced@example.org")?.reason).toBe("bounce");
    expect(list.find((s) => s.address === "spam@example.org")?.reason).toBe("complaint");
    expect(list.find((s) => s.address === "soft@example.org")).toBeUndefined();
  });

  it("SES through SNS: a permanent bounce suppresses; a subscription confirmation is answered", async () => {
    const message = JSON.stringify({
      notificationType: "Bounce",
      bounce: { bounceType: "Permanent", bouncedRecipients: [{ emailAddress: "ses-bounce@example.org" }] },
    });
    const body = JSON.stringify({ Type: "Notification", Message: message });
    expect((await post("ses", body, undefined, "text/plain")).status).toBe(401);
    expect(await (await post("ses", body, SECRET, "text/plain")).json()).toEqual({ suppressed: 1 });
    const confirm = JSON.stringify({ Type: "SubscriptionConfirmation", SubscribeURL: "https://sns.example/confirm" });
    expect((await post("ses", confirm, SECRET, "text/plain")).status).toBe(200);
  });
});

describe("who may", () => {
  it("newsletters and suppressions are the Admin's (the subscribers area); an Editor and customers are refused", async () => {
    for (const path of ["/newsletters", "/suppressions"]) {
      expect((await api(path, { jar: editor })).status).toBe(403);
      expect((await app.request(`/api${path}`)).status).toBe(401);
      expect((await api(path)).status).toBe(200);
    }
    const add = await api("/suppressions", { method: "POST", json: { address: "Manual@Example.org", note: "asked" } });
    expect(add.status).toBe(201);
    expect((await api("/suppressions", { method: "POST", json: { address: "not an address" } })).status).toBe(400);
    expect((await api("/suppressions/manual@example.org", { method: "DELETE" })).status).toBe(200);
    expect((await api("/suppressions/manual@example.org", { method: "DELETE" })).status).toBe(404);
  });
});
