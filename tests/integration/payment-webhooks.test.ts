import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { demoPackage, noticesSettled, payWithCheckout, placeOrderFor } from "../support/paypal";

/**
 * Issue 34 part 1: PayPal's REST webhooks through the payments module's controller (POST /api/payments/paypal/webhook),
 * from the simulator's signed deliveries: 400 unsigned, 401 forged, 200 handled, 5xx when we cannot verify; each
 * notice stored once (payment_notices), applied once through the one money check and the order commands.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
let basic: { _id: string; packagePrice: number };
let customer: CookieJar;
const WEBHOOK = "/api/payments/paypal/webhook";

beforeAll(async () => {
  app = await startTestApp();
  sim = app.services.payments.simulator!;
  basic = await demoPackage(app);
  customer = await signUp(app, "rest-payer@example.org");
});
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

const placeOrder = () => placeOrderFor(app, customer, basic._id);
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const noticesOf = async (orderId: string) =>
  (
    await app.db.pool.query(
      "select event_type, notice_type, outcome, reason, times_received from payment_notices where order_id = $1 order by received_at",
      [orderId],
    )
  ).rows;
const flagsOf = async (orderId: string) =>
  (
    await app.db.pool.query(
      "select changes from activity_log where entity = 'order' and record_id = $1 and changes ? 'paymentFlag'",
      [orderId],
    )
  ).rows;
/** The simulator's last transmission of an event type: its body and PayPal's headers, to post again ourselves. */
async function lastTransmission(eventType: string) {
  const sent = (await sim.transmissions()).filter((t) => JSON.parse(t.body).event_type === eventType);
  const t = sent.at(-1)!;
  return {
    body: t.body,
    headers: {
      "content-type": "application/json",
      "paypal-transmission-id": t.id,
      "paypal-transmission-time": t.transmissionTime,
      "paypal-transmission-sig": t.signature,
      "paypal-cert-url": `${app.url}/paypal-simulator/rest/v1/notifications/certs/CERT-SIMULATOR-1`,
      "paypal-auth-algo": "SHA256withRSA",
    } as Record<string, string>,
  };
}
const post = (body: string, headers: Record<string, string>) => app.request(WEBHOOK, { method: "POST", body, headers });

describe("the PayPal webhook controller", () => {
  it("registers its webhook once at PayPal for every event type: a second start finds the same", async () => {
    const first = await app.services.payments.registerWebhook();
    expect(first).toMatch(/^WH|^[A-Z0-9]/);
    const hooks = await app.services.payments.paypal!.webhooks.list();
    const ours = hooks.filter((h) => h.url.endsWith(WEBHOOK));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.event_types.map((e) => e.name)).toEqual(
      expect.arrayContaining(["CHECKOUT.ORDER.APPROVED", "PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.REVERSED"]),
    );
  });

  it("an approved checkout pays its order once: the webhook captures, the capture's webhook is a duplicate", async () => {
    const id = await placeOrder();
    await payWithCheckout(app, id);
    await noticesSettled(app);
    const order = await orderRow(id);
    expect(order.payment_status).toBe("Paid");
    expect(order.txn_id).toMatch(/^[A-Z0-9]+$/);
    expect(await noticesOf(id)).toEqual([
      expect.objectContaining({ notice_type: "checkout.approved", outcome: "applied", times_received: 1 }),
      expect.objectContaining({ notice_type: "payment.completed", outcome: "duplicate" }),
    ]);
    const paidEntries = await app.db.pool.query(
      "select count(*)::int as n from activity_log where record_id = $1 and changes->'paymentStatus'->>'after' = 'Paid'",
      [id],
    );
    expect(paidEntries.rows[0].n).toBe(1);
  });

  it("a resent event is the same notice: answered 200, counted, applied once", async () => {
    const id = await placeOrder();
    await payWithCheckout(app, id);
    await noticesSettled(app);
    const approved = (await sim.transmissions())
      .filter((t) => JSON.parse(t.body).event_type === "CHECKOUT.ORDER.APPROVED")
      .at(-1)!;
    await sim.outcomes.resendEvent(approved.eventId);
    await noticesSettled(app);
    const notices = await noticesOf(id);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatchObject({ notice_type: "checkout.approved", outcome: "applied", times_received: 2 });
  });

  it("two instances receiving the same webhook at the same moment apply it once", async () => {
    const id = await placeOrder();
    sim.outcomes.holdWebhooks(true);
    await payWithCheckout(app, id);
    await sim.webhooksSent();
    const { body, headers } = await lastTransmission("CHECKOUT.ORDER.APPROVED");
    const answers = await Promise.all([post(body, headers), post(body, headers), post(body, headers)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const outcomes = await Promise.all(answers.map(async (a) => ((await a.json()) as { outcome: string }).outcome));
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(2);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
    expect((await noticesOf(id)).map((n) => n.outcome)).toEqual(["applied", "duplicate"]);
  });

  it("answers 400 without PayPal's signature headers and 401 for a forged or tampered one: stored, nothing applied", async () => {
    const id = await placeOrder();
    sim.outcomes.holdWebhooks(true);
    await payWithCheckout(app, id);
    await sim.webhooksSent();
    const { body, headers } = await lastTransmission("CHECKOUT.ORDER.APPROVED");
    const unsigned = await post(body, { "content-type": "application/json" });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({
      received: false,
      error: expect.stringContaining("paypal-transmission"),
    });
    const tampered = body.replace(id, "00000000-0000-4000-8000-000000000000");
    expect((await post(tampered, headers)).status).toBe(401);
    const forged = await post(body, { ...headers, "paypal-transmission-sig": "Zm9yZ2Vk" });
    expect(forged.status).toBe(401);
    expect((await post("{}", headers)).status).toBe(400);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    const eventId = JSON.parse(body).id as string;
    const stored = await app.db.pool.query(
      "select verdict, outcome, event_id from payment_notices where claimed_event_id = $1 order by received_at",
      [eventId],
    );
    expect(stored.rows).toEqual([
      { verdict: "unsigned", outcome: "rejected", event_id: null },
      { verdict: "forged", outcome: "rejected", event_id: null },
      { verdict: "forged", outcome: "rejected", event_id: null },
    ]);
    // The forgeries took no place of the real event: it still applies when PayPal sends it.
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
    expect((await orderRow(id)).payment_status).toBe("Paid");
  });

  it("answers 503 when PayPal cannot verify now, and applies the event when PayPal sends it again", async () => {
    const id = await placeOrder();
    sim.outcomes.holdWebhooks(true);
    await payWithCheckout(app, id);
    await sim.webhooksSent();
    const { body, headers } = await lastTransmission("CHECKOUT.ORDER.APPROVED");
    sim.fault({ path: "/v1/notifications/verify-webhook-signature", status: 503, times: 3 });
    expect((await post(body, headers)).status).toBe(503);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    expect((await post(body, headers)).status).toBe(200);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
  });

  it("refuses a capture of another amount, flags it to staff, and leaves the order unpaid", async () => {
    const id = await placeOrder();
    await payWithCheckout(app, id, { amount: "1.00" });
    await noticesSettled(app);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    const notices = await noticesOf(id);
    expect(notices.map((n) => n.outcome)).toEqual(["flagged", "flagged"]);
    expect(notices[0].reason).toBe(`the payment is 1.00 USD, the order's price ${basic.packagePrice.toFixed(2)} USD`);
    expect(await flagsOf(id)).not.toHaveLength(0);
  });

  it("a pending capture says so on the order, and pays it when it completes; a denied one leaves it unpaid", async () => {
    const id = await placeOrder();
    const checkoutId = await payWithCheckout(app, id, { how: { result: "pending" } });
    await noticesSettled(app);
    expect(await orderRow(id)).toMatchObject({
      payment_status: "UnPaid",
      provider_status: expect.stringMatching(/^Pending/),
    });
    const order = await app.services.payments.paypal!.orders.get(checkoutId);
    const captureId = order.purchase_units![0]!.payments!.captures![0]!.id;
    await sim.outcomes.settleCapture(captureId, "COMPLETED");
    await noticesSettled(app);
    expect(await orderRow(id)).toMatchObject({ payment_status: "Paid", provider_status: null });

    const denied = await placeOrder();
    await payWithCheckout(app, denied, { how: { result: "denied" } });
    await noticesSettled(app);
    expect(await orderRow(denied)).toMatchObject({ payment_status: "UnPaid", provider_status: "Denied" });
  });

  it("a refund made in PayPal: in part keeps the order Paid, the rest makes it Refunded; a reversal too", async () => {
    const id = await placeOrder();
    const checkoutId = await payWithCheckout(app, id);
    await noticesSettled(app);
    const captureId = (await orderRow(id)).txn_id as string;
    expect(captureId).toBe(
      (await app.services.payments.paypal!.orders.get(checkoutId)).purchase_units![0]!.payments!.captures![0]!.id,
    );
    await sim.outcomes.refundInPayPal(captureId, { currency_code: "USD", value: "1.00" });
    await noticesSettled(app);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    await sim.outcomes.refundInPayPal(captureId);
    await noticesSettled(app);
    expect((await orderRow(id)).payment_status).toBe("Refunded");

    const reversed = await placeOrder();
    await payWithCheckout(app, reversed);
    await noticesSettled(app);
    await sim.outcomes.reverseCapture((await orderRow(reversed)).txn_id);
    await noticesSettled(app);
    expect((await orderRow(reversed)).payment_status).toBe("Refunded");
    expect((await noticesOf(reversed)).at(-1)).toMatchObject({ notice_type: "payment.reversed", outcome: "applied" });
  });

  it("an erased customer's notices lose PayPal's body (the payer's name and email); their outcomes stay", async () => {
    const jar = new CookieJar();
    await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email: "erased-payer@example.org", password: "quiet-harbour-71", name: "", acceptTerms: true },
      jar,
    });
    const res = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: basic._id, customerName: "E", customerAddress: "A", customerCountry: "UK" },
      jar,
    });
    const id = ((await res.json()) as { insertedId: string }).insertedId;
    await payWithCheckout(app, id);
    await noticesSettled(app);
    const raws = async () =>
      (await app.db.pool.query("select raw, headers, outcome from payment_notices where order_id = $1", [id])).rows;
    expect((await raws()).some((r) => r.raw.includes("buyer@example.com"))).toBe(true);
    const { rows } = await app.db.pool.query(`select user_id from orders where id = $1`, [id]);
    await app.services.privacy.eraseCustomer(rows[0].user_id, { id: "admin", email: "admin@example.org" });
    const after = await raws();
    expect(after.map((r) => r.outcome)).toEqual(["applied", "duplicate"]);
    expect(after.every((r) => r.raw === "" && Object.keys(r.headers).length === 0)).toBe(true);
  });

  it("answers 404 for a provider it does not have", async () => {
    const res = await app.request("/api/payments/stripe/webhook", { method: "POST", json: {} });
    expect(res.status).toBe(404);
  });
});
