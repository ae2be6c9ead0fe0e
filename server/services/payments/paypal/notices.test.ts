import { describe, expect, it } from "vitest";
import { noticeOf, PAYPAL_EVENT_TYPES } from "./notices";

const envelope = (event_type: string, resource_type: string, resource: Record<string, unknown>) => ({
  id: "WH-2WR32451HC0233532-67976317FL4543714",
  event_version: "1.0",
  create_time: "2026-11-27T12:00:00Z",
  resource_type,
  resource_version: "2.0",
  event_type,
  summary: "…",
  resource,
});
const base = { eventId: "WH-2WR32451HC0233532-67976317FL4543714", occurredAt: "2026-11-27T12:00:00Z" };
const usd = (value: string) => ({ currency_code: "USD", value });
const capture = {
  id: "42311647XV020574X",
  status: "COMPLETED",
  amount: usd("25.00"),
  custom_id: "order-1",
  supplementary_data: { related_ids: { order_id: "5O190127TN364715T" } },
};
const refund = {
  id: "1JU08902781691411",
  status: "COMPLETED",
  amount: usd("5.00"),
  custom_id: "order-1",
  links: [
    { href: "https://api-m.paypal.com/v2/payments/refunds/1JU08902781691411", rel: "self", method: "GET" },
    { href: "https://api-m.paypal.com/v2/payments/captures/42311647XV020574X", rel: "up", method: "GET" },
  ],
};

describe("PayPal's webhook events as typed notices", () => {
  it("covers every event type issue 34 names", () => {
    expect(PAYPAL_EVENT_TYPES.sort()).toEqual(
      [
        "BILLING.SUBSCRIPTION.ACTIVATED",
        "BILLING.SUBSCRIPTION.CANCELLED",
        "BILLING.SUBSCRIPTION.EXPIRED",
        "BILLING.SUBSCRIPTION.PAYMENT.FAILED",
        "BILLING.SUBSCRIPTION.SUSPENDED",
        "CHECKOUT.ORDER.APPROVED",
        "PAYMENT.CAPTURE.COMPLETED",
        "PAYMENT.CAPTURE.DECLINED",
        "PAYMENT.CAPTURE.DENIED",
        "PAYMENT.CAPTURE.PENDING",
        "PAYMENT.CAPTURE.REFUNDED",
        "PAYMENT.CAPTURE.REVERSED",
        "PAYMENT.SALE.COMPLETED",
      ].sort(),
    );
  });

  it("reads an approved order, a completed, pending and denied capture", () => {
    expect(
      noticeOf(
        envelope("CHECKOUT.ORDER.APPROVED", "checkout-order", {
          id: "5O190127TN364715T",
          purchase_units: [{ custom_id: "order-1", amount: usd("25.00") }],
        }),
      ),
    ).toMatchObject({
      kind: "notice",
      notice: {
        ...base,
        type: "checkout.approved",
        orderId: "order-1",
        checkoutId: "5O190127TN364715T",
        amount: { currency: "USD", value: "25.00" },
      },
    });
    expect(noticeOf(envelope("PAYMENT.CAPTURE.COMPLETED", "capture", capture))).toEqual({
      kind: "notice",
      event: expect.any(Object),
      notice: {
        ...base,
        type: "payment.completed",
        orderId: "order-1",
        paymentId: "42311647XV020574X",
        checkoutId: "5O190127TN364715T",
        amount: { currency: "USD", value: "25.00" },
      },
    });
    expect(
      noticeOf(
        envelope("PAYMENT.CAPTURE.PENDING", "capture", { ...capture, status_details: { reason: "PENDING_REVIEW" } }),
      ),
    ).toMatchObject({ notice: { type: "payment.pending", reason: "PENDING_REVIEW" } });
    expect(noticeOf(envelope("PAYMENT.CAPTURE.DENIED", "capture", capture))).toMatchObject({
      notice: { type: "payment.denied" },
    });
    expect(noticeOf(envelope("PAYMENT.CAPTURE.DECLINED", "capture", capture))).toMatchObject({
      notice: { type: "payment.denied" },
    });
  });

  it("reads a refund and a reversal with the capture they belong to", () => {
    expect(noticeOf(envelope("PAYMENT.CAPTURE.REFUNDED", "refund", refund))).toMatchObject({
      notice: {
        type: "payment.refunded",
        refundId: "1JU08902781691411",
        paymentId: "42311647XV020574X",
        orderId: "order-1",
        amount: { currency: "USD", value: "5.00" },
      },
    });
    expect(noticeOf(envelope("PAYMENT.CAPTURE.REVERSED", "refund", { ...refund, links: [] }))).toMatchObject({
      notice: { type: "payment.reversed", paymentId: null },
    });
  });

  it("reads a subscription's payment and its changes", () => {
    expect(
      noticeOf(
        envelope("PAYMENT.SALE.COMPLETED", "sale", {
          id: "80021663DE681814L",
          state: "completed",
          amount: { total: "20.00", currency: "USD", details: { subtotal: "20.00" } },
          billing_agreement_id: "I-BW452GLLEP1G",
          custom: "order-2",
        }),
      ),
    ).toMatchObject({
      notice: {
        type: "subscription.payment",
        subscriptionId: "I-BW452GLLEP1G",
        paymentId: "80021663DE681814L",
        orderId: "order-2",
        amount: { currency: "USD", value: "20.00" },
      },
    });
    for (const [eventType, type] of [
      ["BILLING.SUBSCRIPTION.ACTIVATED", "subscription.activated"],
      ["BILLING.SUBSCRIPTION.PAYMENT.FAILED", "subscription.payment-failed"],
      ["BILLING.SUBSCRIPTION.CANCELLED", "subscription.cancelled"],
      ["BILLING.SUBSCRIPTION.SUSPENDED", "subscription.suspended"],
      ["BILLING.SUBSCRIPTION.EXPIRED", "subscription.expired"],
    ] as const)
      expect(
        noticeOf(envelope(eventType, "subscription", { id: "I-BW452GLLEP1G", status: "X", custom_id: "order-2" })),
      ).toMatchObject({ notice: { type, subscriptionId: "I-BW452GLLEP1G", orderId: "order-2" } });
  });

  it("ignores event types it does not act on, and calls anything else malformed", () => {
    expect(noticeOf(envelope("CUSTOMER.DISPUTE.CREATED", "dispute", { id: "PP-D-1" }))).toMatchObject({
      kind: "ignored",
    });
    expect(noticeOf(envelope("toString", "x", {}))).toMatchObject({ kind: "ignored" });
    expect(noticeOf({ hello: "world" })).toEqual({ kind: "malformed", reason: "not a PayPal webhook event" });
    expect(noticeOf(envelope("PAYMENT.CAPTURE.COMPLETED", "capture", { id: "X" }))).toMatchObject({
      kind: "malformed",
      reason: expect.stringContaining("PAYMENT.CAPTURE.COMPLETED's resource: amount"),
    });
  });
});
