import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_DOWN } from "#server/services/payments/checkout.ts";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { CANCEL_DOWN } from "#server/services/payments/subscribe.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { customerViewer, demoPackage, noticesSettled, placeOrderFor } from "../support/paypal";

/**
 * Issue 34 part 4: automatic renewal on PayPal's Subscriptions API (decision 070). The plan made once per package and
 * terms (and once when two customers subscribe at the same moment), the subscription started for the customer's own
 * order, what the return reads, the rail each subscription is on, and cancelling by the customer or staff, each role
 * allowed or refused, PayPal down.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
const clock = new Date("2026-11-28T09:00:00Z");
let basic: { _id: string; packagePrice: number; packageValidity: number };
let premium: { _id: string; packagePrice: number; packageValidity: number };
const jars = { customer: new CookieJar(), other: new CookieJar(), editor: new CookieJar(), admin: new CookieJar() };
const people: Record<"customer" | "other", { id: string; email: string }> = {
  customer: { id: "", email: "renewer@example.org" },
  other: { id: "", email: "second-renewer@example.org" },
};

const q = async (text: string, values: unknown[] = []) => (await app.db.pool.query(text, values)).rows;
const renews = (packageId: string) =>
  q(`update content_entries set data = data || '{"autoRenew": true}'::jsonb where id = $1`, [packageId]);
const viewer = (who: "customer" | "other") => customerViewer(people[who].id, people[who].email);
const subscribe = () => app.services.payments.subscribe!;
const simulated = async (kind: string) =>
  (await q("select count(*)::int as n from paypal_simulator_rest_objects where kind = $1", [kind]))[0].n as number;

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-12" },
    { pages: true, now: () => clock },
  );
  sim = app.services.payments.simulator!;
  basic = (await demoPackage(app, "Basic")) as unknown as typeof basic;
  const pricing = (await (await app.request("/api/pricings")).json()) as (typeof basic & { packageName: string })[];
  premium = pricing.find((p) => p._id !== basic._id && p.packagePrice > 0 && p.packageValidity <= 365)!;
  await renews(basic._id);
  await renews(premium._id);
  await app.services.accounts.ensureFirstAdmin();
  jars.customer = await signUp(app, people.customer.email);
  jars.other = await signUp(app, people.other.email);
  jars.editor = await signUpStaff(app, app.db.pool, "renewal-editor@example.org", "Editor");
  jars.admin = await signInAsAdmin(app);
  for (const who of ["customer", "other"] as const)
    people[who].id = (await q('select id from "user" where email = $1', [people[who].email]))[0].id;
  await app.services.payments.registerWebhook();
}, 120_000);
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

/** A customer's order for a package, subscribed to and approved at PayPal, and its subscription row as recorded. */
async function subscribedOrder(who: "customer" | "other" = "customer", pkg = basic) {
  const orderId = await placeOrderFor(app, jars[who], pkg._id);
  const { subscriptionId } = await subscribe().start(viewer(who), orderId);
  await sim.outcomes.approveSubscription(subscriptionId);
  // Its webhooks (ACTIVATED, then the first PAYMENT.SALE.COMPLETED) record it and pay the order.
  await noticesSettled(app);
  const [row] = await q("select * from subscriptions where subscr_id = $1", [subscriptionId]);
  return { orderId, subscriptionId, row };
}

describe("plans on PayPal's Subscriptions API", () => {
  it("are made once per package and terms, with the package's period and price, and reused by the next subscriber", async () => {
    const plansBefore = await simulated("plan");
    const first = await placeOrderFor(app, jars.customer, basic._id);
    const second = await placeOrderFor(app, jars.other, basic._id);
    const a = await subscribe().start(viewer("customer"), first);
    const b = await subscribe().start(viewer("other"), second);
    expect(a.subscriptionId).not.toBe(b.subscriptionId);
    expect(await simulated("plan")).toBe(plansBefore + 1);
    const rows = await q("select * from payment_plans where package_id = $1", [basic._id]);
    expect(rows).toEqual([
      expect.objectContaining({
        provider: "paypal",
        interval_unit: "DAY",
        interval_count: basic.packageValidity,
        currency: "USD",
        amount: basic.packagePrice.toFixed(2),
        first_payment: null,
      }),
    ]);
    const plan = await app.services.payments.paypal!.plans.get(rows[0].plan_id);
    expect(plan.billing_cycles).toEqual([
      expect.objectContaining({
        tenure_type: "REGULAR",
        total_cycles: 0,
        frequency: { interval_unit: "DAY", interval_count: basic.packageValidity },
        pricing_scheme: { fixed_price: { currency_code: "USD", value: basic.packagePrice.toFixed(2) } },
      }),
    ]);
    for (const [orderId, made] of [
      [first, a],
      [second, b],
    ] as const) {
      const s = await app.services.payments.paypal!.subscriptions.get(made.subscriptionId);
      expect(s).toMatchObject({ status: "APPROVAL_PENDING", plan_id: rows[0].plan_id, custom_id: orderId });
      expect(made.approveUrl).toContain(`/paypal-simulator/webapps/billing/subscriptions?`);
      expect(made.approveUrl).toContain(`subscription_id=${made.subscriptionId}`);
    }
    const create = sim.received().filter((c) => c.path === "/v1/billing/subscriptions");
    expect(create.at(-1)?.requestId).toBe(`subscribe-${second}-2026-11-28`);
    // A double click starts the same subscription.
    expect((await subscribe().start(viewer("customer"), first)).subscriptionId).toBe(a.subscriptionId);
  });

  it("two customers subscribing at the same moment make one plan", async () => {
    const plansBefore = await simulated("plan");
    const productsBefore = await simulated("product");
    const orders = [
      await placeOrderFor(app, jars.customer, premium._id),
      await placeOrderFor(app, jars.other, premium._id),
      await placeOrderFor(app, jars.customer, premium._id),
    ];
    const started = await Promise.all(
      orders.map((id, i) => subscribe().start(viewer(i === 1 ? "other" : "customer"), id)),
    );
    expect(new Set(started.map((s) => s.subscriptionId)).size).toBe(3);
    expect(await simulated("plan")).toBe(plansBefore + 1);
    expect(await simulated("product")).toBe(productsBefore + 1);
    expect(await q("select id from payment_plans where package_id = $1", [premium._id])).toHaveLength(1);
  });

  it("a first-payment discount is one trial cycle at its price, then the regular price: another plan", async () => {
    const terms = {
      period: { unit: "DAY" as const, count: basic.packageValidity },
      currency: "USD" as const,
      amount: basic.packagePrice.toFixed(2),
      firstPayment: "1.50",
    };
    const row = await app.services.payments.plans!.planFor({ id: basic._id, name: "Basic" }, terms);
    expect(row.firstPayment).toBe("1.50");
    expect(await q("select id from payment_plans where package_id = $1", [basic._id])).toHaveLength(2);
    const plan = await app.services.payments.paypal!.plans.get(row.planId);
    expect(
      plan.billing_cycles?.map((c) => [c.tenure_type, c.sequence, c.total_cycles, c.pricing_scheme?.fixed_price.value]),
    ).toEqual([
      ["TRIAL", 1, 1, "1.50"],
      ["REGULAR", 2, 0, basic.packagePrice.toFixed(2)],
    ]);
    expect((await app.services.payments.plans!.planFor({ id: basic._id, name: "Basic" }, terms)).id).toBe(row.id);
  });

  it("a package that does not renew automatically is refused, and a paid order needs no subscription", async () => {
    const pricing = (await (await app.request("/api/pricings")).json()) as { _id: string; packagePrice: number }[];
    const plain = pricing.find((p) => p._id !== basic._id && p._id !== premium._id && p.packagePrice > 0)!;
    const id = await placeOrderFor(app, jars.customer, plain._id);
    expect(await subscribe().offer(viewer("customer"), id)).toBeNull();
    await expect(subscribe().start(viewer("customer"), id)).rejects.toMatchObject({ status: 409 });
    // Another customer's order is not theirs to subscribe with.
    const mine = await placeOrderFor(app, jars.customer, basic._id);
    await expect(subscribe().start(viewer("other"), mine)).rejects.toMatchObject({ status: 404 });
  });

  it("PayPal down: the pay screen's sentence, and nothing is kept", async () => {
    const id = await placeOrderFor(app, jars.customer, basic._id);
    sim.fault({ path: "/v1/billing/subscriptions", status: 503, times: 3 });
    await expect(subscribe().start(viewer("customer"), id)).rejects.toMatchObject({
      status: 503,
      message: PROVIDER_DOWN,
    });
    expect(await q("select id from payment_checkouts where order_id = $1", [id])).toEqual([]);
    // The pay screen says it in the page, and the order is unchanged.
    sim.fault({ path: "/v1/billing/subscriptions", status: 503, times: 3 });
    const res = await app.request(`/pay-now/${id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "subscribe" }).toString(),
      jar: jars.customer,
    });
    const text = await res.clone().text();
    expect(res.status, text.slice(0, 3000)).toBe(503);
    expect(await res.text()).toContain("PayPal is not answering right now");
    expect((await q("select payment_status from orders where id = $1", [id]))[0].payment_status).toBe("UnPaid");
  });
});

describe("the pay screen's Subscribe button and the simulator's page", () => {
  const post = (path: string, jar: CookieJar | undefined, fields: Record<string, string>) =>
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      jar,
      redirect: "manual",
    });

  it("posts to our server, which sends the buyer to approve; no Payments Standard form is left", async () => {
    const id = await placeOrderFor(app, jars.customer, basic._id);
    const page = (await (await app.request(`/pay-now/${id}`, { jar: jars.customer })).text()).replaceAll(
      "<!-- -->",
      "",
    );
    expect(page).toContain(`Subscribe with PayPal: renews every ${basic.packageValidity} days`);
    expect(page).not.toContain("_xclick");
    expect(page).not.toMatch(/action="https:\/\/[^"]*paypal/);
    const res = await post(`/pay-now/${id}`, jars.customer, { intent: "subscribe" });
    expect(res.status).toBe(303);
    const to = new URL(res.headers.get("location")!, app.config.publicUrl);
    expect(to.pathname).toBe("/paypal-simulator/webapps/billing/subscriptions");
    const subscriptionId = to.searchParams.get("subscription_id")!;
    expect((await app.services.payments.paypal!.subscriptions.get(subscriptionId)).custom_id).toBe(id);
    // An unknown button is refused with a sentence.
    expect((await post(`/pay-now/${id}`, jars.customer, { intent: "both" })).status).toBe(400);

    // Only the order's customer may approve it on the simulator's page; they are sent back as PayPal sends them.
    expect((await app.request(`${to.pathname}${to.search}`, { jar: jars.other })).status).toBe(403);
    expect((await post(to.pathname, jars.other, { subscription_id: subscriptionId, intent: "approve" })).status).toBe(
      403,
    );
    const approved = await post(to.pathname, jars.customer, { subscription_id: subscriptionId, intent: "approve" });
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toMatch(
      new RegExp(`^/received-payment/${id}\\?subscription_id=${subscriptionId}&`),
    );
    await noticesSettled(app);
    const back = (
      await (await app.request(approved.headers.get("location")!, { jar: jars.customer })).text()
    ).replaceAll("<!-- -->", "");
    expect(back).toContain("Your membership now renews automatically");
  });
});

describe("the subscription's return and rail", () => {
  it("the return reads the subscription when it is this order's; it is recorded on the Subscriptions API", async () => {
    const { orderId, subscriptionId, row } = await subscribedOrder();
    expect(await subscribe().returned(viewer("customer"), orderId, subscriptionId)).toEqual({ status: "active" });
    const otherOrder = await placeOrderFor(app, jars.customer, basic._id);
    expect(await subscribe().returned(viewer("customer"), otherOrder, subscriptionId)).toBeNull();
    expect(row).toMatchObject({ rail: "api", status: "active", order_id: orderId });
    expect((await q("select payment_status from orders where id = $1", [orderId]))[0].payment_status).toBe("Paid");
  });

  it("a subscription PayPal's older Subscribe button made stays on Payments Standard", async () => {
    const orderId = await placeOrderFor(app, jars.customer, basic._id);
    const [order] = await q(
      'select id, user_id as "userId", number, customer_name as "customerName", customer_email as "customerEmail", package_name as "packageName", package_price::float as "packagePrice" from orders where id = $1',
      [orderId],
    );
    await app.services.subscriptions.note("signup", "I-STANDARD0001", order, PAYPAL_ACTOR, "test-standard");
    expect((await q("select rail from subscriptions where subscr_id = 'I-STANDARD0001'"))[0].rail).toBe("standard");
  });
});

describe("cancelling a subscription", () => {
  const cancel = (id: string, jar?: CookieJar) =>
    app.request(`/api/subscriptions/${id}/cancel`, { method: "POST", json: {}, jar });
  const atPayPal = async (id: string) => (await app.services.payments.paypal!.subscriptions.get(id)).status;
  const cancelledMails = async (id: string) =>
    (await q("select count(*)::int as n from pgboss.job where data->>'key' = $1", [`subscription:${id}:cancelled`]))[0]
      .n as number;

  it("the customer cancels their own: at PayPal, then here; the mail goes once; no renewal after", async () => {
    const { subscriptionId, row } = await subscribedOrder();
    // Nobody else may: a visitor, another customer (not found), staff whose role does not open customers.
    expect((await cancel(row.id)).status).toBe(401);
    expect((await cancel(row.id, jars.other)).status).toBe(404);
    expect((await cancel(row.id, jars.editor)).status).toBe(403);
    expect(await atPayPal(subscriptionId)).toBe("ACTIVE");
    const res = await cancel(row.id, jars.customer);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ modified: true });
    expect(await atPayPal(subscriptionId)).toBe("CANCELLED");
    // PayPal was asked with the subscription's own request id (a retry cancels once).
    const asked = sim.received().filter((c) => c.path === `/v1/billing/subscriptions/${subscriptionId}/cancel`);
    expect(asked.map((c) => c.requestId)).toEqual([`cancel-${subscriptionId}`]);
    const [after] = await q("select status, cancelled_by from subscriptions where id = $1", [row.id]);
    expect(after).toEqual({ status: "cancelled", cancelled_by: people.customer.email });
    await noticesSettled(app);
    expect(await cancelledMails(row.id)).toBe(1);
    // Again: nothing more; and PayPal renews a cancelled subscription no more.
    expect(await (await cancel(row.id, jars.customer)).json()).toMatchObject({ modified: false });
    await expect(sim.outcomes.renewSubscription(subscriptionId)).rejects.toThrow();
    expect(await cancelledMails(row.id)).toBe(1);
  });

  it("staff cancel any customer's at PayPal; a Payments Standard one is only marked here", async () => {
    const { subscriptionId, row } = await subscribedOrder("other");
    const res = await cancel(row.id, jars.admin);
    expect(res.status).toBe(200);
    expect(await atPayPal(subscriptionId)).toBe("CANCELLED");
    expect((await q("select status, cancelled_by from subscriptions where id = $1", [row.id]))[0]).toEqual({
      status: "cancelled",
      cancelled_by: "owner@example.org",
    });
    const [standard] = await q("select id from subscriptions where subscr_id = 'I-STANDARD0001'");
    // Its customer is told to cancel in PayPal; staff mark it cancelled here (and stop it in PayPal themselves).
    const own = await cancel(standard.id, jars.customer);
    expect(own.status).toBe(409);
    expect(await own.text()).toContain("cancel it in your PayPal account");
    expect((await cancel(standard.id, jars.admin)).status).toBe(200);
    expect((await q("select status from subscriptions where id = $1", [standard.id]))[0].status).toBe("cancelled");
  });

  it("PayPal down: a clear message, nothing recorded, and the customer can try again", async () => {
    const { subscriptionId, row } = await subscribedOrder();
    sim.fault({ path: `/v1/billing/subscriptions/${subscriptionId}/cancel`, status: 503, times: 3 });
    const res = await cancel(row.id, jars.customer);
    expect(res.status).toBe(504);
    expect(await res.text()).toContain(CANCEL_DOWN);
    expect((await q("select status from subscriptions where id = $1", [row.id]))[0].status).toBe("active");
    expect(await atPayPal(subscriptionId)).toBe("ACTIVE");
    expect(await cancelledMails(row.id)).toBe(0);
    expect((await cancel(row.id, jars.customer)).status).toBe(200);
    expect(await atPayPal(subscriptionId)).toBe("CANCELLED");
  });

  it("the customer's and the staff's cancel forms say PayPal is down in the form, and change nothing", async () => {
    const { subscriptionId, row } = await subscribedOrder();
    const form = (path: string, jar: CookieJar, fields: Record<string, string>) =>
      app.request(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
        jar,
      });
    for (const [path, jar, fields] of [
      ["/account/subscriptions", jars.customer, { _form: `cancel-${row.id}`, subscriptionId: row.id }],
      [`/subscriptions/${row.id}/cancel`, jars.admin, { _form: "cancel-subscription" }],
    ] as const) {
      sim.fault({ path: `/v1/billing/subscriptions/${subscriptionId}/cancel`, status: 503, times: 3 });
      const res = await form(path, jar, fields);
      expect(res.status).toBe(504);
      expect((await res.text()).replaceAll("&#x27;", "'")).toContain(CANCEL_DOWN);
      expect((await q("select status from subscriptions where id = $1", [row.id]))[0].status).toBe("active");
    }
    // Another customer's subscription is not theirs to cancel from their page.
    const other = await form("/account/subscriptions", jars.other, {
      _form: `cancel-${row.id}`,
      subscriptionId: row.id,
    });
    expect(other.status).toBe(404);
    const res = await form("/account/subscriptions", jars.customer, {
      _form: `cancel-${row.id}`,
      subscriptionId: row.id,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Your automatic renewal is cancelled.");
    expect(await atPayPal(subscriptionId)).toBe("CANCELLED");
  });

  it("cancelled in PayPal first (its notice not here yet): our cancel records it all the same", async () => {
    const { subscriptionId, row } = await subscribedOrder();
    sim.outcomes.holdWebhooks(true);
    await sim.outcomes.setSubscriptionStatus(subscriptionId, "CANCELLED");
    const res = await cancel(row.id, jars.customer);
    expect(res.status).toBe(200);
    expect((await q("select status from subscriptions where id = $1", [row.id]))[0].status).toBe("cancelled");
    // PayPal's CANCELLED webhook then arrives: nothing more, and one cancellation mail.
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
    expect(await cancelledMails(row.id)).toBe(1);
  });

  it("PayPal suspends after the plan's three failed payments: renewals stop here too, and PayPal takes no more", async () => {
    const { subscriptionId, row } = await subscribedOrder();
    for (let i = 0; i < 3; i++) await sim.outcomes.failSubscriptionPayment(subscriptionId);
    await noticesSettled(app);
    expect(await atPayPal(subscriptionId)).toBe("SUSPENDED");
    expect((await q("select status from subscriptions where id = $1", [row.id]))[0].status).toBe("cancelled");
    await expect(sim.outcomes.renewSubscription(subscriptionId)).rejects.toThrow();
    expect(await cancelledMails(row.id)).toBe(1);
  });
});

describe("refunds of payments on PayPal's Subscriptions API", () => {
  it("a renewal is refunded through PayPal like any payment: its sale refunded, its own order Refunded", async () => {
    const { orderId, subscriptionId } = await subscribedOrder();
    await sim.outcomes.renewSubscription(subscriptionId);
    await noticesSettled(app);
    const [renewal] = await q("select id, txn_id, payment_status from orders where subscr_id = $1", [subscriptionId]);
    expect(renewal).toMatchObject({ payment_status: "Paid" });
    const refunds = app.services.payments.refunds!;
    // Both payments are on the REST rail: a refund button, not "refund in PayPal's dashboard".
    expect(await refunds.panel(renewal.id)).toMatchObject({ rail: "checkout", state: "open" });
    expect(await refunds.panel(orderId)).toMatchObject({ rail: "checkout" });
    const res = await app.request(`/api/order-refund/${renewal.id}`, {
      method: "POST",
      json: { amount: "", reason: "Renewed by mistake", note: "", seen: 0 },
      jar: jars.admin,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    await noticesSettled(app);
    const [after] = await q("select payment_status from orders where id = $1", [renewal.id]);
    expect(after).toEqual({ payment_status: "Refunded" });
    const [first] = await q("select payment_status from orders where id = $1", [orderId]);
    expect(first).toEqual({ payment_status: "Paid" });
    const sale = (await app.services.payments.paypal!.captures.get(renewal.txn_id)) as { status: string };
    expect(sale.status).toBe("REFUNDED");
  });
});
