import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPayPalClient,
  PayPalRefusedError,
  PayPalUnavailableError,
  type PayPalClient,
} from "#server/services/payments/paypal/client.ts";
import { approvalLink, type CreateOrder, type WebhookEvent } from "#server/services/payments/paypal/shapes.ts";
import {
  SIMULATOR_CREDENTIALS,
  SIMULATOR_REST_PREFIX,
  type PayPalRestSimulator,
} from "#server/services/payments/paypal/simulator.ts";
import { createPayPalProvider } from "#server/services/payments/paypal/provider.ts";
import { startTestApp, type TestApp } from "../support/app";
import { until } from "../support/wait";

/**
 * Issue 34 (parts 6 and "Faults"): PayPal's REST client against the simulator's REST API over real HTTP on loopback,
 * the simulator's state in the test's own database, its webhooks received by a real endpoint of the app.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
let paypal: PayPalClient;
let webhookId: string;
let clock = new Date("2026-11-27T12:00:00Z");
const received: { headers: Record<string, string | undefined>; body: string }[] = [];
const WEBHOOK_PATH = "/test/paypal-webhook";

/** The app's stand-in webhook endpoint: keeps what PayPal (the simulator) sent, answers 200. */
const webhookEndpoint: RequestHandler = (req, res, next) => {
  if (req.path !== WEBHOOK_PATH || req.method !== "POST") return next();
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (body += chunk));
  req.on("end", () => {
    received.push({ headers: req.headers as Record<string, string | undefined>, body });
    res.status(200).end();
  });
};

const client = (options: Partial<Parameters<typeof createPayPalClient>[0]> = {}) =>
  createPayPalClient({
    baseUrl: () => app.url + SIMULATOR_REST_PREFIX,
    ...SIMULATOR_CREDENTIALS,
    timeoutMs: 2000,
    backoffMs: () => 5,
    now: () => clock.getTime(),
    ...options,
  });

const orderOf = (value: string, currency = "USD"): CreateOrder => ({
  intent: "CAPTURE",
  purchase_units: [{ invoice_id: "A-1001", custom_id: randomUUID(), amount: { currency_code: currency, value } }],
  payment_source: {
    paypal: {
      experience_context: {
        return_url: "http://localhost:3000/received-payment/1",
        cancel_url: "http://localhost:3000/order-cancelled/1",
        shipping_preference: "NO_SHIPPING",
        user_action: "PAY_NOW",
      },
    },
  },
});

/** An order created, approved by the buyer (with the outcome chosen) and captured: its capture. */
async function paidCapture(value = "10.00", result: "completed" | "pending" | "denied" = "completed") {
  const order = await paypal.orders.create(orderOf(value));
  await sim.outcomes.approveOrder(order.id, { result });
  const captured = await paypal.orders.capture(order.id);
  return captured.purchase_units![0]!.payments!.captures![0]!;
}

const refusal = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayPalRefusedError);
  return error as PayPalRefusedError;
};

const calls = (path: string) => sim.received().filter((c) => c.path === path && c.method === "POST");

async function countObjects(kind: string) {
  const { rows } = await app.db.pool.query(
    "select count(*)::int as n from paypal_simulator_rest_objects where kind = $1",
    [kind],
  );
  return rows[0].n as number;
}

beforeAll(async () => {
  app = await startTestApp({}, { now: () => clock, beforePages: webhookEndpoint });
  sim = app.services.payments.simulator!;
  paypal = client();
  // The app's webhook, registered as the app will at its start: every event type the tests look at.
  const hook = await paypal.webhooks.create(`${app.config.publicUrl.replace(/\/$/, "")}${WEBHOOK_PATH}`, [
    "CHECKOUT.ORDER.APPROVED",
    "PAYMENT.CAPTURE.COMPLETED",
    "PAYMENT.CAPTURE.REFUNDED",
    "PAYMENT.CAPTURE.REVERSED",
    "BILLING.SUBSCRIPTION.ACTIVATED",
    "PAYMENT.SALE.COMPLETED",
  ]);
  webhookId = hook.id;
});
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

describe("PayPal's REST client against the simulator", () => {
  it("is wired in simulator mode: the services' client reaches the simulator on this server", async () => {
    const product = await app.services.payments.paypal!.products.create({ name: "Gold membership", type: "SERVICE" });
    expect(product.id).toMatch(/^PROD-/);
  });

  it("creates an order and captures it once: a second capture with the same PayPal-Request-Id is the same capture", async () => {
    const order = await paypal.orders.create(orderOf("25.00"));
    expect(order.status).toBe("PAYER_ACTION_REQUIRED");
    expect(approvalLink(order.links)).toBe(
      `${app.config.publicUrl.replace(/\/$/, "")}/paypal-simulator/checkoutnow?token=${order.id}`,
    );

    const early = await refusal(paypal.orders.capture(order.id));
    expect(early.status).toBe(422);
    expect(early.issues).toEqual(["ORDER_NOT_APPROVED"]);

    const back = await sim.outcomes.approveOrder(order.id);
    expect(back).toBe(`http://localhost:3000/received-payment/1?token=${order.id}&PayerID=SIMULATEDPAYER`);
    expect((await paypal.orders.get(order.id)).status).toBe("APPROVED");

    const requestId = randomUUID();
    const first = await paypal.orders.capture(order.id, requestId);
    const again = await paypal.orders.capture(order.id, requestId);
    expect(first.status).toBe("COMPLETED");
    const capture = first.purchase_units![0]!.payments!.captures![0]!;
    expect(capture).toMatchObject({
      status: "COMPLETED",
      amount: { currency_code: "USD", value: "25.00" },
      invoice_id: "A-1001",
    });
    expect(again.purchase_units![0]!.payments!.captures!.map((c) => c.id)).toEqual([capture.id]);
    expect((await paypal.orders.get(order.id)).purchase_units![0]!.payments!.captures).toHaveLength(1);

    const other = await refusal(paypal.orders.capture(order.id, randomUUID()));
    expect(other.issues).toEqual(["ORDER_ALREADY_CAPTURED"]);
  });

  it("captures once when two instances capture at the same moment, with the same request id or not", async () => {
    for (const sameId of [true, false]) {
      const order = await paypal.orders.create(orderOf("11.00"));
      await sim.outcomes.approveOrder(order.id);
      const ids = sameId ? [order.id + "-1", order.id + "-1"] : [order.id + "-1", order.id + "-2"];
      const results = await Promise.allSettled(ids.map((id) => paypal.orders.capture(order.id, id)));
      const captured = (await paypal.orders.get(order.id)).purchase_units![0]!.payments!.captures!;
      expect(captured).toHaveLength(1);
      const fulfilled = results.filter((r) => r.status === "fulfilled");
      if (sameId) expect(fulfilled).toHaveLength(2);
      else {
        expect(fulfilled).toHaveLength(1);
        const refused = results.find((r) => r.status === "rejected")!.reason as PayPalRefusedError;
        expect(refused.issues).toEqual(["ORDER_ALREADY_CAPTURED"]);
      }
    }
  });

  it("pays by card as a guest, and a pending or denied capture says so", async () => {
    const order = await paypal.orders.create(orderOf("9.00"));
    await sim.outcomes.approveOrder(order.id, { payer: "card" });
    expect((await paypal.orders.get(order.id)).payment_source).toHaveProperty("card");
    expect((await paypal.orders.capture(order.id)).purchase_units![0]!.payments!.captures![0]!.status).toBe(
      "COMPLETED",
    );

    const pending = await paidCapture("9.00", "pending");
    expect(pending).toMatchObject({ status: "PENDING", status_details: { reason: "PENDING_REVIEW" } });
    await sim.outcomes.settleCapture(pending.id, "COMPLETED");
    expect((await paypal.captures.get(pending.id)).status).toBe("COMPLETED");
    expect((await paidCapture("9.00", "denied")).status).toBe("DECLINED");
  });

  it("refunds a part, then the rest; the same refund's request id refunds once; a third is refused in PayPal's words", async () => {
    const capture = await paidCapture("10.00");
    const requestId = randomUUID();
    const part = await paypal.captures.refund(
      capture.id,
      { amount: { currency_code: "USD", value: "4.00" }, noteToPayer: "Part of your payment" },
      requestId,
    );
    const retried = await paypal.captures.refund(
      capture.id,
      { amount: { currency_code: "USD", value: "4.00" } },
      requestId,
    );
    expect(part).toMatchObject({ status: "COMPLETED", amount: { value: "4.00", currency_code: "USD" } });
    expect(retried.id).toBe(part.id);
    expect((await paypal.captures.get(capture.id)).status).toBe("PARTIALLY_REFUNDED");

    const tooMuch = await refusal(
      paypal.captures.refund(capture.id, { amount: { currency_code: "USD", value: "6.01" } }),
    );
    expect(tooMuch.issues).toEqual(["REFUND_AMOUNT_EXCEEDED"]);

    const rest = await paypal.captures.refund(capture.id, {});
    expect(rest.amount).toEqual({ currency_code: "USD", value: "6.00" });
    expect((await paypal.captures.get(capture.id)).status).toBe("REFUNDED");

    const third = await refusal(paypal.captures.refund(capture.id, {}));
    expect(third).toMatchObject({ status: 422, paypalName: "UNPROCESSABLE_ENTITY" });
    expect(third.issues).toEqual(["CAPTURE_FULLY_REFUNDED"]);
    expect(third.refusal).toBe("The capture has already been fully refunded");
  });

  it("refuses a refund more than 180 days after the capture, with PayPal's text; at 179 days it refunds", async () => {
    const old = await paidCapture("12.00");
    const recent = await paidCapture("12.00");
    const start = clock;
    try {
      clock = new Date(start.getTime() + 179 * 86_400_000);
      expect((await paypal.captures.refund(recent.id, {})).status).toBe("COMPLETED");
      clock = new Date(start.getTime() + 181 * 86_400_000);
      const late = await refusal(paypal.captures.refund(old.id, {}));
      expect(late.status).toBe(422);
      expect(late.paypalName).toBe("UNPROCESSABLE_ENTITY");
      expect(late.issues).toEqual(["REFUND_TIME_LIMIT_EXCEEDED"]);
      expect(late.refusal).toBe("You are over the time limit to perform a refund on this capture.");
      expect((await paypal.captures.get(old.id)).status).toBe("COMPLETED");
    } finally {
      clock = start;
    }
  });

  it("asks for one access token for many calls, and a new one once it expired", async () => {
    const fresh = client();
    const before = calls("/v1/oauth2/token").length;
    await Promise.all([fresh.orders.create(orderOf("1.00")), fresh.orders.create(orderOf("2.00"))]);
    for (let i = 0; i < 5; i++) await fresh.orders.create(orderOf("3.00"));
    await fresh.webhooks.list();
    expect(calls("/v1/oauth2/token").length - before).toBe(1);

    const start = clock;
    try {
      clock = new Date(start.getTime() + 9 * 3_600_000); // PayPal's tokens last 32,400 s
      await fresh.webhooks.list();
      expect(calls("/v1/oauth2/token").length - before).toBe(2);
    } finally {
      clock = start;
    }
  });

  it("retries a 503, then a 429, with the same PayPal-Request-Id: one order is made", async () => {
    const orders = await countObjects("order");
    const before = calls("/v2/checkout/orders").length;
    sim.fault({ path: "/v2/checkout/orders", status: 503 });
    sim.fault({ path: "/v2/checkout/orders", status: 429 });
    const order = await paypal.orders.create(orderOf("5.00"));
    const attempts = calls("/v2/checkout/orders").slice(before);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.requestId)).size).toBe(1);
    expect(attempts[0]!.requestId).toBeTruthy();
    expect(await countObjects("order")).toBe(orders + 1);
    expect((await paypal.orders.get(order.id)).status).toBe("PAYER_ACTION_REQUIRED");
  });

  it("gives up after its attempts when PayPal keeps failing, typed as unavailable", async () => {
    sim.fault({ path: "/v1/notifications/webhooks", status: 500, times: 3 });
    const error = await paypal.webhooks.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalUnavailableError);
    expect(error).toMatchObject({ attempts: 3, lastStatus: 500 });
  });

  it("times out each attempt; a capture that timed out every time is made once when PayPal catches up", async () => {
    const quick = client({ timeoutMs: 150 });
    const order = await quick.orders.create(orderOf("7.00"));
    await sim.outcomes.approveOrder(order.id);
    const requestId = randomUUID();
    sim.fault({ path: `/v2/checkout/orders/${order.id}/capture`, delayMs: 400, times: 3 });
    const started = Date.now();
    const error = await quick.orders.capture(order.id, requestId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayPalUnavailableError);
    expect((error as Error).message).toBe("PayPal is unavailable: no answer within 150 ms after 3 attempts.");
    expect(Date.now() - started).toBeLessThan(1500);
    // The three slow attempts each reach the simulator later: one capture, and the same request id gets it back.
    await until("PayPal caught up", async () => (await quick.orders.get(order.id)).status === "COMPLETED");
    const captured = await quick.orders.capture(order.id, requestId);
    expect(captured.purchase_units![0]!.payments!.captures).toHaveLength(1);
    const attempts = sim.received().filter((c) => c.path === `/v2/checkout/orders/${order.id}/capture`);
    expect(new Set(attempts.map((a) => a.requestId))).toEqual(new Set([requestId]));
  });

  it("types a refusal: an unknown order, bad credentials, a malformed body, a missing token", async () => {
    const missing = await refusal(paypal.orders.get("NOSUCHORDER00000"));
    expect(missing).toMatchObject({ status: 404, paypalName: "RESOURCE_NOT_FOUND", issues: ["INVALID_RESOURCE_ID"] });

    const wrong = await refusal(client({ clientSecret: "not-the-secret" }).orders.get("X"));
    expect(wrong).toMatchObject({ status: 401, paypalName: "invalid_client", refusal: "Client Authentication failed" });

    const bad = await refusal(
      paypal.orders.create({
        intent: "CAPTURE",
        purchase_units: [{ amount: { currency_code: "USD", value: "ten dollars" } }],
      }),
    );
    expect(bad).toMatchObject({ status: 400, paypalName: "INVALID_REQUEST" });
    expect(bad.details[0]).toMatchObject({ field: "/purchase_units/0/amount/value", issue: "INVALID_PARAMETER_VALUE" });

    const anonymous = await fetch(`${app.url}${SIMULATOR_REST_PREFIX}/v2/checkout/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(orderOf("1.00")),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: "invalid_token" });
  });
});

describe("Subscriptions through the client", () => {
  it("makes a product and a plan with a trial, subscribes, renews, and cancels once", async () => {
    const product = await paypal.products.create({ name: "Gold membership", type: "SERVICE", description: "A year" });
    const plan = await paypal.plans.create({
      product_id: product.id,
      name: "Gold membership, yearly",
      billing_cycles: [
        {
          frequency: { interval_unit: "MONTH", interval_count: 1 },
          tenure_type: "TRIAL",
          sequence: 1,
          total_cycles: 1,
          pricing_scheme: { fixed_price: { currency_code: "USD", value: "5.00" } },
        },
        {
          frequency: { interval_unit: "MONTH", interval_count: 1 },
          tenure_type: "REGULAR",
          sequence: 2,
          total_cycles: 0,
          pricing_scheme: { fixed_price: { currency_code: "USD", value: "20.00" } },
        },
      ],
      payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 1 },
    });
    expect(plan).toMatchObject({ product_id: product.id, status: "ACTIVE" });
    expect(plan.id).toMatch(/^P-/);

    const orderId = randomUUID();
    const created = await paypal.subscriptions.create({
      plan_id: plan.id,
      custom_id: orderId,
      application_context: {
        return_url: "http://localhost:3000/received-payment/2",
        cancel_url: "http://localhost:3000/order-cancelled/2",
        shipping_preference: "NO_SHIPPING",
        user_action: "SUBSCRIBE_NOW",
      },
    });
    expect(created.status).toBe("APPROVAL_PENDING");
    expect(approvalLink(created.links)).toContain(`/paypal-simulator/webapps/billing/subscriptions?ba_token=`);

    await sim.outcomes.approveSubscription(created.id);
    const active = await paypal.subscriptions.get(created.id);
    expect(active).toMatchObject({ status: "ACTIVE", custom_id: orderId });
    expect(active.billing_info?.last_payment?.amount).toEqual({ currency_code: "USD", value: "5.00" });
    expect(active.billing_info?.next_billing_time).toBe("2026-12-27T12:00:00Z");

    const saleId = await sim.outcomes.renewSubscription(created.id);
    const renewed = await paypal.subscriptions.get(created.id);
    expect(renewed.billing_info?.last_payment?.amount).toEqual({ currency_code: "USD", value: "20.00" });
    expect(renewed.billing_info?.cycle_executions).toEqual([
      expect.objectContaining({ tenure_type: "TRIAL", cycles_completed: 1 }),
      expect.objectContaining({ tenure_type: "REGULAR", cycles_completed: 1 }),
    ]);
    // A renewal's payment is refunded like any payment.
    expect((await paypal.captures.refund(saleId!, {})).amount).toEqual({ currency_code: "USD", value: "20.00" });

    await sim.outcomes.failSubscriptionPayment(created.id);
    expect((await paypal.subscriptions.get(created.id)).billing_info?.failed_payments_count).toBe(1);

    await expect(
      paypal.subscriptions.cancel(created.id, "The customer cancelled on the site"),
    ).resolves.toBeUndefined();
    const cancelled = await paypal.subscriptions.get(created.id);
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.billing_info?.next_billing_time).toBeUndefined();
    const twice = await refusal(paypal.subscriptions.cancel(created.id, "again"));
    expect(twice.issues).toEqual(["SUBSCRIPTION_STATUS_INVALID"]);
    await expect(sim.outcomes.renewSubscription(created.id)).rejects.toThrow("Only an active subscription renews.");
  });

  it("plays what PayPal does later: suspended after failures, then the end of term; an ended one cannot be cancelled", async () => {
    const product = await paypal.products.create({ name: "Term membership", type: "SERVICE" });
    const plan = await paypal.plans.create({
      product_id: product.id,
      name: "Three months",
      billing_cycles: [
        {
          frequency: { interval_unit: "MONTH", interval_count: 1 },
          tenure_type: "REGULAR",
          sequence: 1,
          total_cycles: 3,
          pricing_scheme: { fixed_price: { currency_code: "USD", value: "10.00" } },
        },
      ],
      payment_preferences: { payment_failure_threshold: 2 },
    });
    const { id } = await paypal.subscriptions.create({ plan_id: plan.id });
    await sim.outcomes.approveSubscription(id);
    expect(await sim.outcomes.renewSubscription(id)).toBeTruthy();
    expect(await sim.outcomes.renewSubscription(id)).toBeTruthy();
    // Three cycles paid: nothing more to take, and no next billing time.
    expect(await sim.outcomes.renewSubscription(id)).toBeNull();
    expect((await paypal.subscriptions.get(id)).billing_info?.next_billing_time).toBeUndefined();

    await sim.outcomes.setSubscriptionStatus(id, "SUSPENDED");
    expect((await paypal.subscriptions.get(id)).status).toBe("SUSPENDED");
    await sim.outcomes.setSubscriptionStatus(id, "EXPIRED");
    expect((await paypal.subscriptions.get(id)).status).toBe("EXPIRED");
    expect((await refusal(paypal.subscriptions.cancel(id, "too late"))).issues).toEqual([
      "SUBSCRIPTION_STATUS_INVALID",
    ]);
  });

  it("refuses a plan for an unknown product and a subscription to an unknown plan", async () => {
    const cycle = {
      frequency: { interval_unit: "YEAR" as const, interval_count: 1 },
      tenure_type: "REGULAR" as const,
      sequence: 1,
      total_cycles: 0,
      pricing_scheme: { fixed_price: { currency_code: "USD", value: "99.00" } },
    };
    const noProduct = await refusal(
      paypal.plans.create({ product_id: "PROD-NOSUCH", name: "x", billing_cycles: [cycle], payment_preferences: {} }),
    );
    expect(noProduct.issues).toEqual(["INVALID_RESOURCE_ID"]);
    const noPlan = await refusal(paypal.subscriptions.create({ plan_id: "P-NOSUCH" }));
    expect(noPlan.status).toBe(404);
  });
});

describe("Webhooks", () => {
  const events = () => received.map((r) => ({ ...r, event: JSON.parse(r.body) as WebhookEvent }));
  const verify = (r: { headers: Record<string, string | undefined>; event: unknown }, id = webhookId) =>
    paypal.webhooks.verifySignature({ headers: r.headers, webhookId: id, event: r.event as WebhookEvent });

  it("registers a webhook once: it is listed, and the same address again is refused", async () => {
    expect((await paypal.webhooks.list()).map((w) => w.id)).toContain(webhookId);
    const again = await refusal(
      paypal.webhooks.create(`${app.config.publicUrl.replace(/\/$/, "")}${WEBHOOK_PATH}`, ["*"]),
    );
    expect(again).toMatchObject({ status: 400, paypalName: "WEBHOOK_URL_ALREADY_EXISTS" });
  });

  it("sends PayPal's envelope and headers, signed: SUCCESS as sent, FAILURE tampered, for another webhook or forged", async () => {
    received.length = 0;
    const capture = await paidCapture("15.00");
    await sim.webhooksSent();
    expect(events().map((e) => e.event.event_type)).toEqual(["CHECKOUT.ORDER.APPROVED", "PAYMENT.CAPTURE.COMPLETED"]);
    const completed = events()[1]!;
    expect(completed.event).toMatchObject({
      event_type: "PAYMENT.CAPTURE.COMPLETED",
      resource_type: "capture",
      resource: { id: capture.id, status: "COMPLETED", amount: { value: "15.00", currency_code: "USD" } },
    });
    expect(completed.event.id).toMatch(/^WH-/);
    expect(completed.event.create_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(completed.headers).toMatchObject({
      "paypal-auth-algo": "SHA256withRSA",
      "paypal-cert-url": expect.stringContaining(`${SIMULATOR_REST_PREFIX}/v1/notifications/certs/`),
      "paypal-transmission-id": expect.any(String),
      "paypal-transmission-sig": expect.any(String),
      "paypal-transmission-time": expect.any(String),
    });
    const cert = await fetch(completed.headers["paypal-cert-url"]!.replace(/^https?:\/\/[^/]+/, app.url));
    expect(await cert.text()).toContain("BEGIN PUBLIC KEY");

    expect(await verify(completed)).toBe("SUCCESS");
    const tampered = structuredClone(completed.event);
    (tampered.resource as { amount: { value: string } }).amount.value = "1500.00";
    expect(await verify({ ...completed, event: tampered })).toBe("FAILURE");
    expect(await verify(completed, "ANOTHERWEBHOOK1")).toBe("FAILURE");
    expect(
      await verify({ ...completed, headers: { ...completed.headers, "paypal-transmission-id": randomUUID() } }),
    ).toBe("FAILURE");
    expect(
      await verify({ ...completed, headers: { ...completed.headers, "paypal-transmission-sig": "Zm9yZ2Vk" } }),
    ).toBe("FAILURE");
    expect(
      await verify({ ...completed, headers: { ...completed.headers, "paypal-transmission-sig": undefined } }),
    ).toBe("FAILURE");
  });

  it("sends the events of one change in the order they happened: a subscription's activation, then its payment", async () => {
    const product = await paypal.products.create({ name: "Bronze membership", type: "SERVICE" });
    const plan = await paypal.plans.create({
      product_id: product.id,
      name: "Bronze, weekly",
      billing_cycles: [
        {
          frequency: { interval_unit: "WEEK", interval_count: 1 },
          tenure_type: "REGULAR",
          sequence: 1,
          total_cycles: 0,
          pricing_scheme: { fixed_price: { currency_code: "USD", value: "4.00" } },
        },
      ],
      payment_preferences: {},
    });
    for (let i = 0; i < 5; i++) {
      const { id } = await paypal.subscriptions.create({ plan_id: plan.id });
      received.length = 0;
      await sim.outcomes.approveSubscription(id);
      await sim.webhooksSent();
      expect(events().map((e) => e.event.event_type)).toEqual([
        "BILLING.SUBSCRIPTION.ACTIVATED",
        "PAYMENT.SALE.COMPLETED",
      ]);
      expect(events()[1]!.event.resource).toMatchObject({ billing_agreement_id: id, amount: { total: "4.00" } });
    }
  });

  it("sends an event twice (each transmission verifies) and late (held, then sent)", async () => {
    const capture = await paidCapture("8.00");
    await sim.webhooksSent();
    received.length = 0;
    sim.outcomes.holdWebhooks(true);
    await sim.outcomes.refundInPayPal(capture.id, { currency_code: "USD", value: "3.00" });
    await sim.outcomes.reverseCapture(capture.id);
    await sim.webhooksSent();
    expect(received).toHaveLength(0);
    expect(await sim.outcomes.sendHeldWebhooks()).toBe(2);
    expect(events().map((e) => e.event.event_type)).toEqual(["PAYMENT.CAPTURE.REFUNDED", "PAYMENT.CAPTURE.REVERSED"]);
    expect(events()[0]!.event.resource).toMatchObject({ amount: { value: "3.00" } });
    expect(events()[1]!.event.resource).toMatchObject({ amount: { value: "5.00" } });

    const refunded = events()[0]!;
    await sim.outcomes.resendEvent(refunded.event.id);
    await sim.webhooksSent();
    const copies = events().filter((e) => e.event.id === refunded.event.id);
    expect(copies).toHaveLength(2);
    expect(copies[0]!.headers["paypal-transmission-id"]).not.toBe(copies[1]!.headers["paypal-transmission-id"]);
    expect(await verify(copies[0]!)).toBe("SUCCESS");
    expect(await verify(copies[1]!)).toBe("SUCCESS");
    const sent = await sim.transmissions();
    expect(sent.filter((t) => t.eventId === refunded.event.id).map((t) => t.answeredStatus)).toEqual([200, 200]);
  });
});

describe("PayPal as a payment provider (the interface the payments module calls)", () => {
  const provider = () => createPayPalProvider({ client: paypal, webhookId: () => webhookId, brandName: "Atelier" });
  const back = {
    returnUrl: "http://localhost:3000/received-payment/3",
    cancelUrl: "http://localhost:3000/order-cancelled/3",
  };

  it("checks out, captures once, refunds a part, and reads the webhooks as typed notices", async () => {
    const orderId = randomUUID();
    const checkout = await provider().createCheckout({
      orderId,
      orderNumber: "A-1042",
      description: "Gold membership",
      amount: { currency: "USD", value: "30.00" },
      ...back,
      requestId: `${orderId}-1`,
    });
    expect(checkout.approveUrl).toContain(`checkoutnow?token=${checkout.checkoutId}`);
    received.length = 0;
    await sim.outcomes.approveOrder(checkout.checkoutId);
    const payment = await provider().capture(checkout.checkoutId, `${orderId}-capture`);
    expect(payment).toMatchObject({ status: "completed", orderId, amount: { currency: "USD", value: "30.00" } });
    expect(await provider().capture(checkout.checkoutId, `${orderId}-capture`)).toEqual(payment);
    const refund = await provider().refund(payment.paymentId, {
      amount: { currency: "USD", value: "10.00" },
      noteToPayer: "Part of your payment back",
      invoiceId: null,
      requestId: `${orderId}-refund-1`,
    });
    expect(refund).toMatchObject({ status: "completed", amount: { currency: "USD", value: "10.00" } });

    await sim.webhooksSent();
    const notices = [];
    for (const r of received) notices.push(await provider().receive({ headers: r.headers, rawBody: r.body }));
    expect(notices.map((n) => (n.verdict === "accepted" ? n.notice.type : n.verdict))).toEqual([
      "checkout.approved",
      "payment.completed",
      "payment.refunded",
    ]);
    expect(notices[1]).toMatchObject({
      notice: { orderId, paymentId: payment.paymentId, checkoutId: checkout.checkoutId, amount: { value: "30.00" } },
    });
    expect(notices[2]).toMatchObject({
      notice: { orderId, paymentId: payment.paymentId, refundId: refund.refundId, amount: { value: "10.00" } },
    });

    const genuine = received[1]!;
    const tampered = genuine.body.replace('"30.00"', '"3000.00"');
    expect(await provider().receive({ headers: genuine.headers, rawBody: tampered })).toMatchObject({
      verdict: "forged",
    });
    expect(
      await provider().receive({
        headers: { ...genuine.headers, "paypal-transmission-sig": undefined },
        rawBody: genuine.body,
      }),
    ).toMatchObject({ verdict: "unsigned" });
    expect(await provider().receive({ headers: genuine.headers, rawBody: "{not json" })).toMatchObject({
      verdict: "malformed",
    });
    const elsewhere = createPayPalProvider({ client: paypal, webhookId: () => "SOMEONEELSES1234", brandName: "x" });
    expect(await elsewhere.receive({ headers: genuine.headers, rawBody: genuine.body })).toMatchObject({
      verdict: "forged",
    });
  });

  it("makes a plan with a first-payment price, subscribes, reads and cancels", async () => {
    const { planId } = await provider().createPlan({
      name: "Silver membership",
      period: { unit: "DAY", count: 30 },
      amount: { currency: "USD", value: "15.00" },
      firstPayment: { currency: "USD", value: "7.50" },
      requestId: randomUUID(),
    });
    const orderId = randomUUID();
    const started = await provider().startSubscription({ planId, orderId, ...back, requestId: `${orderId}-sub` });
    expect((await provider().readSubscription(started.subscriptionId)).status).toBe("pending");
    await sim.outcomes.approveSubscription(started.subscriptionId);
    expect(await provider().readSubscription(started.subscriptionId)).toEqual({
      status: "active",
      nextBillingAt: "2026-12-27T12:00:00Z",
      failedPayments: 0,
      lastPayment: { amount: { currency: "USD", value: "7.50" }, at: "2026-11-27T12:00:00Z" },
    });
    await provider().cancelSubscription(started.subscriptionId, "Cancelled by the customer");
    expect((await provider().readSubscription(started.subscriptionId)).status).toBe("cancelled");
    // Its PayPal-Request-Id is the subscription's: a retried cancel is answered as the first was, and cancels once.
    const cancelPath = `/v1/billing/subscriptions/${started.subscriptionId}/cancel`;
    expect(calls(cancelPath).map((c) => c.requestId)).toEqual([`cancel-${started.subscriptionId}`]);
    await provider().cancelSubscription(started.subscriptionId, "Cancelled by the customer");
    expect(calls(cancelPath).map((c) => c.requestId)).toEqual([
      `cancel-${started.subscriptionId}`,
      `cancel-${started.subscriptionId}`,
    ]);
    await sim.webhooksSent();
    const cancelledEvents = await app.db.pool.query(
      "select count(*)::int as n from paypal_simulator_rest_objects where kind = 'event' and data->>'event_type' = 'BILLING.SUBSCRIPTION.CANCELLED' and data->'resource'->>'id' = $1",
      [started.subscriptionId],
    );
    expect(cancelledEvents.rows[0].n).toBe(1);
  });
});

describe("Outside simulator mode", () => {
  it("has no simulator: its REST prefix is not served and the client uses the REST app's credentials", async () => {
    const sandbox = await startTestApp({
      PAYPAL_MODE: "sandbox",
      PAYPAL_CLIENT_ID: "sandbox-client",
      PAYPAL_CLIENT_SECRET: "sandbox-secret",
      PAYPAL_WEBHOOK_ID: "WH-SANDBOX-1",
    });
    try {
      expect(sandbox.services.payments.simulator).toBeNull();
      expect(sandbox.services.payments.paypal).not.toBeNull();
      // A configured webhook id is used as given: nothing is registered at PayPal.
      expect(await sandbox.services.payments.registerWebhook()).toBe("WH-SANDBOX-1");
      const res = await sandbox.request(`${SIMULATOR_REST_PREFIX}/v1/oauth2/token`, {
        method: "POST",
        body: "grant_type=client_credentials",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(res.status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });
});
