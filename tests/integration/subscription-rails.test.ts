import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { demoPackage, legacyIpn, noticesSettled, placeOrderFor, sendLegacyIpn } from "../support/paypal";

/**
 * Issue 34 parts 1 and 5 (decision 069): a subscription's life told by Payments Standard's IPN messages and by the
 * Subscriptions API's signed webhooks goes through the same handlers and money check, and ends the same: the first
 * payment pays the order, two renewals add two paid orders, a resent renewal adds none, a failed payment mails once,
 * the cancellation stops it.
 */
let app: TestApp;
let basic: { _id: string; packagePrice: number; packageValidity: number };
let customer: CookieJar;
const RECEIVER = "shop@example.org";

beforeAll(async () => {
  app = await startTestApp({ PAYPAL_RECEIVER_EMAIL: RECEIVER });
  basic = await demoPackage(app);
  customer = await signUp(app, "two-rails@example.org");
  await app.services.payments.registerWebhook();
});
afterAll(async () => {
  await app?.services.payments.simulator?.webhooksSent();
  await app?.close();
});

/** What a subscription came to, in words that do not depend on the rail. */
async function outcome(orderId: string, subscrId: string) {
  const q = async (sql: string, values: unknown[]) => (await app.db.pool.query(sql, values)).rows;
  const [first] = await q("select payment_status, txn_id is not null as has_txn from orders where id = $1", [orderId]);
  const renewals = await q(
    "select payment_status, package_price::text as price from orders where subscr_id = $1 order by created_at",
    [subscrId],
  );
  const [subscription] = await q(
    "select status, cancelled_by, last_failed_at is not null as failed from subscriptions where subscr_id = $1",
    [subscrId],
  );
  const failureMails = await q("select key from job_keys where key like $1 and key like '%:failed'", [`%${subscrId}%`]);
  const notices = await q(
    "select notice_type, outcome from payment_notices where subscription_id = $1 and outcome <> 'duplicate' order by received_at, id",
    [subscrId],
  );
  return {
    first,
    renewals,
    subscription,
    failureMails: failureMails.length,
    notices: notices.map((n) => `${n.notice_type} ${n.outcome}`),
  };
}

describe("the same subscription on both rails", () => {
  it("IPN messages and REST webhooks give the same orders, subscription, mails and notice outcomes", async () => {
    // The Subscriptions API: the simulator's plan and subscription, approved, renewed twice (the last sale resent), a
    // failed payment, cancelled at PayPal.
    const sim = app.services.payments.simulator!;
    const provider = app.services.payments.provider!;
    const restOrder = await placeOrderFor(app, customer, basic._id);
    const { planId } = await provider.createPlan({
      name: "Basic",
      period: { unit: "DAY", count: basic.packageValidity },
      amount: { currency: "USD", value: basic.packagePrice.toFixed(2) },
      firstPayment: null,
      requestId: `plan-rails-${restOrder}`,
    });
    const { subscriptionId: restSub } = await provider.startSubscription({
      planId,
      orderId: restOrder,
      returnUrl: `${app.config.publicUrl}/received-payment/${restOrder}`,
      cancelUrl: `${app.config.publicUrl}/order-cancelled/${restOrder}`,
      requestId: `subscription-rails-${restOrder}`,
    });
    await sim.outcomes.approveSubscription(restSub);
    await noticesSettled(app);
    await sim.outcomes.renewSubscription(restSub);
    await noticesSettled(app);
    await sim.outcomes.renewSubscription(restSub);
    await noticesSettled(app);
    const lastSale = (
      await app.db.pool.query(
        "select event_id from payment_notices where subscription_id = $1 and notice_type = 'subscription.payment' order by received_at desc limit 1",
        [restSub],
      )
    ).rows[0].event_id as string;
    await sim.outcomes.resendEvent(lastSale);
    await noticesSettled(app);
    await sim.outcomes.failSubscriptionPayment(restSub);
    await noticesSettled(app);
    await sim.outcomes.setSubscriptionStatus(restSub, "CANCELLED");
    await noticesSettled(app);

    // Payments Standard: the same life as IPN messages, each verified by the simulator's postback.
    const ipnOrder = await placeOrderFor(app, customer, basic._id);
    const legacy = {
      orderId: ipnOrder,
      subscrId: `I-RAILS${Date.now().toString(36).toUpperCase()}`,
      price: basic.packagePrice,
      validity: basic.packageValidity,
      receiver: RECEIVER,
    };
    const send = (raw: string) => sendLegacyIpn(app.db.pool, app.url, raw);
    expect(await send(legacyIpn(legacy, "subscr_signup"))).toBe("applied");
    expect(await send(legacyIpn(legacy, "subscr_payment"))).toBe("applied");
    expect(await send(legacyIpn(legacy, "subscr_payment"))).toBe("applied");
    const second = legacyIpn(legacy, "subscr_payment");
    expect(await send(second)).toBe("applied");
    expect(await send(second)).toBe("duplicate");
    expect(await send(legacyIpn(legacy, "subscr_failed"))).toBe("applied");
    expect(await send(legacyIpn(legacy, "subscr_cancel"))).toBe("applied");

    // A resend is one stored notice received twice on REST (its event id), a message of its own on IPN (PayPal's
    // messages are stored before they are verified): both applied once.
    const resent = await app.db.pool.query("select times_received from payment_notices where event_id = $1", [
      lastSale,
    ]);
    expect(resent.rows).toEqual([{ times_received: 2 }]);
    const rest = await outcome(restOrder, restSub);
    const ipn = await outcome(ipnOrder, legacy.subscrId);
    expect(rest).toEqual(ipn);
    expect(ipn).toEqual({
      first: { payment_status: "Paid", has_txn: true },
      renewals: [
        { payment_status: "Paid", price: basic.packagePrice.toFixed(2) },
        { payment_status: "Paid", price: basic.packagePrice.toFixed(2) },
      ],
      subscription: { status: "cancelled", cancelled_by: "PayPal", failed: true },
      failureMails: 1,
      notices: [
        "subscription.activated applied",
        "subscription.payment applied",
        "subscription.payment applied",
        "subscription.payment applied",
        "subscription.payment-failed applied",
        "subscription.cancelled applied",
      ],
    });
  });
});
