import { createHash } from "node:crypto";
import type { TestApp } from "./app";

/** Anything that runs a query: a pool, a client. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * Records a notification as one PayPal's simulator really sent (the digest of its exact body), so that the listener's
 * postback is answered VERIFIED. A forgery is a body this was never called for.
 */
export async function markGenuine(db: Queryable, raw: string): Promise<void> {
  await db.query("insert into paypal_simulator_messages (digest) values ($1) on conflict do nothing", [
    createHash("sha256").update(raw).digest("hex"),
  ]);
}

/** A notification's body: the fields with the overrides applied (null leaves a field out), as PayPal encodes them. */
export function ipnBody(fields: Record<string, string>, overrides: Record<string, string | null> = {}): string {
  const all: Record<string, string> = { ...fields };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === null) delete all[k];
    else all[k] = v;
  }
  return new URLSearchParams(all).toString();
}

/** Posts a notification to the app's listener as PayPal does. */
export function postIpn(app: Pick<TestApp, "request">, raw: string, headers: Record<string, string> = {}) {
  return app.request("/api/paypal/ipn", {
    method: "POST",
    body: raw,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

/**
 * The simulator plays what PayPal does later to a subscription it holds (issue 27, part 3): the next period's
 * payment, a failed payment, the customer's cancellation or the end of term. Sends the signed notification to the
 * listener and waits until it is processed; returns its outcome, or null when the simulator sent nothing (PayPal
 * sends no more after a cancellation or the end).
 */
export async function simulatorPlays(
  app: Pick<TestApp, "services" | "db">,
  subscrId: string,
  what: "payment" | "failed" | "cancel" | "end",
): Promise<{ outcome: string | null; txnId?: string; raw?: string }> {
  const sent = await app.services.paypal.simulator.subscriptionEvent(subscrId, what);
  if (!sent.sent || !sent.raw) return { outcome: null };
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await app.db.pool.query(
      "select outcome from payment_events where raw = $1 and outcome <> 'received'",
      [sent.raw],
    );
    if (rows[0]) return { outcome: rows[0].outcome as string, txnId: sent.txnId, raw: sent.raw };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the simulator's ${what} notification was not processed in 10 s`);
}

/**
 * PayPal Checkout through the simulator (issue 34): the app's webhook registered as at its start, a checkout made for
 * an order at its price (or `amount`, a test's wrong one), and the buyer's approval on the simulator's page (`how`).
 * Answers the PayPal order id. The webhooks that follow reach the app's controller; wait with `noticesSettled`.
 */
export async function payWithCheckout(
  app: Pick<TestApp, "services" | "db" | "config">,
  orderId: string,
  options: { amount?: string; how?: { payer?: "paypal" | "card"; result?: "completed" | "pending" | "denied" } } = {},
): Promise<string> {
  const { payments } = app.services;
  await payments.registerWebhook();
  const { rows } = await app.db.pool.query("select number, package_name, package_price from orders where id = $1", [
    orderId,
  ]);
  const order = rows[0] as { number: string; package_name: string; package_price: string };
  const base = app.config.publicUrl;
  const { checkoutId } = await payments.provider!.createCheckout({
    orderId,
    orderNumber: order.number,
    description: order.package_name,
    amount: { currency: "USD", value: options.amount ?? Number(order.package_price).toFixed(2) },
    returnUrl: `${base}/received-payment/${orderId}`,
    cancelUrl: `${base}/order-cancelled/${orderId}`,
    requestId: `checkout-${orderId}-${options.amount ?? "1"}`,
  });
  await payments.simulator!.outcomes.approveOrder(checkoutId, options.how ?? {});
  return checkoutId;
}

/** Waits until every webhook the simulator sent was answered and no notice is still being applied. */
export async function noticesSettled(app: Pick<TestApp, "services" | "db">): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    await app.services.payments.simulator!.webhooksSent();
    const { rows } = await app.db.pool.query(
      `select (select count(*)::int from paypal_simulator_webhook_transmissions where sent_at is null) as unsent,
              (select count(*)::int from payment_notices where outcome = 'received') as applying`,
      [],
    );
    if (rows[0].unsent === 0 && rows[0].applying === 0) {
      await app.services.payments.simulator!.webhooksSent();
      const again = await app.db.pool.query(
        "select count(*)::int as n from paypal_simulator_webhook_transmissions where sent_at is null",
        [],
      );
      if (again.rows[0].n === 0) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the simulator's webhooks were not all applied in 10 s");
}
