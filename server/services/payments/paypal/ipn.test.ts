import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IPN_NOTICES, ipnNotice } from "./ipn";

const ORDER = "7d3f2d4e-0000-4000-8000-000000000001";
const body = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const subscriptionMessage = (txnType: string, extra: Record<string, string> = {}) =>
  body({
    txn_type: txnType,
    subscr_id: "I-LEGACY0001",
    custom: ORDER,
    receiver_email: "shop@example.org",
    ipn_track_id: "track-1",
    mc_currency: "USD",
    ...extra,
  });
const paymentMessage = (status: string, extra: Record<string, string> = {}) =>
  body({
    payment_status: status,
    txn_id: "TXN-1",
    custom: ORDER,
    mc_gross: "49.00",
    mc_currency: "USD",
    ipn_track_id: "track-2",
    ...extra,
  });

describe("IPN messages → notices (one table, decision 069)", () => {
  it.each([
    ["subscr_signup", "subscription.activated"],
    ["subscr_failed", "subscription.payment-failed"],
    ["recurring_payment_failed", "subscription.payment-failed"],
    ["recurring_payment_skipped", "subscription.payment-failed"],
    ["subscr_cancel", "subscription.cancelled"],
    ["recurring_payment_profile_cancel", "subscription.cancelled"],
    ["subscr_eot", "subscription.expired"],
    ["recurring_payment_expired", "subscription.expired"],
  ])("%s is %s, of the subscription and the order it names", (txnType, type) => {
    expect(ipnNotice(subscriptionMessage(txnType), "row-1")).toEqual({
      kind: "notice",
      notice: { type, subscriptionId: "I-LEGACY0001", orderId: ORDER, eventId: "track-1", occurredAt: "" },
    });
  });

  it("a subscription payment: completed or pending, its transaction and amount; recurring_payment_id names it too", () => {
    const paid = ipnNotice(
      subscriptionMessage("subscr_payment", { payment_status: "Completed", txn_id: "TXN-9", mc_gross: "29.00" }),
      "row-1",
    );
    expect(paid).toMatchObject({
      kind: "notice",
      notice: {
        type: "subscription.payment",
        subscriptionId: "I-LEGACY0001",
        paymentId: "TXN-9",
        amount: { currency: "USD", value: "29.00" },
        status: "completed",
      },
    });
    const waiting = ipnNotice(
      body({
        txn_type: "recurring_payment",
        recurring_payment_id: "I-RECUR0001",
        payment_status: "Pending",
        pending_reason: "echeck",
        txn_id: "TXN-10",
        mc_gross: "29.00",
        mc_currency: "USD",
      }),
      "row-2",
    );
    expect(waiting).toMatchObject({
      kind: "notice",
      notice: { subscriptionId: "I-RECUR0001", status: "pending", reason: "echeck", eventId: "TXN-10" },
    });
  });

  it("one-time payments by their status: completed, pending (with why), denied", () => {
    expect(ipnNotice(paymentMessage("Completed"), "row")).toEqual({
      kind: "notice",
      notice: {
        type: "payment.completed",
        paymentId: "TXN-1",
        checkoutId: null,
        amount: { currency: "USD", value: "49.00" },
        orderId: ORDER,
        eventId: "track-2",
        occurredAt: "",
      },
    });
    expect(ipnNotice(paymentMessage("Pending", { pending_reason: "echeck" }), "row")).toMatchObject({
      notice: { type: "payment.pending", reason: "echeck" },
    });
    expect(ipnNotice(paymentMessage("Denied"), "row")).toMatchObject({ notice: { type: "payment.denied" } });
  });

  it("a refund or reversal: what went back (PayPal's negative mc_gross) and the payment it names", () => {
    const refund = ipnNotice(
      paymentMessage("Refunded", { txn_id: "REFUND-1", parent_txn_id: "TXN-1", mc_gross: "-20.00" }),
      "row",
    );
    expect(refund).toMatchObject({
      kind: "notice",
      notice: { type: "payment.refunded", refundId: "REFUND-1", paymentId: "TXN-1", amount: { value: "20.00" } },
    });
    expect(
      ipnNotice(paymentMessage("Reversed", { txn_id: "REV-1", parent_txn_id: "TXN-1", mc_gross: "-49.00" }), "row"),
    ).toMatchObject({ notice: { type: "payment.reversed", paymentId: "TXN-1" } });
    // A subscription payment given back keeps its txn_type: still a refund.
    expect(
      ipnNotice(
        subscriptionMessage("subscr_payment", {
          payment_status: "Refunded",
          txn_id: "REFUND-2",
          parent_txn_id: "TXN-9",
          mc_gross: "-29.00",
        }),
        "row",
      ),
    ).toMatchObject({ notice: { type: "payment.refunded", paymentId: "TXN-9" } });
  });

  it("what changes nothing is ignored; a message without what its notice needs is malformed", () => {
    expect(ipnNotice(paymentMessage("Canceled_Reversal"), "row").kind).toBe("ignored");
    expect(ipnNotice(paymentMessage("completed"), "row").kind).toBe("ignored");
    expect(ipnNotice(body({ txn_type: "subscr_modify", subscr_id: "I-1" }), "row")).toEqual({
      kind: "ignored",
      reason: "payment status (none) changes nothing",
    });
    expect(
      ipnNotice(subscriptionMessage("subscr_payment", { payment_status: "Failed", txn_id: "T", mc_gross: "1" }), "r"),
    ).toMatchObject({ kind: "ignored" });
    expect(ipnNotice(paymentMessage("Completed", { txn_id: "" }), "row")).toEqual({
      kind: "malformed",
      reason: "Completed: no transaction id",
    });
    expect(ipnNotice(paymentMessage("Completed", { mc_gross: "1e9" }), "row").kind).toBe("malformed");
    expect(ipnNotice(paymentMessage("Completed", { mc_gross: "free" }), "row").kind).toBe("malformed");
    expect(ipnNotice(body({ txn_type: "subscr_signup" }), "row")).toEqual({
      kind: "malformed",
      reason: "subscr_signup: no subscription id",
    });
  });

  it("the event id: PayPal's ipn_track_id, else the transaction's, else the stored row's", () => {
    expect(ipnNotice(paymentMessage("Completed", { ipn_track_id: "" }), "row")).toMatchObject({
      notice: { eventId: "TXN-1" },
    });
    expect(ipnNotice(body({ txn_type: "subscr_cancel", subscr_id: "I-1" }), "row-7")).toMatchObject({
      notice: { eventId: "row-7", orderId: null },
    });
  });

  it("property: any message is a notice of a known type, ignored or malformed, and never throws", () => {
    const keys = Object.keys(IPN_NOTICES);
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            "txn_type",
            "payment_status",
            "txn_id",
            "parent_txn_id",
            "subscr_id",
            "recurring_payment_id",
            "mc_gross",
            "mc_currency",
            "custom",
            "ipn_track_id",
          ),
          fc.oneof(
            fc.string(),
            fc.constantFrom(...keys.map((k) => k.replace(/^status:/, ""))),
            fc.constantFrom("-49.00", "49", "0.01"),
          ),
        ),
        (fields) => {
          const parsed = ipnNotice(new URLSearchParams(fields).toString(), "row");
          expect(["notice", "ignored", "malformed"]).toContain(parsed.kind);
          if (parsed.kind === "notice" && "amount" in parsed.notice && parsed.notice.amount)
            expect(parsed.notice.amount.value).toMatch(/^\d{1,12}(\.\d{1,2})?$/);
        },
      ),
    );
  });
});
