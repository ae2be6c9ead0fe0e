import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "#domain/dates.ts";
import { DAY_MS } from "#domain/membership.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { startSmtpServer, type ReceivedMail } from "../support/mail";
import { CookieJar } from "../support/session";
import { markGenuine, postIpn } from "../support/paypal";
import { queueDrained } from "../support/wait";

/**
 * Each transactional mail against a real SMTP listener: sent exactly once for its event, to the right person, with
 * both parts and links that open. The services' clock is ours (`clock`), so the reminders are driven by moving it.
 */
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let clock = Date.now();
const admin = new CookieJar();
let basic: { _id: string; packagePrice: number; packageValidity: number; packageName: string };

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp(
    {
      SMTP_URL: smtp.url,
      ADMIN_EMAIL: "boss@example.org",
      ADMIN_PASSWORD: "boss-pass-12",
      PAYPAL_RECEIVER_EMAIL: "shop@example.org",
    },
    { now: () => new Date(clock), pages: true },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  const pricing = (await (await app.request("/api/pricings")).json()) as (typeof basic)[];
  basic = pricing.find((p) => p.packageName === "Basic")!;
  await signInAsAdmin(app, { jar: admin });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const form = { customerName: "Brett <b>Buyer</b>", customerAddress: "1 Mill Lane", customerCountry: "United Kingdom" };
async function placeOrder(jar: CookieJar) {
  const res = await app.request("/api/new-order", { method: "POST", json: { packageId: basic._id, ...form }, jar });
  expect(res.status).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}
async function adminPut(path: string, json: unknown) {
  const res = await app.request(path, { method: "PUT", json, jar: admin });
  expect(res.status).toBe(200);
}
/** A verified PayPal payment of the order (the simulator's record makes the postback answer VERIFIED). */
async function pay(orderId: string, txnId: string) {
  const body = new URLSearchParams({
    payment_status: "Completed",
    receiver_email: "shop@example.org",
    business: "shop@example.org",
    mc_gross: basic.packagePrice.toFixed(2),
    mc_currency: "USD",
    txn_id: txnId,
    custom: orderId,
    txn_type: "web_accept",
  }).toString();
  await markGenuine(app.db.pool, body);
  expect((await postIpn(app, body)).status).toBe(200);
  await expect
    .poll(async () => (await app.db.pool.query("select payment_status from orders where id = $1", [orderId])).rows[0])
    .toEqual({ payment_status: "Paid" });
}
/** A paid and delivered membership for a new customer, ending `days` from the clock. */
async function member(email: string, days: number) {
  const jar = await signUp(app, email);
  const id = await placeOrder(jar);
  await adminPut(`/api/order/${id}`, { paymentStatus: "Paid" });
  await adminPut(`/api/order-status/${id}`, { orderStatus: "Delivered" });
  await app.db.pool.query("update orders set membership_valid = $2 where id = $1", [
    id,
    new Date(clock + days * DAY_MS),
  ]);
  return { jar, id };
}

/** Quoted-printable undone, so that text and links read as written. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/((?:=[0-9A-F]{2})+)/g, (run: string) =>
    Buffer.from(
      run
        .split("=")
        .filter(Boolean)
        .map((h) => parseInt(h, 16)),
    ).toString("utf8"),
  );
const mailsTo = (to: string, subject: RegExp) =>
  smtp.received.filter((m) => m.to.includes(to) && subject.test(decoded(m.subject)));
/** Waits until the queue is idle, then the one mail to `to` whose subject matches (and never a second). */
async function theMail(to: string, subject: RegExp): Promise<ReceivedMail & { body: string }> {
  await expect.poll(() => mailsTo(to, subject).length, { timeout: 15_000 }).toBeGreaterThan(0);
  await expect.poll(async () => (await app.services.jobs.list()).pending.length, { timeout: 15_000 }).toBe(0);
  const found = mailsTo(to, subject);
  expect(found).toHaveLength(1);
  const body = decoded(found[0]!.raw);
  // Both parts, from the one template.
  expect(body).toMatch(/Content-Type: text\/plain/);
  expect(body).toMatch(/Content-Type: text\/html/);
  return { ...found[0]!, body };
}
/** The site's links in a mail (not the logo), each opened as `jar` would: it answers 200. */
async function linksOpen(body: string, jar: CookieJar | undefined, expected: string) {
  const links = [...new Set(body.match(/https?:\/\/[^\s"<>)]+/g) ?? [])].filter(
    (l) => l.startsWith(app.config.publicUrl) && !/\.(svg|png|jpe?g|webp)$/.test(l) && new URL(l).pathname !== "/",
  );
  expect(links.map((l) => new URL(l).pathname)).toContain(expected);
  for (const link of links) {
    const res = await app.request(new URL(link).pathname, { jar });
    expect(res.status, link).toBe(200);
  }
}
const noMoreMail = async (count: number) => {
  await queueDrained(app);
  expect(smtp.received).toHaveLength(count);
};

describe("an order's mails", () => {
  let jar: CookieJar;
  let orderId: string;

  it("order placed: to the customer, with the package, the amount and a Pay Now link", async () => {
    jar = await signUp(app, "ana@example.org");
    orderId = await placeOrder(jar);
    const mail = await theMail("ana@example.org", /^Your order for Basic/);
    expect(mail.body).toContain(`$${basic.packagePrice.toFixed(2)} USD`);
    // What the customer typed is escaped in the HTML, kept as typed in the text.
    expect(mail.body).toContain("Hello Brett &lt;b&gt;Buyer&lt;/b&gt;,");
    expect(mail.body).toContain("Hello Brett <b>Buyer</b>,");
    await linksOpen(mail.body, jar, `/pay-now/${orderId}`);
  });

  it("payment received: a receipt to the customer, and to every admin the order waiting for delivery", async () => {
    await pay(orderId, "TXNMAILS0001");
    const receipt = await theMail("ana@example.org", /^Payment received/);
    expect(receipt.body).toContain("TXNMAILS0001");
    expect(receipt.body).toContain(`$${basic.packagePrice.toFixed(2)} USD`);
    expect(receipt.body).toContain("What happens next: The studio activates your membership shortly");
    await linksOpen(receipt.body, jar, "/dashboard");
    const waiting = await theMail("boss@example.org", /^Payment verified, waiting for delivery/);
    expect(waiting.body).toContain("ana@example.org");
    await linksOpen(waiting.body, admin, `/admin/payment-status/${orderId}`);
    // PayPal repeats its notification: nothing more is sent.
    const before = smtp.received.length;
    await app.request("/api/paypal/ipn", {
      method: "POST",
      body: new URLSearchParams({ payment_status: "Completed", txn_id: "TXNMAILS0001", custom: orderId }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await noMoreMail(before);
  });

  it("membership active: once, when the order is delivered (not again after Pending and Delivered)", async () => {
    await adminPut(`/api/order-status/${orderId}`, { orderStatus: "Delivered" });
    const active = await theMail("ana@example.org", /membership is active$/);
    const valid = (await app.db.pool.query("select membership_valid from orders where id = $1", [orderId])).rows[0]
      .membership_valid as Date;
    expect(valid.getTime()).toBeGreaterThan(clock);
    expect(active.body).toMatch(/Valid until:.*\d{4}/);
    await linksOpen(active.body, jar, "/dashboard");
    const before = smtp.received.length;
    await adminPut(`/api/order-status/${orderId}`, { orderStatus: "Pending" });
    await adminPut(`/api/order-status/${orderId}`, { orderStatus: "Delivered" });
    await noMoreMail(before);
  });

  it("order cancelled: to the customer, with a link to the packages", async () => {
    const cleo = await signUp(app, "cleo@example.org");
    const id = await placeOrder(cleo);
    await theMail("cleo@example.org", /^Your order for Basic/);
    const res = await app.request(`/api/order-cancelled/${id}`, { method: "PUT", json: {}, jar: cleo });
    expect(res.status).toBe(200);
    const cancelled = await theMail("cleo@example.org", /is cancelled$/);
    await linksOpen(cancelled.body, cleo, "/pricing");
    // Cancelling again changes nothing and sends nothing.
    const before = smtp.received.length;
    await app.request(`/api/order-cancelled/${id}`, { method: "PUT", json: {}, jar: cleo });
    await noMoreMail(before);
  });
});

describe("a contact message", () => {
  it("goes to every admin with a link to it, Reply-To the visitor", async () => {
    const res = await app.request("/api/add-message", {
      method: "POST",
      json: {
        name: "Vera Visitor",
        email: "vera@example.net",
        subject: "Kitchen <redesign>",
        message: "Hello,\nCan you help?",
      },
    });
    expect(res.status).toBe(201);
    const { insertedId } = (await res.json()) as { insertedId: string };
    const mail = await theMail("boss@example.org", /^New message from Vera Visitor/);
    expect(mail.raw).toMatch(/^Reply-To: vera@example.net$/m);
    expect(mail.body).toContain("Kitchen &lt;redesign&gt;");
    await linksOpen(mail.body, admin, `/view/${insertedId}`);
  });
});

describe("membership reminders, on the injectable clock", () => {
  const scan = () => app.services.reminders.scan();

  it("ends in 7 days: once, then ended: once, each with a renew link to the pricing page", async () => {
    await member("rita@example.org", 10);
    expect(await scan()).toEqual({ endingSoon: 0, ended: 0 });
    clock += 4 * DAY_MS; // 6 days left
    expect(await scan()).toMatchObject({ endingSoon: 1 });
    const soon = await theMail("rita@example.org", /^Your membership ends on/);
    await linksOpen(soon.body, undefined, "/pricing");
    expect(await scan()).toEqual({ endingSoon: 0, ended: 0 });
    clock += 6 * DAY_MS + 60_000; // just past the end
    expect(await scan()).toMatchObject({ ended: 1 });
    const ended = await theMail("rita@example.org", /^Your membership has ended$/);
    await linksOpen(ended.body, undefined, "/pricing");
    expect(await scan()).toEqual({ endingSoon: 0, ended: 0 });
    expect(mailsTo("rita@example.org", /membership (ends|has ended)/)).toHaveLength(2);
  });

  it("a membership renewed before its reminder gets no reminder for the old end", async () => {
    const { jar } = await member("remy@example.org", 10);
    // Renewed early: the new order's validity follows the old end.
    const renewal = await placeOrder(jar);
    await pay(renewal, "TXNRENEW0001");
    await adminPut(`/api/order-status/${renewal}`, { orderStatus: "Delivered" });
    clock += 4 * DAY_MS; // 6 days before the old end
    await scan();
    clock += 6 * DAY_MS + 60_000; // past the old end
    await scan();
    await expect.poll(async () => (await app.services.jobs.list()).pending.length, { timeout: 15_000 }).toBe(0);
    expect(mailsTo("remy@example.org", /membership (ends|has ended)/)).toHaveLength(0);
  });

  it("a kind the admin turned off is not sent", async () => {
    await app.services.mails.setEnabled({ kind: "membershipEndingSoon", enabled: false }, {
      id: "admin",
      email: "boss@example.org",
    } as never);
    await member("olga@example.org", 3);
    expect(await scan()).toMatchObject({ endingSoon: 0 });
    await expect.poll(async () => (await app.services.jobs.list()).pending.length, { timeout: 15_000 }).toBe(0);
    expect(mailsTo("olga@example.org", /membership ends/)).toHaveLength(0);
    await app.services.mails.setEnabled({ kind: "membershipEndingSoon", enabled: true }, {
      id: "admin",
      email: "boss@example.org",
    } as never);
  });
});

describe("membership reminders with a PayPal subscription (issue 27, part 4)", () => {
  const scan = () => app.services.reminders.scan();
  /** A verified PayPal subscription notice about `orderId` (the simulator's record makes the postback VERIFIED). */
  async function notice(orderId: string, subscrId: string, txnType: string, extra: Record<string, string> = {}) {
    const body = new URLSearchParams({
      txn_type: txnType,
      subscr_id: subscrId,
      custom: orderId,
      receiver_email: "shop@example.org",
      business: "shop@example.org",
      ...extra,
    }).toString();
    await markGenuine(app.db.pool, body);
    expect((await postIpn(app, body)).status).toBe(200);
  }
  const subscriptionStatus = async (subscrId: string) =>
    (await app.db.pool.query("select status from subscriptions where subscr_id = $1", [subscrId])).rows[0]?.status;
  /** A customer who subscribed to Basic through PayPal: signed up, paid, delivered; their membership's end. */
  async function subscriber(email: string) {
    const jar = await signUp(app, email);
    const id = await placeOrder(jar);
    const subscrId = `I-${email.split("@")[0]!.toUpperCase()}`;
    const amount = basic.packagePrice.toFixed(2);
    await notice(id, subscrId, "subscr_signup", {
      mc_amount3: amount,
      period3: `${basic.packageValidity} D`,
      mc_currency: "USD",
    });
    await expect.poll(() => subscriptionStatus(subscrId)).toBe("active");
    await notice(id, subscrId, "subscr_payment", {
      payment_status: "Completed",
      mc_gross: amount,
      mc_currency: "USD",
      txn_id: `TXN${subscrId.slice(2)}`,
    });
    await expect
      .poll(async () => (await app.db.pool.query("select payment_status from orders where id = $1", [id])).rows[0])
      .toEqual({ payment_status: "Paid" });
    await adminPut(`/api/order-status/${id}`, { orderStatus: "Delivered" });
    const {
      rows: [row],
    } = await app.db.pool.query("select membership_valid from orders where id = $1", [id]);
    return { jar, id, subscrId, ends: row.membership_valid as Date };
  }
  const sevenDaysMails = (to: string) => mailsTo(to, /^Your membership (ends|renews) on/);

  it("an active subscription: 'renews in 7 days' once, with the date, the amount and the way to cancel; no 'ended' while it renews", async () => {
    const { jar, id, subscrId, ends } = await subscriber("sally@example.org");
    const [view] = await app.services.subscriptions.forUser((await app.services.orders.byId(id))!.userId);
    expect(view!.nextPaymentAt).toEqual(ends); // a period of days: PayPal's next payment is the membership's end
    clock = ends.getTime() - 6 * DAY_MS;
    expect(await scan()).toMatchObject({ endingSoon: 1 });
    const on = longDate(view!.nextPaymentAt!, app.config.timeZone);
    const mail = await theMail("sally@example.org", new RegExp(`^Your membership renews on ${on}$`));
    expect(mail.body).toContain(`$${basic.packagePrice.toFixed(2)} USD`);
    expect(mail.body).toContain(`Renews on`);
    await linksOpen(mail.body, jar, "/account/subscriptions");
    expect(await scan()).toEqual({ endingSoon: 0, ended: 0 });

    // PayPal's payment is late (a month on the calendar): past the end, no "ended" while the subscription is active.
    clock = ends.getTime() + 60_000;
    expect(await scan()).toMatchObject({ ended: 0 });
    // The customer cancels after the "renews" mail: no second 7-day mail for that end, and now it has ended.
    await notice(id, subscrId, "subscr_cancel");
    await expect.poll(() => subscriptionStatus(subscrId)).toBe("cancelled");
    expect(await scan()).toEqual({ endingSoon: 0, ended: 1 });
    await theMail("sally@example.org", /^Your membership has ended$/);
    expect(sevenDaysMails("sally@example.org")).toHaveLength(1);
  });

  it("a cancelled subscription: 'ends in 7 days' once, never 'renews'", async () => {
    const { id, subscrId, ends } = await subscriber("cody@example.org");
    await notice(id, subscrId, "subscr_cancel");
    await expect.poll(() => subscriptionStatus(subscrId)).toBe("cancelled");
    clock = ends.getTime() - 6 * DAY_MS;
    expect(await scan()).toMatchObject({ endingSoon: 1 });
    const mail = await theMail("cody@example.org", /^Your membership ends on/);
    await linksOpen(mail.body, undefined, "/pricing");
    expect(await scan()).toEqual({ endingSoon: 0, ended: 0 });
    expect(sevenDaysMails("cody@example.org")).toHaveLength(1);
    expect(mailsTo("cody@example.org", /renews/)).toHaveLength(0);
  });
});

describe("the admin's test send", () => {
  it("queues the kind with sample data to the admin, marked as a test", async () => {
    const viewer = { id: "x", email: "boss@example.org", isAdmin: true } as never;
    expect(await app.services.mails.sendTest("orderPlaced", viewer)).toEqual({ queued: true });
    // The sample is about the site's first package (its name), or a plain "Standard" on a site without packages.
    const first = (await app.services.content.list("pricing"))[0];
    const name = String(first?.packageName ?? "Standard");
    const mail = await theMail("boss@example.org", new RegExp(`^\\[Test\\] Your order for ${name}`));
    expect(mail.body).toContain("Pay Now");
  });
});
