import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { databaseBefore, statements } from "../support/migrations";

/**
 * The migration that moves Payments Standard's stored IPN messages into payment_notices (decision 069): every row kept,
 * its outcome in the notices' words, its notice type, subscription and amount read from the message; payment_events
 * gone.
 */
const TAG = "0036_ipn_messages_join_payment_notices";
const { admin } = inject("testDb");
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => ({ client, drop } = await databaseBefore(admin, TAG)));
afterAll(() => drop?.());

describe("migration of payment_events into payment_notices", () => {
  it("keeps every message with its outcome, notice type, subscription and amount", async () => {
    const order = "7d3f2d4e-0000-4000-8000-000000000001";
    const event = (raw: string, outcome: string, reason: string, status: string | null) =>
      client.query(
        `insert into payment_events (raw, txn_id, payment_status, order_id, outcome, reason, received_at)
         values ($1, null, $4, $5, $2, $3, now() - interval '1 day')`,
        [raw, outcome, reason, status, order],
      );
    await event(
      "payment_status=Completed&txn_id=T1&mc_gross=49.00&mc_currency=USD&ipn_track_id=k1",
      "applied",
      "order marked Paid",
      "Completed",
    );
    await event(
      "payment_status=Pending&txn_id=T2&mc_gross=49.00&mc_currency=USD",
      "pending",
      "payment pending: echeck",
      "Pending",
    );
    await event(
      "payment_status=Refunded&txn_id=R1&parent_txn_id=T1&mc_gross=-20.00&mc_currency=USD",
      "refunded",
      "Refunded",
      "Refunded",
    );
    await event(
      "txn_type=subscr_signup&subscr_id=I-OLD1&mc_amount3=0.01",
      "rejected",
      "amount 0.01 is not the order's",
      null,
    );
    await event(
      "txn_type=subscr_payment&subscr_id=I-OLD1&payment_status=Completed&txn_id=T3&mc_gross=29.00&mc_currency=USD",
      "duplicate",
      "already",
      "Completed",
    );
    await event("payment_status=Completed&txn_id=T4", "invalid", "PayPal answered INVALID", "Completed");
    await event("payment_status=Completed&txn_id=T5", "unverified", "verification failed: timeout", "Completed");
    await event(
      "payment_status=Completed&x=\\u0000",
      "rejected",
      "the notification holds a NUL character or an unpaired surrogate: not one of PayPal's",
      null,
    );
    await event("payment_status=Canceled_Reversal&txn_id=T6", "ignored", "changes nothing", "Canceled_Reversal");

    await client.query("begin");
    for (const s of statements(TAG)) await client.query(s);
    await client.query("commit");

    const { rows } = await client.query(
      `select event_type, notice_type, subscription_id, amount::text, currency, verdict, outcome, claimed_event_id
       from payment_notices where provider = 'paypal-ipn' order by raw`,
    );
    expect(rows).toHaveLength(9);
    const by = (eventType: string | null, outcome: string) =>
      rows.find((r) => r.event_type === eventType && r.outcome === outcome);
    expect(by("Completed", "applied")).toEqual({
      event_type: "Completed",
      notice_type: "payment.completed",
      subscription_id: null,
      amount: "49.00",
      currency: "USD",
      verdict: "accepted",
      outcome: "applied",
      claimed_event_id: "k1",
    });
    expect(by("Pending", "applied")).toMatchObject({ notice_type: "payment.pending" });
    expect(by("Refunded", "applied")).toMatchObject({ notice_type: "payment.refunded", amount: "20.00" });
    expect(by("subscr_signup", "refused")).toMatchObject({
      notice_type: "subscription.activated",
      subscription_id: "I-OLD1",
      verdict: "accepted",
    });
    expect(by("subscr_payment", "duplicate")).toMatchObject({ notice_type: "subscription.payment", amount: "29.00" });
    expect(by("Completed", "rejected")).toMatchObject({ verdict: "forged", notice_type: null });
    expect(by("Completed", "unverified")).toMatchObject({ verdict: "received", notice_type: null });
    expect(by("Canceled_Reversal", "ignored")).toMatchObject({ verdict: "ignored", notice_type: null });
    expect(rows.filter((r) => r.verdict === "malformed")).toHaveLength(1);
    expect((await client.query("select to_regclass('payment_events') as t")).rows[0].t).toBeNull();
  });
});
