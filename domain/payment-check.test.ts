import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPayment, moneyCents, ORDER_CURRENCY, type PaymentCheckInput } from "./payment-check";

const order = {
  id: "7d3f2d4e-0000-4000-8000-000000000001",
  packagePrice: 49,
  paymentStatus: "UnPaid" as const,
  txnId: null,
  currency: "USD",
};
const good: PaymentCheckInput = {
  order,
  noticeOrderId: order.id,
  paymentId: "CAP-1",
  amount: { currency: "USD", value: "49.00" },
  receiver: { expected: "MERCHANT-1", actual: "MERCHANT-1" },
  appliedBefore: false,
};

describe("the one money check (issue 34, decision 065)", () => {
  it("accepts the order's own payment: its id, our receiver, USD, the order's price, not applied before", () => {
    expect(checkPayment(good)).toEqual({ kind: "ok", orderId: order.id });
  });

  it("refuses what is not this order's, without flagging an order that does not exist", () => {
    expect(checkPayment({ ...good, order: null })).toMatchObject({ kind: "refused", flag: false });
    expect(checkPayment({ ...good, noticeOrderId: "another" })).toMatchObject({ kind: "refused", flag: false });
    expect(checkPayment({ ...good, noticeOrderId: null })).toEqual({ kind: "ok", orderId: order.id });
  });

  it("refuses and flags to staff another receiver, currency or amount", () => {
    const receiver = checkPayment({ ...good, receiver: { expected: "MERCHANT-1", actual: "SOMEONE-ELSE" } });
    expect(receiver).toEqual({
      kind: "refused",
      flag: true,
      reason: "the payment went to SOMEONE-ELSE, not to our account MERCHANT-1",
    });
    expect(checkPayment({ ...good, amount: { currency: "EUR", value: "49.00" } })).toEqual({
      kind: "refused",
      flag: true,
      reason: "the payment is in EUR, the order in USD",
    });
    expect(checkPayment({ ...good, amount: { currency: "USD", value: "4.90" } })).toEqual({
      kind: "refused",
      flag: true,
      reason: "the payment is 4.90 USD, the order's price 49.00 USD",
    });
    expect(checkPayment({ ...good, amount: { currency: "USD", value: "49" } })).toEqual({
      kind: "ok",
      orderId: order.id,
    });
    expect(checkPayment({ ...good, amount: { currency: "USD", value: "49.001" } })).toMatchObject({ kind: "refused" });
    // An order keeps the currency it was placed in (issue 35): pounds pay a pound order, dollars do not.
    const pounds = { ...good, order: { ...order, currency: "GBP" } };
    expect(checkPayment({ ...pounds, amount: { currency: "GBP", value: "49.00" } })).toEqual({
      kind: "ok",
      orderId: order.id,
    });
    expect(checkPayment({ ...pounds, amount: { currency: "USD", value: "49.00" } })).toMatchObject({
      kind: "refused",
      reason: "the payment is in USD, the order in GBP",
    });
  });

  it("refuses and flags a second payment for an order paid or refunded; a cancelled order may still be paid", () => {
    expect(checkPayment({ ...good, order: { ...order, paymentStatus: "Paid", txnId: "CAP-0" } })).toEqual({
      kind: "refused",
      flag: true,
      reason: "the order is Paid already (payment CAP-0)",
    });
    expect(checkPayment({ ...good, order: { ...order, paymentStatus: "Paid", txnId: "CAP-1" } }).kind).toBe(
      "duplicate",
    );
    expect(checkPayment({ ...good, order: { ...order, paymentStatus: "Refunded" } })).toMatchObject({ flag: true });
    expect(checkPayment({ ...good, order: { ...order, paymentStatus: "Cancelled" } }).kind).toBe("ok");
  });

  it("a receiver PayPal does not name is ours (the webhook was verified for our account)", () => {
    expect(checkPayment({ ...good, receiver: { expected: "MERCHANT-1", actual: null } }).kind).toBe("ok");
  });

  it("a payment applied before is a duplicate, whatever else", () => {
    expect(checkPayment({ ...good, appliedBefore: true })).toEqual({
      kind: "duplicate",
      reason: "payment CAP-1 was applied before",
    });
  });

  describe("a subscription's payment (decision 069)", () => {
    const terms = { first: 39, later: 49 };
    const sub = { ...good, subscription: terms, amount: { currency: "USD", value: "39.00" } };

    it("the first pays the unpaid order at the first payment's price; later ones renew the paid order at theirs", () => {
      expect(checkPayment(sub)).toEqual({ kind: "ok", orderId: order.id });
      const paid = { ...order, paymentStatus: "Paid" as const, txnId: "SALE-0" };
      expect(checkPayment({ ...sub, order: paid, amount: { currency: "USD", value: "49.00" } })).toEqual({
        kind: "ok",
        orderId: order.id,
      });
      expect(checkPayment({ ...sub, order: paid })).toEqual({
        kind: "refused",
        flag: true,
        reason: "the payment is 39.00 USD, this renewal payment's 49.00 USD",
      });
      expect(checkPayment({ ...sub, amount: { currency: "USD", value: "49.00" } })).toEqual({
        kind: "refused",
        flag: true,
        reason: "the payment is 49.00 USD, this first payment's 39.00 USD",
      });
    });

    it("a refunded order renews no more, the same payment twice is a duplicate, and another receiver is refused", () => {
      expect(checkPayment({ ...sub, order: { ...order, paymentStatus: "Refunded" } })).toMatchObject({
        kind: "refused",
        flag: true,
      });
      expect(checkPayment({ ...sub, appliedBefore: true }).kind).toBe("duplicate");
      expect(checkPayment({ ...sub, receiver: { expected: "MERCHANT-1", actual: "SOMEONE-ELSE" } })).toMatchObject({
        kind: "refused",
        flag: true,
      });
    });

    it("property: ok exactly when the amount is the due one of the order's state, in USD, not applied before", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 1_000_00 }),
          fc.integer({ min: 0, max: 1_000_00 }),
          fc.option(fc.integer({ min: 0, max: 1_000_00 }), { nil: null }),
          fc.constantFrom("UnPaid" as const, "Paid" as const, "Refunded" as const, "Cancelled" as const),
          fc.constantFrom("USD", "EUR"),
          fc.boolean(),
          (firstCents, laterCents, other, status, currency, appliedBefore) => {
            const due = status === "Paid" ? laterCents : firstCents;
            // Half the time the amount due, else any amount.
            const paidCents = other ?? due;
            const r = checkPayment({
              ...good,
              order: { ...order, paymentStatus: status, txnId: status === "UnPaid" ? null : "SALE-0" },
              subscription: { first: firstCents / 100, later: laterCents / 100 },
              amount: { currency, value: (paidCents / 100).toFixed(2) },
              appliedBefore,
            });
            const right = !appliedBefore && status !== "Refunded" && currency === "USD" && paidCents === due;
            expect(r.kind === "ok").toBe(right);
            if (appliedBefore) expect(r.kind).toBe("duplicate");
            if (r.kind === "refused") expect(r.flag).toBe(true);
          },
        ),
      );
    });
  });

  it("reads amounts as exact cents, never through a float", () => {
    expect(moneyCents("0.10")).toBe(10);
    expect(moneyCents("1234567.89")).toBe(123456789);
    expect(moneyCents("1.005")).toBeNull();
    expect(moneyCents("-1.00")).toBeNull();
    expect(moneyCents("1e3")).toBeNull();
    expect(ORDER_CURRENCY).toBe("USD");
  });

  it("property: only the exact price in USD to our receiver, for this order, once, is ok", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_00 }),
        fc.integer({ min: 0, max: 10_000_00 }),
        fc.constantFrom("USD", "EUR", "GBP"),
        fc.boolean(),
        fc.option(fc.constantFrom("MERCHANT-1", "OTHER"), { nil: null }),
        fc.constantFrom<string | null>(order.id, "other-order", null),
        (priceCents, paidCents, currency, appliedBefore, receiver, noticeOrderId) => {
          const r = checkPayment({
            order: { ...order, packagePrice: priceCents / 100 },
            noticeOrderId,
            paymentId: "CAP-P",
            amount: { currency, value: (paidCents / 100).toFixed(2) },
            receiver: { expected: "MERCHANT-1", actual: receiver },
            appliedBefore,
          });
          const right =
            priceCents === paidCents && currency === "USD" && receiver !== "OTHER" && noticeOrderId !== "other-order";
          if (r.kind === "ok") expect(right && !appliedBefore).toBe(true);
          if (right && !appliedBefore) expect(r.kind).toBe("ok");
          if (appliedBefore && noticeOrderId !== "other-order") expect(r.kind).toBe("duplicate");
          // A refusal about money is always shown to staff.
          if (r.kind === "refused" && noticeOrderId !== "other-order") expect(r.flag).toBe(true);
        },
      ),
    );
  });
});
