import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { centsValue } from "#domain/refunds.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { handle } from "#server/services/payments/handlers/index.ts";
import { REFUND_IN_DASHBOARD, REFUND_PROVIDER_DOWN } from "#server/services/payments/refunds.ts";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import {
  customerViewer as viewerOf,
  demoPackage,
  noticesSettled,
  paidOnCheckout,
  payWithCheckout,
  placeOrderFor,
} from "../support/paypal";

/**
 * Issue 34 part 3 (decision 067): refunds from the order screen through PayPal (the simulator's REST API), recorded
 * once whichever comes first, our call's answer or the PAYMENT.CAPTURE.REFUNDED webhook.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
let clock = new Date("2026-11-28T09:00:00Z");
let basic: { _id: string; packagePrice: number };
let jar: CookieJar;
const admin = new CookieJar();
let editor: CookieJar;
let adminActor: { id: string; email: string };

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "refunds-admin@example.org", ADMIN_PASSWORD: "refunds-pass-1" },
    { now: () => clock },
  );
  sim = app.services.payments.simulator!;
  basic = await demoPackage(app);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  editor = await signUpStaff(app, app.db.pool, "refunds-editor@example.org", "Editor");
  jar = await signUp(app, "refunds-payer@example.org");
  const { rows } = await app.db.pool.query(`select id, email from "user" where email = 'refunds-admin@example.org'`);
  adminActor = rows[0];
});
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

const refunds = () => app.services.payments.refunds!;
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const refundRows = async (id: string) =>
  (
    await app.db.pool.query(
      "select refund_id, amount_cents, status, by_email, reason, note, applied_at from payment_refunds where order_id = $1 order by created_at",
      [id],
    )
  ).rows;
const mailsFor = async (email: string) =>
  (
    await app.db.pool.query(
      `select data->'mail'->>'subject' as subject, data->'mail'->>'text' as text from pgboss.job
       where name = 'send-mail' and data->'mail'->>'to' = $1 order by created_on`,
      [email],
    )
  ).rows as { subject: string; text: string }[];
const refundCalls = () => sim.received().filter((c) => c.path.endsWith("/refund"));
const post = (id: string, json: Record<string, unknown>, as: CookieJar | null = admin) =>
  app.request(`/api/order-refund/${id}`, { method: "POST", json, jar: as ?? undefined });
/** A delivered order of the customer's, paid on PayPal Checkout: its id and PayPal's capture id. */
const paidOrder = () => paidOnCheckout(app, jar, basic._id, adminActor);

describe("refunds from the order screen through PayPal", () => {
  it("in full: PayPal refunds the capture, one record by the staff member, the order Refunded without days, a mail", async () => {
    const id = await paidOrder();
    const before = await orderRow(id);
    expect(before.membership_valid).toBeTruthy();
    const res = await post(id, { amount: "", reason: "Customer asked", note: "Sorry it did not suit you.", seen: 0 });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ amount: "49.00", kind: "whole", status: "COMPLETED".toLowerCase() });
    await noticesSettled(app);
    const after = await orderRow(id);
    expect(after.payment_status).toBe("Refunded");
    expect(after.membership_valid).toBeNull();
    const rows = await refundRows(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_cents: 4900, status: "completed", by_email: adminActor.email });
    expect(rows[0].reason).toBe("Customer asked");
    const mails = await mailsFor("refunds-payer@example.org");
    const refunded = mails.filter((m) => m.subject.includes("was refunded"));
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.text).toContain("Sorry it did not suit you.");
    // PayPal's capture is refunded, with our note to the payer.
    const capture = (await app.services.payments.paypal!.captures.get(before.txn_id)) as { status: string };
    expect(capture.status).toBe("REFUNDED");
    // The webhook raced our answer: whichever came second only added to the one record.
    const { rows: notices } = await app.db.pool.query(
      "select outcome from payment_notices where order_id = $1 and notice_type = 'payment.refunded'",
      [id],
    );
    expect(notices).toHaveLength(1);
    expect(["applied", "duplicate"]).toContain(notices[0].outcome);
  });

  it("in part: the order stays Paid with its days, a part-refund mail with the note; the rest later makes it Refunded", async () => {
    const id = await paidOrder();
    const before = await orderRow(id);
    const part = await post(id, { amount: "10.50", reason: "Late delivery", note: "For the late start.", seen: 0 });
    expect(part.status, await part.clone().text()).toBe(201);
    expect(await part.json()).toMatchObject({ amount: "10.50", kind: "part" });
    await noticesSettled(app);
    const after = await orderRow(id);
    expect(after.payment_status).toBe("Paid");
    expect(after.membership_valid.getTime()).toBe(before.membership_valid.getTime());
    const panel = await refunds().panel(id);
    expect(panel).toMatchObject({
      rail: "checkout",
      refunded: "10.50",
      remaining: "38.50",
      kind: "part",
      state: "open",
    });
    const mails = (await mailsFor("refunds-payer@example.org")).filter((m) => m.subject.startsWith("$10.50"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("For the late start.");
    expect(mails[0]!.text).toContain("membership days stay");
    const rest = await post(id, { amount: "", seen: 1 });
    expect(rest.status, await rest.clone().text()).toBe(201);
    expect(await rest.json()).toMatchObject({ amount: "38.50", kind: "whole" });
    await noticesSettled(app);
    expect((await orderRow(id)).payment_status).toBe("Refunded");
    expect((await refundRows(id)).map((r) => r.amount_cents)).toEqual([1050, 3850]);
  });

  it("refuses a bad amount, more than is left, or a stale screen, with a sentence and no call to PayPal", async () => {
    const id = await paidOrder();
    const calls = refundCalls().length;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: "0" }, 400, "Enter an amount greater than zero."],
      [{ amount: "-3" }, 400, "Enter the amount in dollars, such as 25 or 25.50."],
      [{ amount: "1.005" }, 400, "Enter the amount with at most two decimals, such as 25.50."],
      [{ amount: "49.01" }, 400, "At most $49.00 is left to refund on this payment."],
      [{ amount: "5", note: "x".repeat(256) }, 400, "PayPal takes a note of at most 255 characters."],
      [{ amount: 10 }, 400, 'Enter the amount in dollars as text, such as \\"25.50\\".'],
      [{ amount: "5", seen: 3 }, 409, "A refund was recorded for this order since this page was opened"],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(await res.text()).toContain(message);
    }
    expect(refundCalls().length).toBe(calls);
    expect(await refundRows(id)).toEqual([]);
  });

  it("after PayPal's 180 days: refused before PayPal is asked, and the panel has no button", async () => {
    const id = await paidOrder();
    const saved = clock;
    try {
      clock = new Date(clock.getTime() + 181 * 86_400_000);
      const panel = await refunds().panel(id);
      expect(panel.state).toBe("too-late");
      expect(new Date(panel.deadline!).getTime()).toBe((await orderRow(id)).paid_at.getTime() + 180 * 86_400_000);
      const res = await post(id, { amount: "" });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain("PayPal refunds a payment only within 180 days");
    } finally {
      clock = saved;
    }
  });

  it("PayPal's own refusal is shown in PayPal's words, and nothing is recorded by it", async () => {
    const id = await paidOrder();
    const { txn_id: capture } = await orderRow(id);
    // Refunded in PayPal's dashboard while its webhook is late: our screen still thinks all is left.
    sim.outcomes.holdWebhooks(true);
    await sim.outcomes.refundInPayPal(capture);
    const res = await post(id, { amount: "5.00", seen: 0 });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("PayPal refused the refund: The capture has already been fully refunded");
    expect(await refundRows(id)).toEqual([]);
    // The late webhook records the dashboard's refund: "in PayPal", and the order Refunded.
    await sim.outcomes.sendHeldWebhooks();
    sim.outcomes.holdWebhooks(false);
    await noticesSettled(app);
    const rows = await refundRows(id);
    expect(rows).toMatchObject([{ amount_cents: 4900, by_email: null }]);
    expect((await orderRow(id)).payment_status).toBe("Refunded");
  });

  it("PayPal down: a clear try-again, nothing written; trying again refunds once", async () => {
    const id = await paidOrder();
    const { txn_id: capture } = await orderRow(id);
    sim.fault({ path: `/v2/payments/captures/${capture}/refund`, status: 503, times: 3 });
    const res = await post(id, { amount: "2.00", seen: 0 });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain(REFUND_PROVIDER_DOWN);
    expect(await refundRows(id)).toEqual([]);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    const again = await post(id, { amount: "2.00", seen: 0 });
    expect(again.status).toBe(201);
    await noticesSettled(app);
    expect(await refundRows(id)).toHaveLength(1);
  });

  it("a double submit (two tabs, a resent form) is one refund at PayPal and one record", async () => {
    const id = await paidOrder();
    const [a, b] = await Promise.all([post(id, { amount: "3.00", seen: 0 }), post(id, { amount: "3.00", seen: 0 })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const [ra, rb] = [(await a.json()) as { refundId: string }, (await b.json()) as { refundId: string }];
    expect(ra.refundId).toBe(rb.refundId);
    // The same form sent again after it succeeded: the screen it came from is stale.
    const resent = await post(id, { amount: "3.00", seen: 0 });
    expect(resent.status).toBe(409);
    await noticesSettled(app);
    expect(await refundRows(id)).toHaveLength(1);
    const { rows } = await app.db.pool.query(
      "select count(*)::int as n from paypal_simulator_rest_objects where kind = 'refund' and parent_id = $1",
      [(await orderRow(id)).txn_id],
    );
    expect(rows[0].n).toBe(1);
  });

  it("the webhook first, then our answer: one record, which then names the staff member; one mail", async () => {
    const id = await paidOrder();
    const { txn_id: capture } = await orderRow(id);
    // PayPal made the refund for our call, and its webhook came in before PayPal's answer to that call did.
    const made = (await sim.refundCapture(capture, { amount: { currency_code: "USD", value: "4.00" } }, "tab-1")) as {
      body: { id: string };
    };
    await noticesSettled(app);
    expect(await refundRows(id)).toMatchObject([{ amount_cents: 400, by_email: null, reason: null }]);
    // Then our answer, recorded by the same writer: the same record, now with who and why.
    const again = await refunds().record({
      provider: "paypal",
      refundId: made.body.id,
      orderId: id,
      paymentId: capture,
      amount: { currency: "USD", value: "4.00" },
      status: "completed",
      reason: "Goodwill",
      note: null,
      by: adminActor,
    });
    expect(again).toMatchObject({ created: false, applied: "no", kind: "part" });
    expect(await refundRows(id)).toMatchObject([{ amount_cents: 400, by_email: adminActor.email, reason: "Goodwill" }]);
    expect((await mailsFor("refunds-payer@example.org")).filter((m) => m.subject.startsWith("$4.00"))).toHaveLength(1);
    // The screen opened before the webhook is told a refund came meanwhile; PayPal is not asked again.
    const calls = refundCalls().length;
    expect((await post(id, { amount: "4.00", seen: 0 })).status).toBe(409);
    expect(refundCalls().length).toBe(calls);
  });

  it("our answer first, then the webhook (even resent): one record, applied once", async () => {
    const id = await paidOrder();
    sim.outcomes.holdWebhooks(true);
    const res = await post(id, { amount: "6.00", seen: 0 });
    expect(res.status).toBe(201);
    expect(await refundRows(id)).toHaveLength(1);
    await sim.outcomes.sendHeldWebhooks();
    sim.outcomes.holdWebhooks(false);
    await noticesSettled(app);
    const refundId = ((await res.json()) as { refundId: string }).refundId;
    const sent = (await sim.transmissions()).filter((t) => t.body.includes(refundId));
    for (const t of sent) await sim.outcomes.resendEvent(t.eventId);
    await noticesSettled(app);
    expect(await refundRows(id)).toHaveLength(1);
    const parts = (await mailsFor("refunds-payer@example.org")).filter((m) => m.subject.startsWith("$6.00"));
    expect(parts).toHaveLength(1);
  });

  it("a refund notice that comes before its payment is applied fails (PayPal sends it again) and is recorded after", async () => {
    const id = await placeOrderFor(app, jar, basic._id);
    sim.outcomes.holdWebhooks(true);
    const checkoutId = await payWithCheckout(app, id);
    // PayPal captured, and our side has not applied it (the answer was lost; the capture's notice is late)…
    const captured = await app.services.payments.paypal!.orders.capture(checkoutId, `capture-${checkoutId}`);
    const captureId = captured.purchase_units![0]!.payments!.captures![0]!.id;
    // …when a refund made in PayPal's dashboard is told first.
    const refund = (await sim.outcomes.refundInPayPal(captureId, { currency_code: "USD", value: "7.00" })) as {
      id: string;
    };
    const notice = {
      type: "payment.refunded" as const,
      eventId: `WH-${refund.id}`,
      occurredAt: new Date().toISOString(),
      orderId: id,
      refundId: refund.id,
      paymentId: captureId,
      amount: { currency: "USD", value: "7.00" },
      note: null,
    };
    const { payments } = app.services;
    const ctx = {
      db: app.db.db,
      orders: app.services.orders,
      subscriptions: app.services.subscriptions,
      provider: payments.provider!,
      refunds: payments.refunds!,
      receiver: null,
    };
    await expect(handle(notice, ctx)).rejects.toThrow(/not applied to order .* yet/);
    expect(await refundRows(id)).toEqual([]);
    // The payment is applied (the return, or its notice), then PayPal's resend of the refund is recorded.
    const { rows } = await app.db.pool.query(
      'select u.id, u.email from orders o join "user" u on u.id = o.user_id where o.id = $1',
      [id],
    );
    await payments.checkout!.returned(viewerOf(rows[0].id, rows[0].email), id, checkoutId);
    expect((await orderRow(id)).payment_status).toBe("Paid");
    expect(await handle(notice, ctx)).toMatchObject({ outcome: "applied" });
    expect(await refundRows(id)).toMatchObject([{ refund_id: refund.id, amount_cents: 700, by_email: null }]);
    await sim.outcomes.sendHeldWebhooks();
    sim.outcomes.holdWebhooks(false);
    await noticesSettled(app);
    expect(await refundRows(id)).toHaveLength(1);
  });

  it("the spec's Payment Status form still only records Refunded: PayPal is not asked, the panel says so", async () => {
    const id = await paidOrder();
    const calls = refundCalls().length;
    await app.services.orders.setPaymentStatus(id, { paymentStatus: "Refunded" }, adminActor);
    expect((await orderRow(id)).payment_status).toBe("Refunded");
    expect(refundCalls().length).toBe(calls);
    expect(await refunds().panel(id)).toMatchObject({ state: "not-paid", remaining: "49.00" });
    const res = await post(id, { amount: "", seen: 0 });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("This order is Refunded: only a paid order can be refunded.");
  });

  it("an order paid through Payments Standard is refunded in PayPal's dashboard, not here", async () => {
    const id = await placeOrderFor(app, jar, basic._id);
    await app.services.orders.pay(id, PAYPAL_ACTOR, `IPN-${id.slice(0, 8)}`);
    expect(await refunds().panel(id)).toMatchObject({ rail: "standard", state: "dashboard" });
    const res = await post(id, { amount: "" });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(REFUND_IN_DASHBOARD);
  });

  it("an erased customer's refunds keep their amounts and lose the note and the reason", async () => {
    const id = await paidOrder();
    expect(
      (await post(id, { amount: "1.00", reason: "Asked by Maya", note: "Dear Maya, as agreed.", seen: 0 })).status,
    ).toBe(201);
    const { rows } = await app.db.pool.query("select user_id from orders where id = $1", [id]);
    await app.services.privacy.eraseCustomer(rows[0].user_id, adminActor);
    expect(await refundRows(id)).toMatchObject([{ amount_cents: 100, reason: null, note: null }]);
    // The customer's remaining orders are gone with them: a new one for the next tests.
    jar = await signUp(app, "refunds-payer-2@example.org");
  });

  it("only the Admin refunds: an Editor, a customer and a visitor are refused, and PayPal is not asked", async () => {
    const id = await paidOrder();
    const calls = refundCalls().length;
    expect((await post(id, { amount: "1.00" }, editor)).status).toBe(403);
    expect((await post(id, { amount: "1.00" }, jar)).status).toBe(403);
    expect((await post(id, { amount: "1.00" }, null)).status).toBe(401);
    expect(refundCalls().length).toBe(calls);
    expect((await app.request(`/api/order-refunds/${id}`, { jar: editor })).status).toBe(403);
    const panel = await app.request(`/api/order-refunds/${id}`, { jar: admin });
    expect(panel.status).toBe(200);
    expect(await panel.json()).toMatchObject({ rail: "checkout", remaining: "49.00", state: "open" });
  });
});

describe("any order of capture, return, refund, reversal, webhook and duplicate events ends in the one correct state", () => {
  it(
    "property: PayPal's refunds recorded once each, the order as the payment, refunds and reversal make it",
    { timeout: 300_000 },
    async () => {
      type Step =
        | "return"
        | "refund-part"
        | "refund-dashboard"
        | "refund-rest"
        | "double-submit"
        | "reverse"
        | "webhooks"
        | "resend";
      const all: Step[] = [
        "return",
        "refund-part",
        "refund-dashboard",
        "refund-rest",
        "double-submit",
        "reverse",
        "webhooks",
        "resend",
      ];
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(fc.shuffledSubarray(all, { minLength: 1 }), async (steps) => {
          runs++;
          // The buyer approved at PayPal; nothing of it has reached us yet.
          const id = await placeOrderFor(app, jar, basic._id);
          sim.outcomes.holdWebhooks(true);
          const checkoutId = await payWithCheckout(app, id);
          const { rows: owners } = await app.db.pool.query(
            'select o.user_id, u.email from orders o join "user" u on u.id = o.user_id where o.id = $1',
            [id],
          );
          const owner = viewerOf(owners[0].user_id, owners[0].email);
          // PayPal's capture, once someone asked for it (the return, or the approved webhook).
          const capture = async () =>
            (await app.services.payments.paypal!.orders.get(checkoutId)).purchase_units![0]!.payments?.captures?.[0]
              ?.id;
          // The order screen as opened now: it shows the refunds recorded so far.
          const screen = async (amount: string) => post(id, { amount, seen: (await refundRows(id)).length });
          // PayPal refuses what cannot be refunded (not captured, reversed, refunded in full): part of the play.
          const atPayPal = async (play: (captureId: string) => Promise<unknown>) => {
            const c = await capture();
            if (c) await play(c).catch(() => undefined);
          };
          for (const step of steps) {
            if (step === "return") await app.services.payments.checkout!.returned(owner, id, checkoutId);
            if (step === "refund-part") await screen("10.00");
            if (step === "refund-rest") await screen("");
            if (step === "double-submit") {
              const seen = (await refundRows(id)).length;
              await Promise.all([post(id, { amount: "2.00", seen }), post(id, { amount: "2.00", seen })]);
            }
            if (step === "refund-dashboard")
              await atPayPal((c) => sim.outcomes.refundInPayPal(c, { currency_code: "USD", value: "5.00" }));
            if (step === "reverse") await atPayPal((c) => sim.outcomes.reverseCapture(c));
            if (step === "webhooks") {
              await sim.outcomes.sendHeldWebhooks();
              await noticesSettled(app);
              sim.outcomes.holdWebhooks(true);
            }
            if (step === "resend") {
              const sent = (await sim.transmissions()).filter(
                (t) => t.body.includes(checkoutId) || t.body.includes(id),
              );
              for (const t of sent) await sim.outcomes.resendEvent(t.eventId);
            }
          }
          await sim.outcomes.sendHeldWebhooks();
          sim.outcomes.holdWebhooks(false);
          await noticesSettled(app);
          // PayPal sends again what we failed to apply (a refund that came before its payment was applied).
          for (let round = 0; round < 3; round++) {
            const latest = new Map<string, number | null>();
            for (const t of await sim.transmissions()) latest.set(t.eventId, t.answeredStatus);
            const failed = [...latest].filter(([, status]) => status !== null && status >= 500).map(([e]) => e);
            if (!failed.length) break;
            for (const e of failed) await sim.outcomes.resendEvent(e);
            await noticesSettled(app);
          }
          const captureId = await capture();
          expect(captureId).toBeTruthy();
          // What PayPal did: its refunds of the capture (each told by one REFUNDED event) and whether it was reversed.
          const events = (await sim.transmissions())
            .map(
              (t) =>
                JSON.parse(t.body) as {
                  event_type: string;
                  resource: { id: string; amount: { value: string }; links?: { href: string }[] };
                },
            )
            .filter((e) => JSON.stringify(e.resource.links ?? []).includes(captureId!));
          const refundsAtPayPal = new Map(
            events
              .filter((e) => e.event_type === "PAYMENT.CAPTURE.REFUNDED")
              .map((e) => [e.resource.id, e.resource.amount.value]),
          );
          const reversed = events.some((e) => e.event_type === "PAYMENT.CAPTURE.REVERSED");
          const rows = await refundRows(id);
          expect(new Map(rows.map((r) => [r.refund_id, centsValue(r.amount_cents)]))).toEqual(refundsAtPayPal);
          expect(rows.every((r) => r.applied_at !== null)).toBe(true);
          const total = rows.reduce((sum, r) => sum + r.amount_cents, 0);
          const order = await orderRow(id);
          const refunded = reversed || total >= 4900;
          expect(order.txn_id).toBe(captureId);
          expect(order.payment_status).toBe(refunded ? "Refunded" : "Paid");
          if (refunded) expect(order.membership_valid).toBeNull();
          const count = async (status: string) =>
            (
              await app.db.pool.query(
                "select count(*)::int as n from activity_log where record_id = $1 and changes->'paymentStatus'->>'after' = $2",
                [id, status],
              )
            ).rows[0].n;
          expect(await count("Paid")).toBe(1);
          expect(await count("Refunded")).toBe(refunded ? 1 : 0);
        }),
        { numRuns: 20 },
      );
      console.info(`payment and refund event orders: ${runs} runs, each in its one correct state`);
    },
  );
});
