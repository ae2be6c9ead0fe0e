import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { silentLogger } from "#server/lib/logger.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import type { Viewer } from "#server/services/accounts.ts";
import { createPayPalRestSimulator, type PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import type { TestApp } from "./app";
import type { E2EEnv } from "./e2e";
import type { CookieJar } from "./session";

/** Anything that runs a query: a pool, a client. */
interface Queryable {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * The built e2e server's own simulated PayPal, reached through its database, for a browser test to play what PayPal
 * does on its side (a refund in its dashboard, a pending payment clearing). Its webhooks go to that server: wait for
 * them (`webhooksSent`) before it stops.
 */
export function simulatedPayPalOf(env: Pick<E2EEnv, "db" | "server">): PayPalRestSimulator {
  return createPayPalRestSimulator({
    db: env.db.db,
    logger: silentLogger,
    now: () => new Date(),
    publicUrl: env.server.url,
    selfUrl: () => env.server.url,
  });
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
      "select outcome from payment_notices where raw = $1 and outcome <> 'received'",
      [sent.raw],
    );
    if (rows[0]) return { outcome: rows[0].outcome as string, txnId: sent.txnId, raw: sent.raw };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the simulator's ${what} notification was not processed in 10 s`);
}

/** A signed-in customer as the services see them (the pay screen's viewer). */
export const customerViewer = (id: string, email: string): Viewer => ({
  id,
  email,
  name: "",
  displayName: email,
  emailVerified: true,
  staffRole: null,
  isAdmin: false,
  twoFactorEnabled: false,
  twoFactorDue: false,
});

/**
 * PayPal Checkout through the simulator (issue 34), the way the pay screen starts it: the app's webhook registered as
 * at its start, the order's checkout made by the checkout service at the server's price (or, with `amount`, a
 * test's wrong one made straight at PayPal), and the buyer's approval on the simulator's page (`how`; `approve:
 * false` leaves it unapproved). Answers the PayPal order id. The webhooks that follow reach the app's controller; wait
 * with `noticesSettled`.
 */
export async function payWithCheckout(
  app: Pick<TestApp, "services" | "db" | "config">,
  orderId: string,
  options: {
    amount?: string;
    approve?: boolean;
    how?: { payer?: "paypal" | "card"; result?: "completed" | "pending" | "denied" };
  } = {},
): Promise<string> {
  const { payments } = app.services;
  await payments.registerWebhook();
  const { rows } = await app.db.pool.query(
    'select o.number, o.package_name, o.user_id, u.email from orders o join "user" u on u.id = o.user_id where o.id = $1',
    [orderId],
  );
  const order = rows[0] as { number: string; package_name: string; user_id: string; email: string };
  const base = app.config.publicUrl;
  const viewer = customerViewer(order.user_id, order.email);
  const { checkoutId } = options.amount
    ? await payments.provider!.createCheckout({
        orderId,
        orderNumber: order.number,
        description: order.package_name,
        amount: { currency: "USD", value: options.amount },
        returnUrl: `${base}/received-payment/${orderId}`,
        cancelUrl: `${base}/order-cancelled/${orderId}`,
        requestId: `wrong-amount-${orderId}`,
      })
    : await payments.checkout!.start(viewer, orderId);
  if (options.approve !== false) await payments.simulator!.outcomes.approveOrder(checkoutId, options.how ?? {});
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

/** The demo content (its packages among it) in the site, and one of its packages, "Basic" unless named. */
export async function demoPackage(app: Pick<TestApp, "services" | "request">, name = "Basic") {
  await app.services.content.insertMany(demoContent);
  const pricing = (await (await app.request("/api/pricings")).json()) as {
    _id: string;
    packagePrice: number;
    packageName: string;
    packageValidity: number;
  }[];
  return pricing.find((p) => p.packageName === name)!;
}

/** A customer's new unpaid order for a package, placed as the order form places it: its id. */
export async function placeOrderFor(
  app: Pick<TestApp, "request">,
  jar: CookieJar,
  packageId: string,
  discountCode?: string,
): Promise<string> {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId, customerName: "P", customerAddress: "A", customerCountry: "UK", discountCode },
    jar,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

/**
 * A customer's order for a package, paid on PayPal Checkout through the simulator (its webhooks applied) and delivered
 * by `staff`, so its membership days run: the refund suites' starting point. Answers the order's id.
 */
export async function paidOnCheckout(
  app: Pick<TestApp, "services" | "db" | "config" | "request">,
  jar: CookieJar,
  packageId: string,
  staff: { id: string; email: string },
): Promise<string> {
  const id = await placeOrderFor(app, jar, packageId);
  await payWithCheckout(app, id);
  await noticesSettled(app);
  await app.services.orders.setOrderStatus(id, { orderStatus: "Delivered" }, staff);
  return id;
}

/**
 * A Payments Standard subscription's IPN message as PayPal words it (what the IPN simulator sends, decision 046): its
 * sign-up (the order's terms), a period's payment (a new transaction), a failed payment, a cancellation or its end.
 * Legacy subscriptions keep arriving this way until they end (issue 34 part 5); tests start one without the pay screen.
 */
export function legacyIpn(
  o: { orderId: string; subscrId: string; price: number; validity: number; receiver: string },
  what: "subscr_signup" | "subscr_payment" | "subscr_failed" | "subscr_cancel" | "subscr_eot",
  overrides: Record<string, string | null> = {},
): string {
  const amount = o.price.toFixed(2);
  const common: Record<string, string> = {
    txn_type: what,
    subscr_id: o.subscrId,
    custom: o.orderId,
    invoice: o.orderId,
    business: o.receiver,
    receiver_email: o.receiver,
    item_number: "1",
    payer_email: "buyer@example.com",
    charset: "UTF-8",
    ipn_track_id: randomBytes(6).toString("hex"),
  };
  const byType: Record<typeof what, Record<string, string>> = {
    subscr_signup: { mc_amount3: amount, amount3: amount, period3: `${o.validity} D`, mc_currency: "USD" },
    subscr_payment: {
      txn_id: randomBytes(9).toString("hex").toUpperCase().slice(0, 17),
      payment_status: "Completed",
      mc_gross: amount,
      mc_currency: "USD",
    },
    subscr_failed: { mc_gross: amount, mc_currency: "USD" },
    subscr_cancel: {},
    subscr_eot: {},
  };
  return ipnBody({ ...common, ...byType[what] }, overrides);
}

/**
 * Sends an IPN message as PayPal really sent it (marked genuine, so the postback says VERIFIED) to the server at
 * `baseUrl` and waits until it is processed: its stored outcome.
 */
export async function sendLegacyIpn(db: Queryable, baseUrl: string, raw: string): Promise<string> {
  const settled = async () =>
    (
      (await db.query(
        "select outcome from payment_notices where raw = $1 and outcome not in ('received', 'unverified') order by received_at, id",
        [raw],
      )) as { rows: { outcome: string }[] }
    ).rows.map((r) => r.outcome);
  const before = (await settled()).length;
  await markGenuine(db, raw);
  const res = await fetch(`${baseUrl}/api/paypal/ipn`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: raw,
  });
  expect(res.status).toBe(200);
  for (let tries = 0; tries < 300; tries++) {
    const outcomes = await settled();
    if (outcomes.length > before) return outcomes.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the IPN message was not processed in 15 s");
}
