import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { demoPackage, noticesSettled, placeOrderFor } from "../support/paypal";

/**
 * Issue 34: the subscription notices' handlers (decision 069), from the Subscriptions API's signed webhooks sent by the
 * simulator: the sign-up, the first payment paying the placed order, each later one a renewal once per payment id, a
 * failed payment mailed once per notice, suspended / cancelled / expired stopping the renewals.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
let basic: { _id: string; packagePrice: number; packageValidity: number };
let customer: CookieJar;

beforeAll(async () => {
  app = await startTestApp();
  sim = app.services.payments.simulator!;
  basic = await demoPackage(app);
  customer = await signUp(app, "rest-subscriber@example.org");
  await app.services.payments.registerWebhook();
});
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const renewalsOf = async (subscrId: string) =>
  (
    await app.db.pool.query(
      "select id, payment_status, txn_id, package_price from orders where subscr_id = $1 order by created_at",
      [subscrId],
    )
  ).rows;
const subscriptionOf = async (subscrId: string) =>
  (await app.db.pool.query("select * from subscriptions where subscr_id = $1", [subscrId])).rows[0];
const noticesOf = async (subscrId: string) =>
  (
    await app.db.pool.query(
      "select event_type, notice_type, outcome, reason from payment_notices where subscription_id = $1 order by received_at",
      [subscrId],
    )
  ).rows as { event_type: string | null; notice_type: string; outcome: string; reason: string }[];

/** A subscription of the order at PayPal (a plan at `price` each period), approved by the buyer: its id. */
async function subscribe(orderId: string, price = basic.packagePrice.toFixed(2)) {
  const provider = app.services.payments.provider!;
  const { planId } = await provider.createPlan({
    name: "Basic",
    period: { unit: "DAY", count: basic.packageValidity },
    amount: { currency: "USD", value: price },
    firstPayment: null,
    requestId: `plan-${orderId}`,
  });
  const { subscriptionId } = await provider.startSubscription({
    planId,
    orderId,
    returnUrl: `${app.config.publicUrl}/received-payment/${orderId}`,
    cancelUrl: `${app.config.publicUrl}/order-cancelled/${orderId}`,
    requestId: `subscription-${orderId}`,
  });
  await sim.outcomes.approveSubscription(subscriptionId);
  await noticesSettled(app);
  return subscriptionId;
}

describe("subscription notices from the Subscriptions API's webhooks", () => {
  it("the sign-up and first payment pay the order; each renewal adds one paid order, once per payment", async () => {
    const id = await placeOrderFor(app, customer, basic._id);
    const subscrId = await subscribe(id);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    expect((await subscriptionOf(subscrId)).status).toBe("active");
    expect((await subscriptionOf(subscrId)).order_id).toBe(id);
    expect((await noticesOf(subscrId)).map((n) => [n.notice_type, n.outcome])).toEqual([
      ["subscription.activated", "applied"],
      ["subscription.payment", "applied"],
    ]);

    await sim.outcomes.renewSubscription(subscrId);
    await sim.outcomes.renewSubscription(subscrId);
    await noticesSettled(app);
    const renewals = await renewalsOf(subscrId);
    expect(renewals).toHaveLength(2);
    expect(renewals.every((r) => r.payment_status === "Paid")).toBe(true);

    // PayPal sends the last sale again (a new transmission of the same event): nothing more.
    const { rows } = await app.db.pool.query(
      "select event_id from payment_notices where subscription_id = $1 and notice_type = 'subscription.payment' order by received_at desc limit 1",
      [subscrId],
    );
    await sim.outcomes.resendEvent(rows[0].event_id);
    await noticesSettled(app);
    expect(await renewalsOf(subscrId)).toHaveLength(2);
  });

  it("a failed payment mails the customer and the admins once, however often PayPal sends it", async () => {
    const id = await placeOrderFor(app, customer, basic._id);
    const subscrId = await subscribe(id);
    await sim.outcomes.failSubscriptionPayment(subscrId);
    await noticesSettled(app);
    const failed = (await noticesOf(subscrId)).filter((n) => n.notice_type === "subscription.payment-failed");
    expect(failed.map((n) => n.outcome)).toEqual(["applied"]);
    expect((await subscriptionOf(subscrId)).last_failed_at).not.toBeNull();
    const { rows } = await app.db.pool.query(
      "select event_id from payment_notices where subscription_id = $1 and notice_type = 'subscription.payment-failed'",
      [subscrId],
    );
    await sim.outcomes.resendEvent(rows[0].event_id);
    await noticesSettled(app);
    const mails = await app.db.pool.query("select key from job_keys where key like $1", [`%${subscrId}%failed%`]);
    expect(mails.rows.filter((r) => /:failed$/.test(r.key))).toHaveLength(1);
  });

  it("suspended by PayPal stops the renewals (the time paid stays); expired ends it", async () => {
    const id = await placeOrderFor(app, customer, basic._id);
    const subscrId = await subscribe(id);
    await sim.outcomes.setSubscriptionStatus(subscrId, "SUSPENDED");
    await noticesSettled(app);
    const stopped = await subscriptionOf(subscrId);
    expect(stopped.status).toBe("cancelled");
    expect(stopped.cancelled_by).toBe("PayPal");
    expect((await orderRow(id)).payment_status).toBe("Paid");
    await sim.outcomes.setSubscriptionStatus(subscrId, "EXPIRED");
    await noticesSettled(app);
    expect((await subscriptionOf(subscrId)).status).toBe("ended");
    expect((await noticesOf(subscrId)).map((n) => n.outcome)).toEqual(["applied", "applied", "applied", "applied"]);
  });

  it("a payment of another amount than the subscription's is refused and flagged to staff", async () => {
    const id = await placeOrderFor(app, customer, basic._id);
    const subscrId = await subscribe(id, "0.50");
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    const payment = (await noticesOf(subscrId)).find((n) => n.notice_type === "subscription.payment")!;
    expect(payment.outcome).toBe("flagged");
    expect(payment.reason).toMatch(/the payment is 0\.50 USD, this first payment's/);
    const flags = await app.db.pool.query(
      "select changes from activity_log where entity = 'order' and record_id = $1 and changes ? 'paymentFlag'",
      [id],
    );
    expect(flags.rows).toHaveLength(1);
  });
});

describe("notices left unapplied by a crash (decision 069)", () => {
  it("the job's sweep applies a verified notice stored but never handled, once, and leaves a fresh one alone", async () => {
    const id = await placeOrderFor(app, customer, basic._id);
    const subscrId = await subscribe(id);
    // What a crash between storing and handling leaves: the verified notice, received, its notice stored with it.
    const leftOver = async (paymentId: string, age: string) => {
      const notice = {
        type: "subscription.payment",
        eventId: `WH-CRASH-${paymentId}`,
        occurredAt: new Date().toISOString(),
        orderId: id,
        subscriptionId: subscrId,
        paymentId,
        amount: { currency: "USD", value: basic.packagePrice.toFixed(2) },
      };
      await app.db.pool.query(
        `insert into payment_notices (provider, event_id, claimed_event_id, event_type, notice_type, order_id,
           subscription_id, verdict, outcome, reason, raw, headers, notice, received_at, updated_at)
         values ('paypal', $1, $1, 'PAYMENT.SALE.COMPLETED', 'subscription.payment', $2, $3, 'accepted', 'received',
           'being applied', '{}', '{}', $4, now() - $5::interval, now() - $5::interval)`,
        [notice.eventId, id, subscrId, JSON.stringify(notice), age],
      );
      return notice.eventId;
    };
    const stale = await leftOver("SALE-CRASH-1", "2 minutes");
    const fresh = await leftOver("SALE-CRASH-2", "0 seconds");
    const controller = app.services.payments.controllers.paypal!;
    expect(await controller.sweep()).toEqual({ swept: 1 });
    expect(await controller.sweep()).toEqual({ swept: 0 });
    const rows = await app.db.pool.query(
      "select event_id, outcome from payment_notices where event_id = any($1) order by event_id",
      [[stale, fresh]],
    );
    expect(rows.rows).toEqual([
      { event_id: stale, outcome: "applied" },
      { event_id: fresh, outcome: "received" },
    ]);
    expect((await renewalsOf(subscrId)).map((r) => r.txn_id)).toEqual(["SALE-CRASH-1"]);
  });
});
