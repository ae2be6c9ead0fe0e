import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { markGenuine } from "../support/paypal";

/**
 * Issue 27, part 5: the studio sees subscriptions and marks one cancelled. A subscription is made as PayPal's notices
 * make it (the verified listener, the simulator's postback saying VERIFIED for what `genuine` marked as sent); the call
 * POST /api/subscriptions/:id/cancel is checked with every role, and what the record, the desk and the order screen read.
 */
const NOW = new Date("2026-11-25T15:00:00Z");
let app: TestApp;
let basic: { _id: string; packagePrice: number; packageValidity: number };
const jars = { customer: new CookieJar(), other: new CookieJar(), editor: new CookieJar(), admin: new CookieJar() };
const STAFF = { id: "staff-test", email: "studio@example.org" };

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-12", PAYPAL_RECEIVER_EMAIL: "shop@example.org" },
    { now: () => NOW },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  const pricing = (await (await app.request("/api/pricings")).json()) as (typeof basic & { packageName: string })[];
  basic = pricing.find((p) => p.packageName === "Basic")!;
  jars.customer = await signUp(app, "subscriber@example.org");
  jars.other = await signUp(app, "other@example.org");
  jars.editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
  jars.admin = await signInAsAdmin(app);
});
afterAll(() => app?.close());

/** A subscription notice as PayPal words it. */
function notice(orderId: string, subscrId: string, txnType: string) {
  const amount = basic.packagePrice.toFixed(2);
  return new URLSearchParams({
    txn_type: txnType,
    subscr_id: subscrId,
    custom: orderId,
    receiver_email: "shop@example.org",
    business: "shop@example.org",
    ipn_track_id: randomBytes(6).toString("hex"),
    ...(txnType === "subscr_signup"
      ? { mc_amount3: amount, period3: `${basic.packageValidity} D`, mc_currency: "USD" }
      : {
          payment_status: "Completed",
          mc_gross: amount,
          mc_currency: "USD",
          txn_id: `S${randomBytes(7).toString("hex").toUpperCase()}`,
        }),
  }).toString();
}
/** Sends a notice the simulator really sent (its digest recorded), through the listener. */
async function send(raw: string) {
  await markGenuine(app.db.pool, raw);
  return app.services.payments.ipn.handle(raw);
}
const q = async (text: string, values: unknown[] = []) => (await app.db.pool.query(text, values)).rows;

/** The customer subscribes: order placed, signed up, first payment, delivered; then one period's renewal. */
async function subscribed() {
  const placed = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: basic._id, customerName: "Sue", customerAddress: "A", customerCountry: "UK" },
    jar: jars.customer,
  });
  const orderId = ((await placed.json()) as { insertedId: string }).insertedId;
  const subscrId = `I-S${randomBytes(6).toString("hex").toUpperCase()}`;
  expect(await send(notice(orderId, subscrId, "subscr_signup"))).toBe("applied");
  expect(await send(notice(orderId, subscrId, "subscr_payment"))).toBe("applied");
  await app.services.orders.setOrderStatus(orderId, { orderStatus: "Delivered" }, STAFF);
  expect(await send(notice(orderId, subscrId, "subscr_payment"))).toBe("applied");
  const [row] = await q("select id, user_id from subscriptions where subscr_id = $1", [subscrId]);
  const [renewal] = await q("select id from orders where subscr_id = $1", [subscrId]);
  return { orderId, subscrId, id: row.id as string, userId: row.user_id as string, renewalId: renewal.id as string };
}

describe("what the studio reads", () => {
  it("the record's subscriptions, the desk's page and the order screen: status, payments so far, next payment", async () => {
    const s = await subscribed();
    const [view] = await app.services.subscriptions.forUser(s.userId);
    expect(view).toMatchObject({
      id: s.id,
      orderId: s.orderId,
      userId: s.userId,
      customerEmail: "subscriber@example.org",
      status: "active",
      payments: 2,
      amount: basic.packagePrice,
      cancelledAt: null,
    });
    // PayPal's schedule: the first payment plus two periods of the package's days.
    const [first] = await q("select paid_at from orders where id = $1", [s.orderId]);
    expect(view!.nextPaymentAt).toEqual(
      new Date((first.paid_at as Date).getTime() + 2 * basic.packageValidity * 86_400_000),
    );
    // The desk: three reads for a page of orders tell the starting order from the renewal, with the subscription's
    // status, payments so far and next payment; others have nothing.
    const [plain] = await q("select id from orders where subscr_id is null and id <> $1 limit 1", [s.orderId]);
    const kinds = await app.services.subscriptions.kindsOf([s.orderId, s.renewalId, plain?.id ?? randomUUID(), "x"]);
    const facts = {
      status: "active",
      view: expect.objectContaining({ id: s.id, payments: 2, nextPaymentAt: view!.nextPaymentAt }),
    };
    expect([...kinds.entries()].sort()).toEqual(
      [
        [s.orderId, { kind: "started", ...facts }],
        [s.renewalId, { kind: "renewal", ...facts }],
      ].sort(),
    );
    // The order screen: the renewal names its subscription.
    expect(await app.services.subscriptions.ofOrder(s.renewalId)).toMatchObject({ id: s.id, kind: "renewal" });
    expect(await app.services.subscriptions.ofOrder(s.orderId)).toMatchObject({ id: s.id, kind: "started" });
    expect(await app.services.subscriptions.ofOrder(randomUUID())).toBeNull();
  });
});

describe("POST /api/subscriptions/:id/cancel", () => {
  it("a Payments Standard one is the Admin's alone; marks an active subscription cancelled once, audited; no renewal follows", async () => {
    const s = await subscribed();
    const call = (id: string, jar?: CookieJar) =>
      app.request(`/api/subscriptions/${id}/cancel`, { method: "POST", json: {}, jar });
    // Every role but the Admin is refused; its subscriber is told to cancel it in PayPal (the REST API cannot reach a
    // Payments Standard subscription, decision 070), another customer does not see it; nothing changes.
    for (const [jar, status] of [
      [undefined, 401],
      [jars.customer, 409],
      [jars.other, 404],
      [jars.editor, 403],
    ] as const)
      expect((await call(s.id, jar)).status).toBe(status);
    expect((await q("select status from subscriptions where id = $1", [s.id]))[0].status).toBe("active");
    // Unknown and malformed ids: 404.
    for (const id of [randomUUID(), "not-a-uuid", "00000000-0000-0000-0000-000000000000"])
      expect((await call(id, jars.admin)).status).toBe(404);

    const res = await call(s.id, jars.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ acknowledged: true, modified: true, modifiedCount: 1 });
    const [row] = await q("select status, cancelled_at, cancelled_by from subscriptions where id = $1", [s.id]);
    expect(row).toMatchObject({ status: "cancelled", cancelled_by: "owner@example.org" });
    expect(row.cancelled_at).toEqual(NOW);
    const log = await q(
      "select action from activity_log where entity = 'subscription' and record_id = $1 and actor_email = $2",
      [s.id, "owner@example.org"],
    );
    expect(log).toEqual([{ action: "update" }]);
    // Again: nothing to do, 200 with modified false.
    const again = await call(s.id, jars.admin);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ modified: false, modifiedCount: 0 });

    // PayPal takes one more payment anyway: refused, no order, no day.
    const before = await q("select count(*)::int as n from orders where user_id = $1", [s.userId]);
    expect(await send(notice(s.orderId, s.subscrId, "subscr_payment"))).not.toBe("applied");
    expect(await q("select count(*)::int as n from orders where user_id = $1", [s.userId])).toEqual(before);
    const [view] = (await app.services.subscriptions.forUser(s.userId)).filter((v) => v.id === s.id);
    expect(view).toMatchObject({ status: "cancelled", cancelledBy: "owner@example.org", nextPaymentAt: null });
  });
});
