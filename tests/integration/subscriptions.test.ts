import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "#domain/membership.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { ipnBody, markGenuine, simulatorPlays } from "../support/paypal";

/**
 * Issue 27: PayPal subscriptions through the verified listener (decision 046). Notices are stored and processed as
 * PayPal's are (payments.ipn.handle: the postback to the simulator says VERIFIED only for what `genuine` marked as sent).
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
  return ipnBody(fields, overrides);
}
/** Marks a message as one PayPal (the simulator) really sent. */
const genuine = (raw: string) => markGenuine(app.db.pool, raw);
const send = async (raw: string, isGenuine = true) => {
  if (isGenuine) await genuine(raw);
  return app.services.payments.ipn.handle(raw);
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
    expect(await send(notice(id, subscrId, "subscr_payment"))).toBe("refused");
    expect(await membership(userId)).toEqual(renewed);
    expect(await send(notice(id, subscrId, "subscr_eot"))).toBe("applied");
    expect((await subscription(subscrId)).status).toBe("ended");
  });

  it("a cancellation mails the customer once, whether PayPal or the studio cancels", async () => {
    const keys = async (subscrId: string) => {
      const row = await subscription(subscrId);
      return (
        await app.db.pool.query("select key from job_keys where key like $1", [`%${row.id as string}%cancelled%`])
      ).rows.map((r) => r.key as string);
    };
    const atPayPal = await subscribed();
    expect(await keys(atPayPal.subscrId)).toEqual([]);
    expect(await send(notice(atPayPal.id, atPayPal.subscrId, "subscr_cancel"))).toBe("applied");
    expect(await send(notice(atPayPal.id, atPayPal.subscrId, "subscr_cancel"))).toBe("duplicate");
    expect(await keys(atPayPal.subscrId)).toHaveLength(1);

    const byStaff = await subscribed();
    const row = await subscription(byStaff.subscrId);
    expect(await app.services.subscriptions.markCancelled(row.id, STAFF)).toEqual({ modified: true });
    expect(await keys(byStaff.subscrId)).toHaveLength(1);
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
    expect(await send(notice(other, early, "subscr_payment"))).toBe("refused");
    expect((await orderRow(other)).payment_status).toBe("UnPaid");
    expect(await send(notice(other, early, "subscr_modify"))).toBe("ignored");
  });

  it("a sign-up for another amount or period is refused", async () => {
    const id = await placeOrder();
    expect(await send(notice(id, newSubscrId(), "subscr_signup", { mc_amount3: "0.01" }))).toBe("refused");
    expect(await send(notice(id, newSubscrId(), "subscr_signup", { period3: "1 Y" }))).toBe("refused");
    expect(await send(notice(id, newSubscrId(), "subscr_signup", { mc_currency: "EUR" }))).toBe("refused");
  });

  it("a subscription whose sign-up was refused is not made active by its first payment: refused and recorded", async () => {
    const id = await placeOrder();
    const subscrId = newSubscrId();
    expect(await send(notice(id, subscrId, "subscr_signup", { mc_amount3: "0.01" }))).toBe("refused");
    expect(await send(notice(id, subscrId, "subscr_payment"))).toBe("refused");
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    expect(await subscription(subscrId)).toBeUndefined();
    const { rows } = await app.db.pool.query(
      "select reason from payment_notices where order_id = $1 order by received_at desc limit 1",
      [id],
    );
    expect(rows[0].reason).toMatch(/sign-up was refused/);
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
    expect(late).toBe("refused");
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

describe("a subscription with a discount code (PayPal's introductory period, decision 049)", () => {
  let codes = 0;
  /** An order for Basic placed with a new 20% code of this period. */
  async function discounted(period: "first" | "every", jar = customers[0]!) {
    const code = `SUB-${period.toUpperCase()}-${++codes}`;
    const codeId = await app.services.discounts.add({ code, kind: "percent", value: 20, period }, STAFF);
    const res = await app.request("/api/new-order", {
      method: "POST",
      json: {
        packageId: basic._id,
        customerName: "S",
        customerAddress: "A",
        customerCountry: "UK",
        discountCode: code,
      },
      jar,
    });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { insertedId: string }).insertedId;
    const row = await orderRow(id);
    expect(row.discount_period).toBe(period);
    return {
      id,
      code,
      codeId,
      price: Number(row.package_price),
      full: basic.packagePrice,
      userId: row.user_id as string,
    };
  }
  const period = () => `${basic.packageValidity} D`;
  /** The sign-up PayPal sends for what the form asked: a1 for one period, then a3. */
  const signupOf = (o: { id: string; price: number; full: number }, subscrId: string, intro: boolean) =>
    notice(o.id, subscrId, "subscr_signup", {
      ...(intro ? { mc_amount1: o.price.toFixed(2), period1: period() } : {}),
      mc_amount3: (intro ? o.full : o.price).toFixed(2),
    });
  const payment = (o: { id: string }, subscrId: string, amount: number) =>
    notice(o.id, subscrId, "subscr_payment", { mc_gross: amount.toFixed(2) });
  const uses = async (codeId: string) => (await app.services.discounts.get(codeId)).uses;
  const invoiceOf = async (id: string) => {
    const row = await orderRow(id);
    return app.services.invoices.get({ id: row.user_id, staffRole: null }, row.number);
  };

  it("first period only: the form asks a1 = the discounted price for one period, then a3 = the full price", async () => {
    const o = await discounted("first");
    const record = await (await app.request(`/api/order/${o.id}`, { jar: customers[0] })).json();
    const form = await app.services.paypal.subscribeCheckout({ ...record, discountPeriod: "first" });
    expect(form?.fields).toMatchObject({
      cmd: "_xclick-subscriptions",
      a1: o.price.toFixed(2),
      p1: String(basic.packageValidity),
      t1: "D",
      a3: o.full.toFixed(2),
      p3: String(basic.packageValidity),
      t3: "D",
    });
    expect(o.price).toBeLessThan(o.full);

    const subscrId = newSubscrId();
    expect(await send(signupOf(o, subscrId, true))).toBe("applied");
    // The first payment is the order's price: the full price is not what it asked for.
    expect(await send(payment(o, subscrId, o.full))).toBe("flagged");
    expect(await send(payment(o, subscrId, o.price))).toBe("applied");
    expect((await orderRow(o.id)).payment_status).toBe("Paid");
    await app.services.orders.setOrderStatus(o.id, { orderStatus: "Delivered" }, STAFF);
    const first = await invoiceOf(o.id);
    expect(first).toMatchObject({ amount: o.price, discount: { code: o.code, priceBefore: o.full } });

    // Each later period: the full price, as PayPal was told; the discounted amount again is refused.
    const before = await membership(o.userId);
    expect(await send(payment(o, subscrId, o.price))).toBe("flagged");
    expect(await membership(o.userId)).toEqual(before);
    expect(await send(payment(o, subscrId, o.full))).toBe("applied");
    const { rows: renewals } = await app.db.pool.query("select * from orders where subscr_id = $1", [subscrId]);
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({
      package_price: o.full.toFixed(2),
      price_before: null,
      discount_amount: "0.00",
      discount_code: null,
      discount_code_id: null,
      discount_period: null,
    });
    const renewalInvoice = await invoiceOf(renewals[0].id);
    expect(renewalInvoice).toMatchObject({ amount: o.full, discount: null });
    expect((await membership(o.userId)).days - before.days).toBe(basic.packageValidity);
    expect(await uses(o.codeId)).toBe(1);
    // A later payment that fails: the customer's mail names the amount PayPal tried, the full price.
    const failed = notice(o.id, subscrId, "subscr_failed");
    expect(await send(failed)).toBe("applied");
    const key = `subscription:${subscrId}:${new URLSearchParams(failed).get("ipn_track_id")}:failed`;
    const { rows: mails } = await app.db.pool.query("select data from pgboss.job where data->>'key' like $1", [
      `%${key}`,
    ]);
    expect(mails).toHaveLength(1);
    expect(JSON.stringify(mails[0].data)).toContain(`$${o.full.toFixed(2)}`);
    expect(JSON.stringify(mails[0].data)).not.toContain(`$${o.price.toFixed(2)}`);
  });

  it("every period: a3 = the discounted price, no introductory period; each renewal carries the discount and is no new use", async () => {
    const o = await discounted("every");
    const record = await (await app.request(`/api/order/${o.id}`, { jar: customers[0] })).json();
    const form = await app.services.paypal.subscribeCheckout({ ...record, discountPeriod: "every" });
    expect(form?.fields).toMatchObject({ a3: o.price.toFixed(2), t3: "D" });
    expect(form?.fields).not.toHaveProperty("a1");

    const subscrId = newSubscrId();
    // A sign-up with an introductory period the order did not ask for is refused.
    expect(await send(signupOf({ ...o, full: o.price }, newSubscrId(), true))).toBe("refused");
    expect(await send(signupOf(o, subscrId, false))).toBe("applied");
    expect(await send(payment(o, subscrId, o.price))).toBe("applied");
    await app.services.orders.setOrderStatus(o.id, { orderStatus: "Delivered" }, STAFF);
    expect(await send(payment(o, subscrId, o.full))).toBe("flagged");
    expect(await send(payment(o, subscrId, o.price))).toBe("applied");
    expect(await send(payment(o, subscrId, o.price))).toBe("applied");
    const { rows: renewals } = await app.db.pool.query("select * from orders where subscr_id = $1", [subscrId]);
    expect(renewals).toHaveLength(2);
    for (const r of renewals) {
      expect(r).toMatchObject({
        package_price: o.price.toFixed(2),
        price_before: o.full.toFixed(2),
        discount_code: o.code,
        discount_code_id: o.codeId,
        discount_period: "every",
      });
      expect(await invoiceOf(r.id)).toMatchObject({ amount: o.price, discount: { code: o.code, priceBefore: o.full } });
    }
    // One subscription is one use of the code, however many periods it renews.
    expect(await uses(o.codeId)).toBe(1);
  });

  it("forgeries: a renewal at the discounted price on a first-period code, a changed mc_amount1, a3 or period1: 0 applied", async () => {
    const o = await discounted("first", customers[1]);
    const cases: [string, string][] = [];
    const signups: [string, Record<string, string | null>][] = [
      ["a sign-up with a changed mc_amount1", { mc_amount1: "0.01" }],
      ["a sign-up with a changed a3 (mc_amount3)", { mc_amount3: o.price.toFixed(2) }],
      ["a sign-up without the introductory period", { mc_amount1: null, period1: null }],
      ["a sign-up with a longer introductory period", { period1: "1 Y" }],
    ];
    for (const [label, overrides] of signups) {
      const subscrId = newSubscrId();
      const raw = signupOf(o, subscrId, true);
      const fields = Object.fromEntries(new URLSearchParams(raw));
      for (const [k, v] of Object.entries(overrides)) {
        if (v === null) delete fields[k];
        else fields[k] = v;
      }
      const outcome = await send(new URLSearchParams(fields).toString());
      tally.forgeries++;
      cases.push([label, outcome ?? "null"]);
      if (outcome === "applied" || (await subscription(subscrId))) tally.wronglyApplied.push(label);
      expect(await subscription(subscrId)).toBeUndefined();
    }
    expect(cases.filter(([, outcome]) => outcome === "applied")).toEqual([]);

    // Subscribed and paid as asked; then a renewal at the discounted price again.
    const subscrId = newSubscrId();
    expect(await send(signupOf(o, subscrId, true))).toBe("applied");
    expect(await send(payment(o, subscrId, o.price))).toBe("applied");
    await app.services.orders.setOrderStatus(o.id, { orderStatus: "Delivered" }, STAFF);
    const before = await membership(o.userId);
    const outcome = await send(payment(o, subscrId, o.price));
    tally.forgeries++;
    if (outcome === "applied") tally.wronglyApplied.push("a renewal at the discounted price on a first-period code");
    expect(outcome).toBe("flagged");
    expect(await membership(o.userId)).toEqual(before);
  });

  it("the simulator takes a1 first, then a3, and signs only what it sent", async () => {
    const o = await discounted("first");
    const record = await (await app.request(`/api/order/${o.id}`, { jar: customers[0] })).json();
    const form = (await app.services.paypal.subscribeCheckout({ ...record, discountPeriod: "first" }))!;
    const sim = app.services.paypal.simulator;
    expect(await sim.describe(form.fields)).toMatchObject({
      amount: o.price.toFixed(2),
      laterAmount: o.full.toFixed(2),
    });
    await sim.pay(form.fields);
    await expect.poll(async () => (await orderRow(o.id)).payment_status, { timeout: 10_000 }).toBe("Paid");
    const sub = (await app.db.pool.query("select subscr_id from subscriptions where order_id = $1", [o.id])).rows[0];
    const events = async () =>
      (
        await app.db.pool.query("select raw, outcome from payment_notices where raw like $1 order by received_at", [
          `%${sub.subscr_id}%`,
        ])
      ).rows as { raw: string; outcome: string }[];
    await expect
      .poll(async () => (await events()).map((e) => e.outcome), { timeout: 10_000 })
      .toEqual(["applied", "applied"]);
    const [signup, first] = (await events()).map((e) => new URLSearchParams(e.raw));
    expect(signup!.get("mc_amount1")).toBe(o.price.toFixed(2));
    expect(signup!.get("period1")).toBe(period());
    expect(signup!.get("mc_amount3")).toBe(o.full.toFixed(2));
    expect(first!.get("mc_gross")).toBe(o.price.toFixed(2));

    const next = await sim.subscriptionEvent(sub.subscr_id, "payment");
    expect(new URLSearchParams(next.raw).get("mc_gross")).toBe(o.full.toFixed(2));
    await expect
      .poll(
        async () =>
          (await app.db.pool.query("select package_price from orders where subscr_id = $1", [sub.subscr_id])).rows,
        { timeout: 10_000 },
      )
      .toEqual([{ package_price: o.full.toFixed(2) }]);
    // The simulator's message with its amount changed is not one it sent: INVALID, nothing applied.
    const forged = new URLSearchParams(next.raw);
    forged.set("mc_gross", o.price.toFixed(2));
    forged.set("txn_id", "FORGEDTXN0000001");
    expect(await send(forged.toString(), false)).toBe("rejected");
  });
});

describe("the subscribe form and the simulator's subscription controls (parts 1 and 3)", () => {
  it("the form carries the order, the amount, the period and our notify, return and cancel addresses", async () => {
    const id = await placeOrder();
    const record = await (await app.request(`/api/order/${id}`, { jar: customers[0] })).json();
    const form = (await app.services.paypal.subscribeCheckout({ ...record, discountPeriod: null }))!;
    const base = app.config.publicUrl;
    expect(form.fields).toMatchObject({
      cmd: "_xclick-subscriptions",
      business: "shop@example.org",
      custom: id,
      invoice: id,
      a3: basic.packagePrice.toFixed(2),
      p3: String(basic.packageValidity),
      t3: "D",
      src: "1",
      currency_code: "USD",
      notify_url: `${base}/api/paypal/ipn`,
      return: `${base}/received-payment/${id}`,
      cancel_return: `${base}/order-cancelled/${id}`,
    });
    expect(form.fields).not.toHaveProperty("a1");
    expect(form.fields).not.toHaveProperty("amount");
  });

  it("subscribe, next period's payment, failed payment, cancel, end of term: each signed, applied once", async () => {
    const id = await placeOrder();
    const record = await (await app.request(`/api/order/${id}`, { jar: customers[0] })).json();
    const form = (await app.services.paypal.subscribeCheckout({ ...record, discountPeriod: null }))!;
    await app.services.paypal.simulator.pay(form.fields);
    await expect.poll(async () => (await orderRow(id)).payment_status, { timeout: 10_000 }).toBe("Paid");
    await app.services.orders.setOrderStatus(id, { orderStatus: "Delivered" }, STAFF);
    const { subscr_id: subscrId, user_id: userId } = (
      await app.db.pool.query("select subscr_id, user_id from subscriptions where order_id = $1", [id])
    ).rows[0];
    const start = await membership(userId);

    // The next period's payment: exactly one period more; PayPal's retry of it: nothing more.
    const next = await simulatorPlays(app, subscrId, "payment");
    expect(next.outcome).toBe("applied");
    const renewed = await membership(userId);
    expect(renewed.days - start.days).toBe(basic.packageValidity);
    await app.services.paypal.simulator.resend(form.fields, next.raw!);
    await expect
      .poll(async () =>
        (
          await app.db.pool.query("select outcome from payment_notices where raw = $1 order by received_at", [next.raw])
        ).rows.map((r) => r.outcome),
      )
      .toEqual(["applied", "duplicate"]);
    expect(await membership(userId)).toEqual(renewed);

    // A failed payment: noted, the customer and the admins mailed; nothing paid.
    expect((await simulatorPlays(app, subscrId, "failed")).outcome).toBe("applied");
    expect((await subscription(subscrId)).last_failed_at).not.toBeNull();
    const mails = await app.db.pool.query("select key from job_keys where key like $1", [`%${subscrId}%failed%`]);
    expect(mails.rows.length).toBeGreaterThan(1);

    // The customer cancels: the time paid for remains; the simulator offers no more payments.
    expect((await simulatorPlays(app, subscrId, "cancel")).outcome).toBe("applied");
    expect(await subscription(subscrId)).toMatchObject({ status: "cancelled" });
    expect((await simulatorPlays(app, subscrId, "payment")).outcome).toBeNull();
    expect(await membership(userId)).toEqual(renewed);

    // End of term, on another subscription: ended, the time paid for kept.
    const other = await placeOrder();
    const otherRecord = await (await app.request(`/api/order/${other}`, { jar: customers[0] })).json();
    const otherForm = (await app.services.paypal.subscribeCheckout({ ...otherRecord, discountPeriod: null }))!;
    await app.services.paypal.simulator.pay(otherForm.fields);
    await expect.poll(async () => (await orderRow(other)).payment_status, { timeout: 10_000 }).toBe("Paid");
    const { subscr_id: ending } = (
      await app.db.pool.query("select subscr_id from subscriptions where order_id = $1", [other])
    ).rows[0];
    expect((await simulatorPlays(app, ending, "end")).outcome).toBe("applied");
    expect((await subscription(ending)).status).toBe("ended");
    expect((await simulatorPlays(app, ending, "payment")).outcome).toBeNull();
    expect((await orderRow(other)).payment_status).toBe("Paid");
  });
});
