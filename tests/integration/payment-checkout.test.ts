import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_DOWN, RECONCILE_AFTER_MS } from "#server/services/payments/checkout.ts";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { customerViewer, demoPackage, noticesSettled, payWithCheckout, placeOrderFor } from "../support/paypal";

/**
 * Issue 34 part 2: one-time payments on PayPal Checkout through the checkout service: the checkout made at the
 * server's price, the capture on return idempotent with the webhook, the reconciliation job, PayPal down.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
let clock = new Date("2026-11-27T12:00:00Z");
let basic: { _id: string; packagePrice: number };
let customer: { id: string; email: string };
let jar: CookieJar;

beforeAll(async () => {
  app = await startTestApp({}, { now: () => clock });
  sim = app.services.payments.simulator!;
  basic = await demoPackage(app);
  jar = await signUp(app, "checkout-payer@example.org");
  const { rows } = await app.db.pool.query("select id, email from \"user\" where email = 'checkout-payer@example.org'");
  customer = rows[0];
  await app.services.payments.registerWebhook();
});
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

const placeOrder = () => placeOrderFor(app, jar, basic._id);
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const checkoutStatus = async (orderId: string) =>
  (await app.db.pool.query("select status from payment_checkouts where order_id = $1", [orderId])).rows[0]?.status;
const viewer = () => customerViewer(customer.id, customer.email);
const checkout = () => app.services.payments.checkout!;
const paidEntries = async (id: string) =>
  (
    await app.db.pool.query(
      "select count(*)::int as n from activity_log where record_id = $1 and changes->'paymentStatus'->>'after' = 'Paid'",
      [id],
    )
  ).rows[0].n as number;

describe("PayPal Checkout for one-time payments", () => {
  it("makes the PayPal order the spec's way: CAPTURE, the server's price, our number and id, no shipping, a request id", async () => {
    const id = await placeOrder();
    const before = sim.received().length;
    const { checkoutId, approveUrl } = await checkout().start(viewer(), id);
    expect(approveUrl).toContain(`/paypal-simulator/checkoutnow?token=${checkoutId}`);
    const made = await app.services.payments.paypal!.orders.get(checkoutId);
    const row = await orderRow(id);
    expect(made).toMatchObject({
      intent: "CAPTURE",
      purchase_units: [
        {
          custom_id: id,
          invoice_id: row.number,
          amount: { currency_code: "USD", value: basic.packagePrice.toFixed(2) },
        },
      ],
    });
    const create = sim
      .received()
      .slice(before)
      .find((c) => c.path === "/v2/checkout/orders");
    expect(create?.requestId).toBe(`checkout-${id}-2026-11-27`);
    // A double click makes the same PayPal order.
    expect((await checkout().start(viewer(), id)).checkoutId).toBe(checkoutId);
  });

  it("captures on return once: a reload and a double return change nothing more", async () => {
    const id = await placeOrder();
    sim.outcomes.holdWebhooks(true);
    const checkoutId = await payWithCheckout(app, id);
    const results = await Promise.all([
      checkout().returned(viewer(), id, checkoutId),
      checkout().returned(viewer(), id, checkoutId),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["applied", "duplicate"]);
    expect((await checkout().returned(viewer(), id, checkoutId)).outcome).toBe("waiting");
    expect((await orderRow(id)).payment_status).toBe("Paid");
    expect(await paidEntries(id)).toBe(1);
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
    expect(await paidEntries(id)).toBe(1);
  });

  it("the webhook first, then the return: one Paid", async () => {
    const id = await placeOrder();
    const checkoutId = await payWithCheckout(app, id);
    await noticesSettled(app);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    expect((await checkout().returned(viewer(), id, checkoutId)).outcome).toBe("waiting");
    expect(await paidEntries(id)).toBe(1);
  });

  it("another order's checkout, or another customer's order, captures nothing", async () => {
    const id = await placeOrder();
    const other = await placeOrder();
    sim.outcomes.holdWebhooks(true);
    const checkoutId = await payWithCheckout(app, other);
    expect((await checkout().returned(viewer(), id, checkoutId)).outcome).toBe("waiting");
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    await expect(
      checkout().returned(customerViewer(crypto.randomUUID(), "x@example.org"), other, checkoutId),
    ).rejects.toMatchObject({
      status: 404,
    });
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
  });

  it("PayPal down: the pay button says so, nothing is written, and the customer can try again", async () => {
    const id = await placeOrder();
    sim.fault({ path: "/v2/checkout/orders", status: 503, times: 3 });
    await expect(checkout().start(viewer(), id)).rejects.toMatchObject({ status: 503, message: PROVIDER_DOWN });
    const { rows } = await app.db.pool.query("select count(*)::int as n from payment_checkouts where order_id = $1", [
      id,
    ]);
    expect(rows[0].n).toBe(0);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    const again = await checkout().start(viewer(), id);
    expect(again.checkoutId).toBeTruthy();
  });

  it("refuses to start a payment for an order already paid", async () => {
    const id = await placeOrder();
    await payWithCheckout(app, id);
    await noticesSettled(app);
    await expect(checkout().start(viewer(), id)).rejects.toMatchObject({
      status: 409,
      message: "This order is Paid and needs no payment.",
    });
  });

  it("the buyer approves and closes the tab, the webhooks are lost: the reconciliation job pays the order", async () => {
    const id = await placeOrder();
    sim.outcomes.holdWebhooks(true);
    await payWithCheckout(app, id);
    expect(await checkout().reconcile()).toMatchObject({ paid: 0 }); // too early: the buyer may still come back
    clock = new Date(clock.getTime() + RECONCILE_AFTER_MS + 60_000);
    expect(await checkout().reconcile()).toMatchObject({ paid: 1 });
    expect((await orderRow(id)).payment_status).toBe("Paid");
    expect(await checkoutStatus(id)).toBe("captured");
    expect(await checkout().reconcile()).toMatchObject({ paid: 0 });
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
    expect(await paidEntries(id)).toBe(1);
  });

  it("a checkout never approved is given up after three hours", async () => {
    const id = await placeOrder();
    await payWithCheckout(app, id, { approve: false });
    clock = new Date(clock.getTime() + 3 * 60 * 60_000 + 60_000);
    expect((await checkout().reconcile()).abandoned).toBeGreaterThanOrEqual(1);
    expect(await checkoutStatus(id)).toBe("abandoned");
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
  });
});

describe("any order of capture, webhook, return and duplicate events ends in one Paid", () => {
  it("property: the same final state as the one correct order", { timeout: 120_000 }, async () => {
    type Step = "return" | "webhooks" | "resend" | "reconcile" | "return-again";
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray<Step>(["return", "webhooks", "resend", "reconcile", "return-again"], { minLength: 1 }),
        async (steps) => {
          runs++;
          const id = await placeOrder();
          sim.outcomes.holdWebhooks(true);
          const checkoutId = await payWithCheckout(app, id);
          for (const step of steps) {
            if (step === "return" || step === "return-again") await checkout().returned(viewer(), id, checkoutId);
            if (step === "webhooks") {
              await sim.outcomes.sendHeldWebhooks();
              await noticesSettled(app);
              sim.outcomes.holdWebhooks(true);
            }
            if (step === "resend") {
              const sent = (await sim.transmissions()).filter((t) => t.body.includes(checkoutId));
              for (const t of sent) await sim.outcomes.resendEvent(t.eventId);
            }
            if (step === "reconcile") {
              clock = new Date(clock.getTime() + RECONCILE_AFTER_MS + 60_000);
              await checkout().reconcile();
            }
          }
          await sim.outcomes.sendHeldWebhooks();
          await noticesSettled(app);
          // Whatever came first, the end is the correct order's end: Paid once, by one capture, one activity entry.
          const row = await orderRow(id);
          expect(row.payment_status).toBe("Paid");
          expect(row.txn_id).toBeTruthy();
          expect(await paidEntries(id)).toBe(1);
          const captures = (await app.services.payments.paypal!.orders.get(checkoutId)).purchase_units![0]!.payments!
            .captures!;
          expect(captures).toHaveLength(1);
          expect(captures[0]!.id).toBe(row.txn_id);
        },
      ),
      { numRuns: 12 },
    );
    console.info(`checkout event orders: ${runs} runs, each one Paid`);
  });
});
