import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { customerViewer, demoPackage, noticesSettled, payWithCheckout, placeOrderFor } from "../support/paypal";

/**
 * Issue 34 ("Faults"): the forgery and replay matrix of PayPal's REST webhooks, like the IPN one
 * (ipn-faults.test.ts), over every event type we act on (Checkout's and the Subscriptions API's): each genuine event is
 * held back, forgeries of it are posted
 * (unsigned, a header missing, a signature made up or borrowed, the body changed, the time, certificate or algorithm
 * changed, a new event id), then the genuine one and its replays. Nothing forged applies; the genuine applies once.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
let basic: { _id: string; packagePrice: number };
/** A package that renews automatically, for the subscription events. */
let renewing: { _id: string };
let jar: CookieJar;
let payer: { id: string; email: string };
const WEBHOOK = "/api/payments/paypal/webhook";
const tally = { cases: 0, wronglyApplied: [] as string[], replays: 0 };

beforeAll(async () => {
  app = await startTestApp();
  sim = app.services.payments.simulator!;
  basic = await demoPackage(app);
  jar = await signUp(app, "forgery-payer@example.org");
  const pricing = (await (await app.request("/api/pricings")).json()) as {
    _id: string;
    packagePrice: number;
    packageValidity: number;
  }[];
  renewing = pricing.find((p) => p._id !== basic._id && p.packagePrice > 0 && p.packageValidity <= 365)!;
  await app.db.pool.query(`update content_entries set data = data || '{"autoRenew": true}'::jsonb where id = $1`, [
    renewing._id,
  ]);
  const { rows } = await app.db.pool.query('select id, email from "user" where email = $1', [
    "forgery-payer@example.org",
  ]);
  payer = rows[0];
  await app.services.payments.registerWebhook();
});
afterAll(async () => {
  console.info(
    `REST webhook forgery and replay matrix: ${tally.cases} forgeries, ${tally.wronglyApplied.length} wrongly applied; ${tally.replays} replays applied once`,
  );
  await sim?.webhooksSent();
  await app?.close();
});

const placeOrder = () => placeOrderFor(app, jar, basic._id);
/** An order as the notices may change it: its payment, and the subscription it started with its renewals. */
const state = async (id: string) =>
  (
    await app.db.pool.query(
      `select o.payment_status, o.provider_status, o.txn_id, s.status as subscription, s.last_failed_at,
         (select count(*)::int from orders r where r.subscr_id = s.subscr_id) as renewals
       from orders o left join subscriptions s on s.order_id = o.id where o.id = $1`,
      [id],
    )
  ).rows[0];
/** A subscription to the renewing package, started from a new order: the order's id and PayPal's subscription id. */
async function subscription(): Promise<{ id: string; subscriptionId: string }> {
  const id = await placeOrderFor(app, jar, renewing._id);
  const { subscriptionId } = await app.services.payments.subscribe!.start(customerViewer(payer.id, payer.email), id);
  return { id, subscriptionId };
}
/** A running subscription (approved, its first payment applied), then `later` played with its webhooks held. */
const running = (later: (subscriptionId: string) => Promise<unknown>) => async () => {
  const { id, subscriptionId } = await subscription();
  await sim.outcomes.approveSubscription(subscriptionId);
  await noticesSettled(app);
  sim.outcomes.holdWebhooks(true);
  await later(subscriptionId);
  return id;
};
/** A subscription approved with its webhooks (ACTIVATED, the first PAYMENT.SALE.COMPLETED) held. */
const approvedHeld = async () => {
  const { id, subscriptionId } = await subscription();
  sim.outcomes.holdWebhooks(true);
  await sim.outcomes.approveSubscription(subscriptionId);
  return id;
};
const captureOf = async (checkoutId: string) =>
  (await app.services.payments.paypal!.orders.get(checkoutId)).purchase_units![0]!.payments!.captures![0]!.id;

interface Transmission {
  body: string;
  headers: Record<string, string>;
}
/** The held transmission of an event type, with PayPal's headers, as PayPal would post it. */
async function held(eventType: string): Promise<Transmission> {
  const t = (await sim.transmissions()).filter((x) => JSON.parse(x.body).event_type === eventType).at(-1)!;
  return {
    body: t.body,
    headers: {
      "content-type": "application/json",
      "paypal-transmission-id": t.id,
      "paypal-transmission-time": t.transmissionTime,
      "paypal-transmission-sig": t.signature,
      "paypal-cert-url": `${app.url}/paypal-simulator/rest/v1/notifications/certs/CERT-SIMULATOR-1`,
      "paypal-auth-algo": "SHA256withRSA",
    },
  };
}
const post = (t: Transmission) => app.request(WEBHOOK, { method: "POST", body: t.body, headers: t.headers });
const without = (h: Record<string, string>, name: string) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => k !== name));
/** A PayPal event as a forger edits it. */
interface Event {
  id: string;
  event_type: string;
  resource: { id: string; amount?: { value: string } };
}
const edit = (body: string, change: (event: Event) => void) => {
  const event = JSON.parse(body) as Event;
  change(event);
  return JSON.stringify(event);
};

/** Every forgery of one genuine transmission, with the status the endpoint must answer. */
function forgeries(t: Transmission, borrowed: Transmission, otherOrder: string): [string, Transmission, number][] {
  return [
    ["unsigned", { body: t.body, headers: { "content-type": "application/json" } }, 400],
    ...[
      "paypal-transmission-id",
      "paypal-transmission-time",
      "paypal-transmission-sig",
      "paypal-cert-url",
      "paypal-auth-algo",
    ].map((h): [string, Transmission, number] => [
      `without ${h}`,
      { body: t.body, headers: without(t.headers, h) },
      400,
    ]),
    [
      "a made-up signature",
      { body: t.body, headers: { ...t.headers, "paypal-transmission-sig": randomBytes(256).toString("base64") } },
      401,
    ],
    [
      "another transmission's signature",
      {
        body: t.body,
        headers: { ...t.headers, "paypal-transmission-sig": borrowed.headers["paypal-transmission-sig"]! },
      },
      401,
    ],
    [
      "another transmission's id",
      {
        body: t.body,
        headers: { ...t.headers, "paypal-transmission-id": borrowed.headers["paypal-transmission-id"]! },
      },
      401,
    ],
    [
      "a made-up transmission id",
      { body: t.body, headers: { ...t.headers, "paypal-transmission-id": randomUUID() } },
      401,
    ],
    [
      "the time changed",
      { body: t.body, headers: { ...t.headers, "paypal-transmission-time": new Date(0).toISOString() } },
      401,
    ],
    [
      "a certificate elsewhere",
      { body: t.body, headers: { ...t.headers, "paypal-cert-url": "https://attacker.example/cert.pem" } },
      401,
    ],
    ["another algorithm", { body: t.body, headers: { ...t.headers, "paypal-auth-algo": "SHA1withRSA" } }, 401],
    ["a new event id", { body: edit(t.body, (e) => (e.id = `WH-${randomUUID()}`)), headers: t.headers }, 401],
    [
      "the amount changed",
      {
        body: edit(t.body, (e) => {
          if (e.resource.amount) e.resource.amount.value = "0.01";
          e.resource.id += "X";
        }),
        headers: t.headers,
      },
      401,
    ],
    [
      "another of our orders",
      {
        body: t.body
          .split(
            JSON.parse(t.body).resource.custom_id ??
              JSON.parse(t.body).resource.custom ??
              JSON.parse(t.body).resource.purchase_units?.[0]?.custom_id,
          )
          .join(otherOrder),
        headers: t.headers,
      },
      401,
    ],
    [
      "the event type changed",
      {
        body: edit(
          t.body,
          (e) =>
            (e.event_type =
              "PAYMENT.CAPTURE.COMPLETED" === e.event_type ? "PAYMENT.CAPTURE.REFUNDED" : "PAYMENT.CAPTURE.COMPLETED"),
        ),
        headers: t.headers,
      },
      401,
    ],
  ];
}

/** Each Checkout event type, from an order in the state before it: the order's id and the held event type. */
const scenarios: [string, () => Promise<string>][] = [
  [
    "CHECKOUT.ORDER.APPROVED",
    async () => {
      const id = await placeOrder();
      sim.outcomes.holdWebhooks(true);
      await payWithCheckout(app, id);
      return id;
    },
  ],
  [
    "PAYMENT.CAPTURE.COMPLETED",
    async () => {
      const id = await placeOrder();
      sim.outcomes.holdWebhooks(true);
      const checkoutId = await payWithCheckout(app, id);
      await app.services.payments.paypal!.orders.capture(checkoutId);
      return id;
    },
  ],
  [
    "PAYMENT.CAPTURE.PENDING",
    async () => {
      const id = await placeOrder();
      sim.outcomes.holdWebhooks(true);
      const checkoutId = await payWithCheckout(app, id, { how: { result: "pending" } });
      await app.services.payments.paypal!.orders.capture(checkoutId);
      return id;
    },
  ],
  [
    "PAYMENT.CAPTURE.DECLINED",
    async () => {
      const id = await placeOrder();
      sim.outcomes.holdWebhooks(true);
      const checkoutId = await payWithCheckout(app, id, { how: { result: "denied" } });
      await app.services.payments.paypal!.orders.capture(checkoutId);
      return id;
    },
  ],
  [
    "PAYMENT.CAPTURE.DENIED",
    async () => {
      const id = await placeOrder();
      sim.outcomes.holdWebhooks(true);
      const checkoutId = await payWithCheckout(app, id, { how: { result: "pending" } });
      await app.services.payments.paypal!.orders.capture(checkoutId);
      await sim.outcomes.settleCapture(await captureOf(checkoutId), "DENIED");
      return id;
    },
  ],
  [
    "PAYMENT.CAPTURE.REFUNDED",
    async () => {
      const id = await placeOrder();
      const checkoutId = await payWithCheckout(app, id);
      await noticesSettled(app);
      sim.outcomes.holdWebhooks(true);
      await sim.outcomes.refundInPayPal(await captureOf(checkoutId));
      return id;
    },
  ],
  [
    "PAYMENT.CAPTURE.REVERSED",
    async () => {
      const id = await placeOrder();
      const checkoutId = await payWithCheckout(app, id);
      await noticesSettled(app);
      sim.outcomes.holdWebhooks(true);
      await sim.outcomes.reverseCapture(await captureOf(checkoutId));
      return id;
    },
  ],
  ["BILLING.SUBSCRIPTION.ACTIVATED", approvedHeld],
  ["PAYMENT.SALE.COMPLETED", approvedHeld],
  ["BILLING.SUBSCRIPTION.PAYMENT.FAILED", running((s) => sim.outcomes.failSubscriptionPayment(s))],
  ["BILLING.SUBSCRIPTION.CANCELLED", running((s) => sim.outcomes.setSubscriptionStatus(s, "CANCELLED"))],
  ["BILLING.SUBSCRIPTION.SUSPENDED", running((s) => sim.outcomes.setSubscriptionStatus(s, "SUSPENDED"))],
  ["BILLING.SUBSCRIPTION.EXPIRED", running((s) => sim.outcomes.setSubscriptionStatus(s, "EXPIRED"))],
];

describe("the REST webhook forgery and replay matrix", () => {
  it.each(scenarios)(
    "%s: every forgery changes nothing; the genuine one and its replays apply once",
    async (type, setUp) => {
      const id = await setUp();
      await sim.webhooksSent();
      const genuine = await held(type);
      // Another order's approval, held too: its signature and transmission id are borrowed.
      const borrowedFrom = await placeOrder();
      await payWithCheckout(app, borrowedFrom);
      await sim.webhooksSent();
      const borrowed = (await sim.transmissions()).find((x) => !x.sentAt && x.body.includes(borrowedFrom))!;
      const other = await placeOrder();
      const before = await state(id);
      const answers: string[] = [];
      for (const [name, forged, status] of forgeries(
        genuine,
        borrowed
          ? {
              body: borrowed.body,
              headers: { "paypal-transmission-sig": borrowed.signature, "paypal-transmission-id": borrowed.id },
            }
          : genuine,
        other,
      )) {
        tally.cases++;
        const res = await post(forged);
        // A changed event type may no longer parse as its resource: refused as malformed (400) before the signature.
        if (res.status !== status && !(name === "the event type changed" && res.status === 400))
          answers.push(`${name}: ${res.status}, not ${status}`);
        if (
          JSON.stringify(await state(id)) !== JSON.stringify(before) ||
          (await state(other)).payment_status !== "UnPaid"
        )
          tally.wronglyApplied.push(`${type}: ${name}`);
      }
      expect(answers).toEqual([]);
      expect(tally.wronglyApplied).toEqual([]);
      const eventId = JSON.parse(genuine.body).id as string;
      const { rows: forgedRows } = await app.db.pool.query(
        "select count(*)::int as n from payment_notices where event_id is null and outcome = 'rejected' and claimed_event_id is not null",
      );
      expect(forgedRows[0].n).toBeGreaterThan(0);

      // The genuine one, posted three times at once, then sent by PayPal and resent: one notice, applied once.
      const answered = await Promise.all([post(genuine), post(genuine), post(genuine)]);
      expect(answered.map((a) => a.status)).toEqual([200, 200, 200]);
      await sim.outcomes.sendHeldWebhooks();
      await sim.outcomes.resendEvent(eventId);
      await noticesSettled(app);
      const { rows } = await app.db.pool.query(
        "select outcome, times_received from payment_notices where provider = 'paypal' and event_id = $1",
        [eventId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].times_received).toBeGreaterThanOrEqual(4);
      expect(rows[0].outcome).not.toBe("failed");
      // And the genuine one did what it says (the order paid, pending, refunded; the subscription recorded, failed,
      // stopped or ended): a matrix whose genuine events changed nothing would prove nothing.
      expect(JSON.stringify(await state(id))).not.toBe(JSON.stringify(before));
      tally.replays++;
    },
  );
});
