import { createHash, randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "../../domain/membership";
import { demoContent } from "../../server/seed/demo-content";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 27: PayPal subscriptions through the verified listener (decision 046). Notices are stored and processed as
 * PayPal's are (handleIpn: the postback to the simulator says VERIFIED only for what `genuine` marked as sent).
 */
let app: TestApp;
let basic: { _id: string; packagePrice: number; packageValidity: number };
const customers = [new CookieJar(), new CookieJar()];
const tally = { forgeries: 0, wronglyApplied: [] as string[] };
const STAFF = { id: "staff-test", email: "studio@example.org" };

beforeAll(async () => {
  app = await startTestApp({ PAYPAL_RECEIVER_EMAIL: "shop@example.org" });
  await app.services.content.insertMany(demoContent);
  const pricing = (await (await app.request("/api/pricings")).json()) as {
    _id: string;
    packagePrice: number;
    packageValidity: number;
    packageName: string;
  }[];
  basic = pricing.find((p) => p.packageName === "Basic")!;
  for (const [i, jar] of customers.entries())
    await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email: `subscriber${i}@example.org`, password: "quiet-harbour-71", name: "", acceptTerms: true },
      jar,
    });
});
afterAll(async () => {
  console.info(
    `Subscription forgeries and replays: ${tally.forgeries} cases, ${tally.wronglyApplied.length} wrongly applied`,
  );
  await app?.close();
});

async function placeOrder(jar = customers[0]!) {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: basic._id, customerName: "S", customerAddress: "A", customerCountry: "UK" },
    jar,
  });
  return ((await res.json()) as { insertedId: string }).insertedId;
}

/** A subscription notice as PayPal words it. */
function notice(orderId: string, subscrId: string, txnType: string, overrides: Record<string, string | null> = {}) {
  const amount = basic.packagePrice.toFixed(2);
  const fields: Record<string, string> = {
    txn_type: txnType,
    subscr_id: subscrId,
    custom: orderId,
    receiver_email: "shop@example.org",
    business: "shop@example.org",
    ipn_track_id: randomBytes(6).toString("hex"),
    ...(txnType === "subscr_signup"
      ? { mc_amount3: amount, period3: `${basic.packageValidity} D`, mc_currency: "USD" }
      : txnType === "subscr_payment"
        ? {
            payment_status: "Completed",
            mc_gross: amount,
            mc_currency: "USD",
            txn_id: `S${randomBytes(7).toString("hex").toUpperCase()}`,
          }
        : {}),
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete fields[k];
    else fields[k] = v;
  }
  return new URLSearchParams(fields).toString();
}
/** Marks a message as one PayPal (the simulator) really sent. */
const genuine = (raw: string) =>
  app.db.pool.query("insert into paypal_simulator_messages (digest) values ($1) on conflict do nothing", [
    createHash("sha256").update(raw).digest("hex"),
  ]);
const send = async (raw: string, isGenuine = true) => {
  if (isGenuine) await genuine(raw);
  return app.services.paypal.handleIpn(raw);
};
const newSubscrId = () => `I-T${randomBytes(6).toString("hex").toUpperCase()}`;
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const subscription = async (subscrId: string) =>
  (await app.db.pool.query("select * from subscriptions where subscr_id = $1", [subscrId])).rows[0];
/** The customer's membership: paid periods (orders that count), days granted by the stored windows, latest end. */
async function membership(userId: string) {
  const { rows } = await app.db.pool.query(
    `select count(*)::int as orders, coalesce(sum(extract(epoch from membership_valid - membership_starts)), 0)::float as seconds,
            max(membership_valid) as ends
       from orders where user_id = $1 and payment_status = 'Paid' and order_status = 'Delivered'`,
    [userId],
  );
  return {
    orders: rows[0].orders as number,
    days: Math.round((rows[0].seconds * 1000) / DAY_MS),
    ends: rows[0].ends as Date | null,
  };
}
/** A subscribed, paid and delivered first order. */
async function subscribed(jar = customers[0]!) {
  const id = await placeOrder(jar);
  const subscrId = newSubscrId();
  expect(await send(notice(id, subscrId, "subscr_signup"))).toBe("applied");
  expect(await send(notice(id, subscrId, "subscr_payment"))).toBe("applied");
  await app.services.orders.setOrderStatus(id, { orderStatus: "Delivered" }, STAFF);
  return { id, subscrId, userId: (await orderRow(id)).user_id as string };
}

describe("a subscription through the listener", () => {
  it("signs up, pays, renews by exactly one period once, keeps the time after a cancellation, renews no more", async () => {
    const { id, subscrId, userId } = await subscribed();
    expect(await subscription(subscrId)).toMatchObject({ status: "active", order_id: id });
    const start = await membership(userId);
    const v = basic.packageValidity;

    const renewal = notice(id, subscrId, "subscr_payment");
    expect(await send(renewal)).toBe("applied");
    const renewed = await membership(userId);
    expect(renewed.days - start.days).toBe(v);
    expect(renewed.ends!.getTime() - start.ends!.getTime()).toBe(v * DAY_MS);
    const { rows: renewals } = await app.db.pool.query(
      "select number, invoice_number, payment_method, package_price from orders where subscr_id = $1",
      [subscrId],
    );
    expect(renewals).toEqual([
      expect.objectContaining({
        number: expect.stringMatching(/^AN-/),
        invoice_number: expect.stringMatching(/^INV-/),
        payment_method: "PayPal",
      }),
    ]);

    // PayPal retries the same notification: nothing more.
    expect(await send(renewal)).toBe("duplicate");
    expect(await membership(userId)).toEqual(renewed);

    // The customer cancels: the time paid for remains; a later payment renews nothing.
    expect(await send(notice(id, subscrId, "subscr_cancel"))).toBe("applied");
    expect(await subscription(subscrId)).toMatchObject({ status: "cancelled", cancelled_by: "PayPal" });
    expect(await membership(userId)).toEqual(renewed);
    expect(await send(notice(id, subscrId, "subscr_payment"))).toBe("rejected");
    expect(await membership(userId)).toEqual(renewed);
    expect(await send(notice(id, subscrId, "subscr_eot"))).toBe("applied");
    expect((await subscription(subscrId)).status).toBe("ended");
  });

  it("a failed payment mails the customer and every admin, once per notification", async () => {
    await app.db.pool.query(
      "insert into admin_users (user_email, user_role) values ('boss@example.org', 'Admin') on conflict do nothing",
    );
    const { id, subscrId } = await subscribed();
    const failed = notice(id, subscrId, "subscr_failed");
    expect(await send(failed)).toBe("applied");
    expect(await send(failed)).toBe("applied");
    const { rows } = await app.db.pool.query("select key from job_keys where key like $1", [`%${subscrId}%`]);
    const admins = (await app.db.pool.query("select count(*)::int as n from admin_users where user_role = 'Admin'"))
      .rows[0].n;
    expect(rows.filter((r) => /:failed$/.test(r.key))).toHaveLength(1);
    expect(admins).toBeGreaterThan(0);
    expect(rows.filter((r) => r.key.includes("failed-admins"))).toHaveLength(admins);
    expect((await subscription(subscrId)).last_failed_at).not.toBeNull();
  });

  it("out of order: a payment before its sign-up is fine; a cancellation before its sign-up is kept", async () => {
    const id = await placeOrder();
    const subscrId = newSubscrId();
    expect(await send(notice(id, subscrId, "subscr_payment"))).toBe("applied");
    expect((await orderRow(id)).payment_status).toBe("Paid");
    expect(await send(notice(id, subscrId, "subscr_signup"))).toBe("applied");
    expect((await subscription(subscrId)).signed_up_at).not.toBeNull();

    const other = await placeOrder();
    const early = newSubscrId();
    expect(await send(notice(other, early, "subscr_cancel"))).toBe("applied");
    expect(await send(notice(other, early, "subscr_signup"))).toBe("applied");
    expect((await subscription(early)).status).toBe("cancelled");
    expect(await send(notice(other, early, "subscr_payment"))).toBe("rejected");
    expect((await orderRow(other)).payment_status).toBe("UnPaid");
    expect(await send(notice(other, early, "subscr_modify"))).toBe("ignored");
  });

  it("a sign-up for another amount or period is refused", async () => {
    const id = await placeOrder();
    expect(await send(notice(id, newSubscrId(), "subscr_signup", { mc_amount3: "0.01" }))).toBe("rejected");
    expect(await send(notice(id, newSubscrId(), "subscr_signup", { period3: "1 Y" }))).toBe("rejected");
    expect(await send(notice(id, newSubscrId(), "subscr_signup", { mc_currency: "EUR" }))).toBe("rejected");
  });
});

describe("subscription forgeries and replays: 0 applied", () => {
  it.each<[string, (o: { id: string; subscrId: string; other: { id: string; subscrId: string } }) => string, boolean]>([
    ["a forged renewal (not sent by PayPal)", (o) => notice(o.id, o.subscrId, "subscr_payment"), false],
    [
      "a renewal for another receiver",
      (o) =>
        notice(o.id, o.subscrId, "subscr_payment", {
          receiver_email: "thief@example.org",
          business: "thief@example.org",
        }),
      true,
    ],
    ["a wrong amount on renewal", (o) => notice(o.id, o.subscrId, "subscr_payment", { mc_gross: "0.01" }), true],
    ["another currency on renewal", (o) => notice(o.id, o.subscrId, "subscr_payment", { mc_currency: "EUR" }), true],
    ["a renewal without a transaction id", (o) => notice(o.id, o.subscrId, "subscr_payment", { txn_id: null }), true],
    [
      "a renewal without a subscription id",
      (o) => notice(o.id, o.subscrId, "subscr_payment", { subscr_id: null }),
      true,
    ],
    ["someone else's subscription renewing this order", (o) => notice(o.id, o.other.subscrId, "subscr_payment"), true],
    ["a cancellation for someone else's subscription", (o) => notice(o.id, o.other.subscrId, "subscr_cancel"), true],
    ["a forged cancellation", (o) => notice(o.other.id, o.other.subscrId, "subscr_cancel"), false],
  ])("%s", async (label, make, isGenuine) => {
    const own = await subscribed(customers[0]);
    const other = await subscribed(customers[1]);
    const before = [await membership(own.userId), await membership(other.userId)];
    const outcome = await send(make({ ...own, other }), isGenuine);
    tally.forgeries++;
    expect(outcome).not.toBe("applied");
    const after = [await membership(own.userId), await membership(other.userId)];
    const statuses = [(await subscription(own.subscrId)).status, (await subscription(other.subscrId)).status];
    if (JSON.stringify(after) !== JSON.stringify(before) || statuses.some((s) => s !== "active"))
      tally.wronglyApplied.push(label);
    expect(after).toEqual(before);
    expect(statuses).toEqual(["active", "active"]);
  });

  it("a replayed subscr_payment and a renewal after cancellation", async () => {
    const { id, subscrId, userId } = await subscribed();
    const renewal = notice(id, subscrId, "subscr_payment");
    expect(await send(renewal)).toBe("applied");
    const once = await membership(userId);
    // The same message five times at once, then its transaction on a message of its own.
    const replays = await Promise.all(Array.from({ length: 5 }, () => send(renewal)));
    const txn = new URLSearchParams(renewal).get("txn_id")!;
    replays.push(await send(notice(id, subscrId, "subscr_payment", { txn_id: txn })));
    expect(replays.every((o) => o === "duplicate")).toBe(true);
    await send(notice(id, subscrId, "subscr_cancel"));
    const late = await send(notice(id, subscrId, "subscr_payment"));
    expect(late).toBe("rejected");
    tally.forgeries += 7;
    if ((await membership(userId)).days !== once.days) tally.wronglyApplied.push("replay or renewal after cancel");
    expect(await membership(userId)).toEqual(once);
  });
});

describe("property: random interleavings of subscription notices, retries and replays", () => {
  it("give the days paid for, never more", async () => {
    type Step =
      { kind: "signup" | "cancel" | "failed" | "end" } | { kind: "pay"; k: number } | { kind: "replay"; k: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constantFrom<Step>({ kind: "signup" }, { kind: "cancel" }, { kind: "failed" }, { kind: "end" }),
      fc.integer({ min: 0, max: 4 }).map((k): Step => ({ kind: "pay", k })),
      fc.integer({ min: 0, max: 4 }).map((k): Step => ({ kind: "replay", k })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const id = await placeOrder(customers[1]);
        await app.services.settings.update({ autoActivate: true }, STAFF);
        const subscrId = newSubscrId();
        const sent = new Map<number, string>();
        const paid = new Set<number>();
        let stopped = false;
        for (const s of steps) {
          if (s.kind === "pay" || s.kind === "replay") {
            // A replay repeats payment k's message if it was sent; a new payment k is PayPal's next period.
            if (s.kind === "replay" && !sent.has(s.k)) continue;
            const raw = sent.get(s.k) ?? notice(id, subscrId, "subscr_payment", { txn_id: `P${s.k}${subscrId}` });
            sent.set(s.k, raw);
            const outcome = await send(raw);
            if (outcome === "applied") {
              expect(stopped).toBe(false);
              expect(paid.has(s.k)).toBe(false);
              paid.add(s.k);
            } else if (!stopped) expect(paid.has(s.k)).toBe(true);
          } else {
            const type = {
              signup: "subscr_signup",
              cancel: "subscr_cancel",
              failed: "subscr_failed",
              end: "subscr_eot",
            }[s.kind];
            await send(notice(id, subscrId, type));
            if (s.kind === "cancel" || s.kind === "end") stopped = true;
          }
        }
        // This subscription's orders: the first one and each renewal, with their stored windows.
        const { rows } = await app.db.pool.query(
          `select count(*) filter (where payment_status = 'Paid')::int as paid,
                  count(*) filter (where payment_status = 'Paid' and order_status = 'Delivered')::int as counting,
                  coalesce(sum(extract(epoch from membership_valid - membership_starts)), 0)::float as seconds
             from orders where id = $1 or subscr_id = $2`,
          [id, subscrId],
        );
        const days = Math.round((rows[0].seconds * 1000) / DAY_MS);
        expect(rows[0].paid).toBe(paid.size);
        expect(rows[0].counting).toBe(paid.size);
        expect(days).toBe(paid.size * basic.packageValidity);
      }),
      { numRuns: Number(process.env.FC_DB_RUNS ?? 15) },
    );
  });
});
