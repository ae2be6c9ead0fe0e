import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContent } from "#server/seed/demo-content.ts";
import { IPN_LIMIT } from "#server/services/payments/paypal/ipn.ts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { ipnBody, markGenuine } from "../support/paypal";

/**
 * Issue 12: the IPN listener under faults (D4, D13) and the forgery and replay matrix (part 3). A notification is
 * stored before it is answered, picked up again after a crash, limited per sender; nothing forged or replayed pays.
 */
let app: TestApp;
let basic: { _id: string; packagePrice: number; packageValidity: number };
const customer = new CookieJar();
const tally = { cases: 0, wronglyApplied: [] as string[] };

beforeAll(async () => {
  app = await startTestApp({ PAYPAL_RECEIVER_EMAIL: "shop@example.org", TRUST_PROXY: "1" });
  await app.services.content.insertMany(demoContent);
  const pricing = (await (await app.request("/api/pricings")).json()) as {
    _id: string;
    packagePrice: number;
    packageValidity: number;
    packageName: string;
  }[];
  basic = pricing.find((p) => p.packageName === "Basic")!;
  await app.request("/api/auth/sign-up/email", {
    method: "POST",
    json: { email: "payer@example.org", password: "quiet-harbour-71", name: "", acceptTerms: true },
    jar: customer,
  });
});
afterAll(async () => {
  console.info(`IPN forgery and replay matrix: ${tally.cases} cases, ${tally.wronglyApplied.length} wrongly applied`);
  await app?.close();
});

async function placeOrder() {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: basic._id, customerName: "P", customerAddress: "A", customerCountry: "UK" },
    jar: customer,
  });
  return ((await res.json()) as { insertedId: string }).insertedId;
}
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const eventsOf = async (raw: string) =>
  (await app.db.pool.query("select outcome, reason from payment_notices where raw = $1", [raw])).rows;

function message(orderId: string, overrides: Record<string, string | null> = {}) {
  const fields: Record<string, string> = {
    payment_status: "Completed",
    receiver_email: "shop@example.org",
    business: "shop@example.org",
    mc_gross: basic.packagePrice.toFixed(2),
    mc_currency: "USD",
    txn_id: `T${randomBytes(6).toString("hex").toUpperCase()}`,
    custom: orderId,
    txn_type: "web_accept",
  };
  return ipnBody(fields, overrides);
}
/** Marks a message as one PayPal (the simulator) really sent, so that its postback answers VERIFIED. */
const genuine = (raw: string) => markGenuine(app.db.pool, raw);
let sender = 0;
const post = (raw: string, from = `192.0.2.${++sender % 250}`) =>
  app.request("/api/paypal/ipn", {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": from },
  });
const settledOutcome = async (raw: string) => {
  await expect
    .poll(async () => (await eventsOf(raw)).map((e) => e.outcome).filter((o) => o !== "received"), { timeout: 10_000 })
    .toHaveLength(1);
  return (await eventsOf(raw))[0]!.outcome as string;
};

describe("the IPN listener under faults", () => {
  it("stores a notification before it answers 200 (D4)", async () => {
    const raw = message(await placeOrder());
    const res = await post(raw);
    expect(res.status).toBe(200);
    expect(await eventsOf(raw)).toHaveLength(1); // already there when PayPal hears 200
  });

  it("a notification stored when the app stopped before processing it is processed after the restart (D4)", async () => {
    const id = await placeOrder();
    const raw = message(id);
    await genuine(raw);
    // What a crash between storing and processing leaves: the row, received two minutes ago, never processed.
    await app.db.pool.query(
      "insert into payment_notices (provider, raw, headers, verdict, outcome, reason, received_at) values ('paypal-ipn', $1, '{}', 'received', 'received', 'stored', now() - interval '2 minutes')",
      [raw],
    );
    expect(await app.services.payments.ipn.retry()).toEqual({ retried: 1 });
    expect(await eventsOf(raw)).toEqual([{ outcome: "applied", reason: expect.stringMatching(/order marked Paid$/) }]);
    expect((await orderRow(id)).payment_status).toBe("Paid");
  });

  it("is limited per sending address: a flood is refused with 429 and not stored (D4)", async () => {
    const from = "198.51.100.99";
    const before = Number((await app.db.pool.query("select count(*) from payment_notices")).rows[0].count);
    const statuses: number[] = [];
    for (let i = 0; i < IPN_LIMIT.limit + 5; i++) {
      statuses.push((await post(`forged=${i}&${"x".repeat(19_000)}`, from)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(IPN_LIMIT.limit);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);
    const after = Number((await app.db.pool.query("select count(*) from payment_notices")).rows[0].count);
    expect(after - before).toBe(IPN_LIMIT.limit);
    expect((await post(message(await placeOrder()), "198.51.100.100")).status).toBe(200); // another sender still heard
  });

  it("the simulator's own notifications are never limited: 70 payments in a minute are all applied", async () => {
    const ids = await Promise.all(Array.from({ length: IPN_LIMIT.limit + 10 }, () => placeOrder()));
    for (const id of ids) {
      const record = (await (await app.request(`/api/order/${id}`, { jar: customer })).json()) as Parameters<
        typeof app.services.paypal.checkout
      >[0];
      await app.services.paypal.simulator.pay((await app.services.paypal.checkout(record)).fields);
    }
    const paid = async () =>
      Number(
        (
          await app.db.pool.query(
            "select count(*) from orders where id = any($1::uuid[]) and payment_status = 'Paid'",
            [ids],
          )
        ).rows[0].count,
      );
    await expect.poll(paid, { timeout: 30_000 }).toBe(ids.length);
  }, 90_000);

  it.each([
    ["a literal NUL byte", (raw: string) => raw.replace("txn_type=", "txn_type=web\u0000")],
    ["an encoded NUL", (raw: string) => raw.replace("txn_type=", "txn_type=web%00")],
  ])("a notification holding %s is recorded as rejected, with its reason (D13)", async (_label, corrupt) => {
    const id = await placeOrder();
    const raw = corrupt(message(id));
    await genuine(raw);
    expect((await post(raw)).status).toBe(200);
    const rows = (
      await app.db.pool.query("select outcome, reason from payment_notices where raw like $1", [`%custom=${id}%`])
    ).rows;
    expect(rows).toEqual([{ outcome: "rejected", reason: expect.stringMatching(/NUL/) }]);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
  });
});

describe("the forgery and replay matrix", () => {
  type Case = [label: string, overrides: Record<string, string | null>, genuine: boolean];
  const FORGERIES: Case[] = [
    ["not sent by PayPal (INVALID)", {}, false],
    ["another receiver", { receiver_email: "thief@example.org", business: "thief@example.org" }, true],
    ["no receiver", { receiver_email: null, business: null }, true],
    ["a lower amount", { mc_gross: "0.01" }, true],
    ["a zero amount", { mc_gross: "0.00" }, true],
    ["a negative amount", { mc_gross: "-29.00" }, true],
    ["an amount that is not a number", { mc_gross: "free" }, true],
    ["an amount in exponent form", { mc_gross: "1e9" }, true],
    ["another currency", { mc_currency: "EUR" }, true],
    ["no currency", { mc_currency: null }, true],
    ["status Pending", { payment_status: "Pending" }, true],
    ["status Denied", { payment_status: "Denied" }, true],
    ["status in lower case", { payment_status: "completed" }, true],
    ["no status", { payment_status: null }, true],
    ["no transaction id", { txn_id: null }, true],
    ["an empty transaction id", { txn_id: "" }, true],
    ["no order", { custom: null }, true],
    ["an order id that is not a UUID", { custom: "1 or 1=1" }, true],
    ["an unknown order", { custom: "00000000-0000-4000-8000-000000000000" }, true],
    ["a refund of a payment never made", { payment_status: "Refunded", parent_txn_id: "NOPE" }, true],
    ["a script in every field", { item_name: "<script>alert(1)</script>", first_name: "javascript:alert(1)" }, false],
  ];

  it.each(FORGERIES)("%s: the order stays unpaid", async (label, overrides, isGenuine) => {
    const id = await placeOrder();
    const raw = message(overrides.custom === undefined ? id : id, overrides);
    if (isGenuine) await genuine(raw);
    expect((await post(raw)).status).toBe(200);
    tally.cases++;
    // A pending or denied payment is applied as what it is (the unpaid order says so, decision 069): it pays nothing.
    const noted = overrides.payment_status === "Pending" || overrides.payment_status === "Denied";
    if (!noted) expect(await settledOutcome(raw)).not.toBe("applied");
    if ((await orderRow(id)).payment_status !== "UnPaid") tally.wronglyApplied.push(label);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
  });

  it("replays: the same message twice, its transaction on another order, and a concurrent burst pay once", async () => {
    const first = await placeOrder();
    const raw = message(first, { txn_id: "TXNMATRIXREPLAY01" });
    await genuine(raw);
    await post(raw);
    expect(await settledOutcome(raw)).toBe("applied");
    const paidUntil = (await orderRow(first)).membership_valid;

    // The same message again, five times at once.
    await Promise.all(Array.from({ length: 5 }, () => post(raw)));
    await expect
      .poll(async () => (await eventsOf(raw)).filter((e) => e.outcome === "duplicate").length, { timeout: 10_000 })
      .toBe(5);
    expect((await orderRow(first)).membership_valid).toEqual(paidUntil);
    tally.cases += 6;

    // The paid transaction presented for another order.
    const second = await placeOrder();
    const stolen = message(second, { txn_id: "TXNMATRIXREPLAY01" });
    await genuine(stolen);
    await post(stolen);
    expect(await settledOutcome(stolen)).toBe("duplicate");
    tally.cases++;
    if ((await orderRow(second)).payment_status !== "UnPaid") tally.wronglyApplied.push("transaction reused");
    expect((await orderRow(second)).payment_status).toBe("UnPaid");

    // Eight genuine payments of four orders, two notifications each, all at once: each order paid exactly once.
    const orders = await Promise.all(Array.from({ length: 4 }, () => placeOrder()));
    const burst = orders.map((id) => message(id));
    for (const r of burst) await genuine(r);
    await Promise.all(burst.flatMap((r) => [post(r), post(r)]));
    for (const r of burst) {
      await expect
        .poll(async () => (await eventsOf(r)).filter((e) => e.outcome !== "received").length, { timeout: 10_000 })
        .toBe(2);
      expect((await eventsOf(r)).map((e) => e.outcome).sort()).toEqual(["applied", "duplicate"]);
    }
    tally.cases += 8;
  });
});

/**
 * Issue 27, part 7: the matrix grows with subscription forgeries and replays, posted to the listener as PayPal posts
 * them (each answered 200 and recorded; none applied).
 */
describe("the forgery and replay matrix: subscriptions", () => {
  const subscriptionNotice = (
    orderId: string,
    subscrId: string,
    txnType: string,
    overrides: Record<string, string | null> = {},
  ) =>
    message(orderId, {
      txn_type: txnType,
      subscr_id: subscrId,
      ipn_track_id: randomBytes(6).toString("hex"),
      ...(txnType === "subscr_payment"
        ? {}
        : {
            payment_status: null,
            mc_gross: null,
            txn_id: null,
            mc_currency: txnType === "subscr_signup" ? "USD" : null,
          }),
      ...(txnType === "subscr_signup"
        ? { mc_amount3: basic.packagePrice.toFixed(2), period3: `${basic.packageValidity} D` }
        : {}),
      ...overrides,
    });
  /**
   * Posts a genuine (or forged) notice and waits for its outcome, having checked the listener answered 200 (a replay
   * of the same body: the outcome of this delivery, the latest).
   */
  const deliver = async (raw: string, isGenuine = true) => {
    if (isGenuine) await genuine(raw);
    const settled = async () =>
      (
        await app.db.pool.query(
          "select outcome from payment_notices where raw = $1 and outcome <> 'received' order by received_at, id",
          [raw],
        )
      ).rows.map((r) => r.outcome as string);
    const before = (await settled()).length;
    expect((await post(raw)).status).toBe(200);
    await expect.poll(async () => (await settled()).length, { timeout: 10_000 }).toBe(before + 1);
    return (await settled()).at(-1)!;
  };
  const subscribed = async () => {
    const id = await placeOrder();
    const subscrId = `I-F${randomBytes(6).toString("hex").toUpperCase()}`;
    expect(await deliver(subscriptionNotice(id, subscrId, "subscr_signup"))).toBe("applied");
    expect(await deliver(subscriptionNotice(id, subscrId, "subscr_payment"))).toBe("applied");
    return { id, subscrId };
  };
  /** What a subscription has given: its paid orders (the first and each renewal) and its status. */
  const state = async (o: { id: string; subscrId: string }) => ({
    paid: Number(
      (
        await app.db.pool.query(
          "select count(*) from orders where (id = $1 or subscr_id = $2) and payment_status = 'Paid'",
          [o.id, o.subscrId],
        )
      ).rows[0].count,
    ),
    status: (await app.db.pool.query("select status from subscriptions where subscr_id = $1", [o.subscrId])).rows[0]
      ?.status as string | undefined,
  });

  it.each<
    [string, (own: { id: string; subscrId: string }, other: { id: string; subscrId: string }) => string, boolean]
  >([
    [
      "a forged renewal (not sent by PayPal)",
      (own) => subscriptionNotice(own.id, own.subscrId, "subscr_payment"),
      false,
    ],
    [
      "a wrong amount on renewal",
      (own) => subscriptionNotice(own.id, own.subscrId, "subscr_payment", { mc_gross: "0.01" }),
      true,
    ],
    [
      "a renewal to another receiver",
      (own) =>
        subscriptionNotice(own.id, own.subscrId, "subscr_payment", {
          receiver_email: "thief@example.org",
          business: "thief@example.org",
        }),
      true,
    ],
    [
      "a cancellation for someone else's subscription",
      (own, other) => subscriptionNotice(own.id, other.subscrId, "subscr_cancel"),
      true,
    ],
    ["a forged cancellation", (_own, other) => subscriptionNotice(other.id, other.subscrId, "subscr_cancel"), false],
    [
      "someone else's subscription renewing this order",
      (own, other) => subscriptionNotice(own.id, other.subscrId, "subscr_payment"),
      true,
    ],
  ])("%s: answered 200, recorded, nothing applied", async (label, make, isGenuine) => {
    const own = await subscribed();
    const other = await subscribed();
    const before = [await state(own), await state(other)];
    const outcome = await deliver(make(own, other), isGenuine);
    tally.cases++;
    expect(outcome).not.toBe("applied");
    const after = [await state(own), await state(other)];
    if (JSON.stringify(after) !== JSON.stringify(before)) tally.wronglyApplied.push(label);
    expect(after).toEqual(before);
  });

  it("a replayed subscr_payment, a renewal after cancellation, unknown and out-of-order notices", async () => {
    const own = await subscribed();
    const renewal = subscriptionNotice(own.id, own.subscrId, "subscr_payment");
    expect(await deliver(renewal)).toBe("applied");
    const once = await state(own);
    expect(once.paid).toBe(2);
    // PayPal's retry of the renewal, and its transaction on a notice of its own.
    expect(await deliver(renewal)).toBe("duplicate");
    const txn = new URLSearchParams(renewal).get("txn_id")!;
    expect(await deliver(subscriptionNotice(own.id, own.subscrId, "subscr_payment", { txn_id: txn }))).toBe(
      "duplicate",
    );
    tally.cases += 2;
    // The customer cancels; a later payment renews nothing.
    expect(await deliver(subscriptionNotice(own.id, own.subscrId, "subscr_cancel"))).toBe("applied");
    expect(await deliver(subscriptionNotice(own.id, own.subscrId, "subscr_payment"))).toBe("refused");
    tally.cases++;
    const after = await state(own);
    if (after.paid !== once.paid) tally.wronglyApplied.push("a replay or a renewal after cancellation");
    expect(after).toEqual({ paid: 2, status: "cancelled" });

    // An unknown notice is recorded and changes nothing; a cancellation before its sign-up is kept and applied.
    expect(await deliver(subscriptionNotice(own.id, own.subscrId, "subscr_modify"))).toBe("ignored");
    const early = { id: await placeOrder(), subscrId: `I-F${randomBytes(6).toString("hex").toUpperCase()}` };
    expect(await deliver(subscriptionNotice(early.id, early.subscrId, "subscr_cancel"))).toBe("applied");
    expect(await deliver(subscriptionNotice(early.id, early.subscrId, "subscr_signup"))).toBe("applied");
    expect(await deliver(subscriptionNotice(early.id, early.subscrId, "subscr_payment"))).toBe("refused");
    expect(await state(early)).toEqual({ paid: 0, status: "cancelled" });
  });
});
