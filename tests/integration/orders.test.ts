import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "#domain/membership.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { markGenuine, postIpn } from "../support/paypal";

let app: TestApp;
let basic: { _id: string; packagePrice: number; packageValidity: number; packageName: string };
let premium: typeof basic;
const customer = new CookieJar();
const other = new CookieJar();
const admin = new CookieJar();

beforeAll(async () => {
  app = await startTestApp({
    ADMIN_EMAIL: "boss@example.org",
    ADMIN_PASSWORD: "boss-pass-12",
    PAYPAL_RECEIVER_EMAIL: "shop@example.org",
  });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  const pricing = (await (await app.request("/api/pricings")).json()) as (typeof basic)[];
  basic = pricing.find((p) => p.packageName === "Basic")!;
  premium = pricing.find((p) => p.packageName === "Premium")!;
  for (const [jar, email] of [
    [customer, "buyer@example.org"],
    [other, "other@example.org"],
  ] as const)
    await signUp(app, email, { jar });
  await signInAsAdmin(app, { jar: admin });
});
afterAll(() => app?.close());

const form = { customerName: "Brett Buyer", customerAddress: "1 Mill Lane, Leeds", customerCountry: "United Kingdom" };
async function placeOrder(jar: CookieJar, packageId: string, extra: Record<string, unknown> = {}) {
  const res = await app.request("/api/new-order", { method: "POST", json: { packageId, ...form, ...extra }, jar });
  expect(res.status).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const events = async (id: string) =>
  (
    await app.db.pool.query("select outcome, reason from payment_notices where order_id = $1 order by received_at", [
      id,
    ])
  ).rows;

/** A notification as PayPal would send it for this order; `register` marks it as really sent (the simulator's record). */
function ipn(orderId: string, overrides: Record<string, string> = {}, register = true) {
  const body = new URLSearchParams({
    payment_status: "Completed",
    receiver_email: "shop@example.org",
    business: "shop@example.org",
    mc_gross: basic.packagePrice.toFixed(2),
    mc_currency: "USD",
    txn_id: `T${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
    custom: orderId,
    item_number: "1",
    txn_type: "web_accept",
    ...overrides,
  }).toString();
  return { body, register };
}
async function notify(message: { body: string; register: boolean }) {
  if (message.register) await markGenuine(app.db.pool, message.body);
  expect((await postIpn(app, message.body)).status).toBe(200);
}
async function settled(orderId: string, count: number) {
  await expect.poll(async () => (await events(orderId)).length, { timeout: 10_000 }).toBe(count);
  return (await events(orderId)).at(-1)!;
}

describe("placing an order", () => {
  it("copies name, price and validity from the package, whatever the body says; UnPaid, Pending, MM/DD/YYYY", async () => {
    const id = await placeOrder(customer, premium._id, {
      packagePrice: 1,
      packageValidity: 9999,
      customerEmail: "someone@else.example",
      paymentStatus: "Paid",
    });
    const res = await app.request(`/api/order/${id}`, { jar: customer });
    expect(res.status).toBe(200);
    const order = await res.json();
    expect(order).toMatchObject({
      _id: id,
      packageName: "Premium",
      packagePrice: premium.packagePrice,
      packageValidity: premium.packageValidity,
      customerEmail: "buyer@example.org",
      ...form,
      paymentStatus: "UnPaid",
      orderStatus: "Pending",
      membershipValid: null,
    });
    expect(order.orderDate).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });

  it("answers 400 naming the field, 404 for an unknown package, 401 signed out", async () => {
    const bad = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: basic._id, customerName: "x" },
      jar: customer,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "customerAddress", error: "Address is required" });
    const unknown = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: "00000000-0000-4000-8000-000000000000", ...form },
      jar: customer,
    });
    expect(unknown.status).toBe(404);
    expect(
      (await app.request("/api/new-order", { method: "POST", json: { packageId: basic._id, ...form } })).status,
    ).toBe(401);
  });
});

describe("the spec's own payload for POST /api/new-order", () => {
  it("finds the package by packageName and trusts nothing else the body says about it or about the order", async () => {
    const res = await app.request("/api/new-order", {
      method: "POST",
      json: {
        packageName: "Basic",
        packagePrice: 0.01,
        packageValidity: 9999,
        customerEmail: "someone-else@example.org",
        ...form,
        paymentStatus: "Paid",
        orderStatus: "Delivered",
        orderDate: "01/01/2000",
      },
      jar: customer,
    });
    expect(res.status).toBe(201);
    const row = await orderRow(((await res.json()) as { insertedId: string }).insertedId);
    expect(row).toMatchObject({
      package_id: basic._id,
      package_name: "Basic",
      package_validity: basic.packageValidity,
      customer_email: "buyer@example.org",
      payment_status: "UnPaid",
      order_status: "Pending",
    });
    expect(Number(row.package_price)).toBe(basic.packagePrice);
    expect(row.order_date).not.toBe("01/01/2000");
  });

  it("answers 404 naming packageName for a name no package has, and 400 when neither id nor name is given", async () => {
    const unknown = await app.request("/api/new-order", {
      method: "POST",
      json: { packageName: "Platinum", ...form },
      jar: customer,
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ field: "packageName" });
    const none = await app.request("/api/new-order", { method: "POST", json: form, jar: customer });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ field: "packageId", error: "Choose a package" });
  });
});

describe("who sees which orders", () => {
  it("a customer lists only their own, newest first, paginated in SQL; an admin lists all", async () => {
    const a = await placeOrder(customer, basic._id);
    const b = await placeOrder(customer, basic._id);
    const theirs = await placeOrder(other, basic._id);
    const mine = (await (await app.request("/api/orders?limit=2&page=1", { jar: customer })).json()) as {
      _id: string;
      customerEmail: string;
    }[];
    expect(mine.map((o) => o._id)).toEqual([b, a]);
    const all = await app.request("/api/orders?limit=100", { jar: admin });
    expect(((await all.json()) as { _id: string }[]).map((o) => o._id)).toContain(theirs);
    const page2 = await app.request("/api/orders?limit=2&page=2", { jar: customer });
    expect(page2.headers.get("x-page")).toBe("2");
    expect(Number(page2.headers.get("x-total-count"))).toBeGreaterThanOrEqual(3);
    expect((await app.request("/api/orders")).status).toBe(401);
  });

  it("another customer's order is not found, through every call", async () => {
    const theirs = await placeOrder(other, basic._id);
    expect((await app.request(`/api/order/${theirs}`, { jar: customer })).status).toBe(404);
    expect(
      (
        await app.request(`/api/order-cancelled/${theirs}`, {
          method: "PUT",
          json: { paymentStatus: "Cancelled" },
          jar: customer,
        })
      ).status,
    ).toBe(404);
    expect((await orderRow(theirs)).payment_status).toBe("UnPaid");
    expect((await app.request(`/api/order/${theirs}`, { jar: admin })).status).toBe(200);
  });
});

describe("cancelling", () => {
  it("the owner cancels an unpaid order once; a paid one cannot be cancelled", async () => {
    const id = await placeOrder(customer, basic._id);
    const res = await app.request(`/api/order-cancelled/${id}`, {
      method: "PUT",
      json: { paymentStatus: "Cancelled" },
      jar: customer,
    });
    expect(await res.json()).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    expect((await orderRow(id)).payment_status).toBe("Cancelled");
    const again = await app.request(`/api/order-cancelled/${id}`, {
      method: "PUT",
      json: { paymentStatus: "Cancelled" },
      jar: customer,
    });
    expect(await again.json()).toMatchObject({ modifiedCount: 0 });

    const paid = await placeOrder(customer, basic._id);
    await app.request(`/api/order/${paid}`, { method: "PUT", json: { paymentStatus: "Paid" }, jar: admin });
    const refused = await app.request(`/api/order-cancelled/${paid}`, {
      method: "PUT",
      json: { paymentStatus: "Cancelled" },
      jar: customer,
    });
    expect(refused.status).toBe(409);
    expect((await orderRow(paid)).payment_status).toBe("Paid");
  });
});

describe("PayPal notifications (IPN)", () => {
  it("a verified Completed payment of the right amount to our account makes the order Paid with its membership", async () => {
    const newcomer = new CookieJar();
    await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email: "newcomer@example.org", password: "quiet-harbour-71", name: "", acceptTerms: true },
      jar: newcomer,
    });
    const id = await placeOrder(newcomer, basic._id);
    const message = ipn(id, { txn_id: "TXNOK000000000001" });
    const before = Date.now();
    await notify(message);
    expect(await settled(id, 1)).toEqual({ outcome: "applied", reason: expect.stringMatching(/order marked Paid$/) });
    const row = await orderRow(id);
    expect(row.payment_status).toBe("Paid");
    expect(row.txn_id).toBe("TXNOK000000000001");
    // Paid and still Pending: the payment waits for activation and uses none of its days yet.
    expect(row.membership_valid).toBeNull();
    await app.request(`/api/order-status/${id}`, { method: "PUT", json: { orderStatus: "Delivered" }, jar: admin });
    const valid = new Date((await orderRow(id)).membership_valid).getTime();
    expect(valid).toBeGreaterThanOrEqual(before + basic.packageValidity * DAY_MS - 1000);
    expect(valid).toBeLessThanOrEqual(Date.now() + basic.packageValidity * DAY_MS + 1000);

    // The same message again: a replay changes nothing.
    await notify(message);
    expect((await settled(id, 2)).outcome).toBe("duplicate");
    expect(new Date((await orderRow(id)).membership_valid).getTime()).toBe(valid);
  });

  it.each([
    ["INVALID (not sent by PayPal)", {}, false, "rejected"],
    [
      "a payment to another account",
      { receiver_email: "thief@example.org", business: "thief@example.org" },
      true,
      "refused",
    ],
    ["a wrong amount", { mc_gross: "0.01" }, true, "flagged"],
    ["a wrong currency", { mc_currency: "EUR" }, true, "flagged"],
    ["a status that is not Completed (noted on the unpaid order)", { payment_status: "Denied" }, true, "applied"],
  ] as const)("%s changes nothing", async (_name, overrides, register, outcome) => {
    const id = await placeOrder(customer, basic._id);
    await notify(ipn(id, overrides, register));
    expect((await settled(id, 1)).outcome).toBe(outcome);
    const row = await orderRow(id);
    expect(row.payment_status).toBe("UnPaid");
    expect(row.membership_valid).toBeNull();
  });

  it("a transaction id already used for another order is a replay", async () => {
    const first = await placeOrder(customer, basic._id);
    const second = await placeOrder(customer, basic._id);
    await notify(ipn(first, { txn_id: "TXNREUSED00000001" }));
    expect((await settled(first, 1)).outcome).toBe("applied");
    await notify(ipn(second, { txn_id: "TXNREUSED00000001" }));
    expect((await settled(second, 1)).outcome).toBe("duplicate");
    expect((await orderRow(second)).payment_status).toBe("UnPaid");
  });

  it("Pending is recorded and shown as pending; the order stays unpaid", async () => {
    const id = await placeOrder(customer, basic._id);
    await notify(ipn(id, { payment_status: "Pending", pending_reason: "echeck" }));
    expect(await settled(id, 1)).toEqual({ outcome: "applied", reason: expect.stringMatching(/pending \(echeck\)$/) });
    const row = await orderRow(id);
    expect(row.payment_status).toBe("UnPaid");
    expect(row.provider_status).toBe("Pending (echeck)");
  });

  it("a notification for an unknown order is recorded and ignored", async () => {
    await notify(ipn("00000000-0000-4000-8000-00000000dead"));
    await expect
      .poll(
        async () =>
          (await app.db.pool.query("select outcome from payment_notices where raw like '%00000000dead%'")).rows,
      )
      .toEqual([{ outcome: "ignored" }]);
  });

  it("a refund of the order's payment sets Refunded and ends its membership", async () => {
    const id = await placeOrder(customer, basic._id);
    await notify(ipn(id, { txn_id: "TXNTOREFUND000001" }));
    await settled(id, 1);
    await notify(
      ipn(id, {
        payment_status: "Refunded",
        txn_id: "TXNREFUND00000001",
        parent_txn_id: "TXNTOREFUND000001",
        mc_gross: `-${basic.packagePrice.toFixed(2)}`,
      }),
    );
    expect((await settled(id, 2)).outcome).toBe("applied");
    const row = await orderRow(id);
    expect(row.payment_status).toBe("Refunded");
    expect(new Date(row.membership_valid).getTime()).toBeLessThanOrEqual(Date.now());
    // A refund that names another payment is refused.
    const other = await placeOrder(customer, basic._id);
    await notify(ipn(other, { txn_id: "TXNOTHER000000001" }));
    await settled(other, 1);
    await notify(
      ipn(other, { payment_status: "Reversed", txn_id: "TXNREV00000000001", parent_txn_id: "TXNSOMETHINGELSE1" }),
    );
    expect((await settled(other, 2)).outcome).toBe("refused");
    expect((await orderRow(other)).payment_status).toBe("Paid");
  });

  it("a notification that could not be verified changes nothing, and is applied when verification works again", async () => {
    const id = await placeOrder(customer, basic._id);
    app.services.payments.bindSelf("http://127.0.0.1:1"); // the postback cannot reach PayPal
    try {
      await notify(ipn(id, { txn_id: "TXNLATE0000000001" }));
      expect((await settled(id, 1)).outcome).toBe("unverified");
      expect((await orderRow(id)).payment_status).toBe("UnPaid");
    } finally {
      app.services.payments.bindSelf(app.url);
    }
    expect(await app.services.payments.ipn.retry()).toEqual({ retried: 1 });
    expect(await events(id)).toEqual([{ outcome: "applied", reason: expect.stringMatching(/order marked Paid$/) }]);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    expect(await app.services.payments.ipn.retry()).toEqual({ retried: 0 });
  });

  it("the IPN listener answers 200 to anything, at once", async () => {
    const res = await app.request("/api/paypal/ipn", {
      method: "POST",
      body: "garbage",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(200);
  });
});

describe("membership", () => {
  it("lays a renewal after the time already paid for, from the moment each is paid and delivered", async () => {
    const fresh = new CookieJar();
    await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email: "stack@example.org", password: "quiet-harbour-71", name: "", acceptTerms: true },
      jar: fresh,
    });
    const first = await placeOrder(fresh, basic._id);
    const second = await placeOrder(fresh, premium._id);
    const r1 = await (
      await app.request(`/api/order/${first}`, { method: "PUT", json: { paymentStatus: "Paid" }, jar: admin })
    ).json();
    // Paid is not yet a membership (it takes Paid and Delivered): the payment was received, activation awaits.
    expect(r1).toMatchObject({ acknowledged: true, modifiedCount: 1, membershipValid: null });
    await app.request(`/api/order/${second}`, { method: "PUT", json: { paymentStatus: "Paid" }, jar: admin });
    const user = (await app.services.accounts.viewer(new Headers({ cookie: fresh.header() })))!;
    expect(await app.services.orders.membership(user)).toEqual({ state: "waiting", packageName: "Basic" });

    await app.request(`/api/order-status/${first}`, { method: "PUT", json: { orderStatus: "Delivered" }, jar: admin });
    await app.request(`/api/order-status/${second}`, { method: "PUT", json: { orderStatus: "Delivered" }, jar: admin });
    const a = await orderRow(first);
    const b = await orderRow(second);
    // The second window starts where the first ends: no overlap, no gap, each exactly its validity.
    expect(new Date(b.membership_starts).getTime()).toBe(new Date(a.membership_valid).getTime());
    expect(new Date(a.membership_valid).getTime() - new Date(a.membership_starts).getTime()).toBe(
      basic.packageValidity * DAY_MS,
    );
    expect(new Date(b.membership_valid).getTime() - new Date(b.membership_starts).getTime()).toBe(
      premium.packageValidity * DAY_MS,
    );
    expect(await app.services.orders.membership(user)).toMatchObject({ state: "active", packageName: "Premium" });
    expect(await app.services.orders.totalSpent(user.id)).toBe(basic.packagePrice + premium.packagePrice);
  });

  it("admin status calls: 401 signed out, 403 for a customer, 400 on a bad value", async () => {
    const id = await placeOrder(customer, basic._id);
    for (const [path, body] of [
      [`/api/order/${id}`, { paymentStatus: "Paid" }],
      [`/api/order-status/${id}`, { orderStatus: "Delivered" }],
    ] as const) {
      expect((await app.request(path, { method: "PUT", json: body })).status).toBe(401);
      expect((await app.request(path, { method: "PUT", json: body, jar: customer })).status).toBe(403);
    }
    const bad = await app.request(`/api/order/${id}`, { method: "PUT", json: { paymentStatus: "Free" }, jar: admin });
    expect(bad.status).toBe(400);
    expect(
      (
        await app.request("/api/order/00000000-0000-4000-8000-000000000000", {
          method: "PUT",
          json: { paymentStatus: "Paid" },
          jar: admin,
        })
      ).status,
    ).toBe(404);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
  });
});
