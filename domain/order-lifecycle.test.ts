import { describe, expect, it } from "vitest";
import { applyOrderEvent, orderStatusEvent, paymentStatusEvent, type OrderState } from "./order-lifecycle";

const at = new Date("2026-11-25T12:00:00Z");
const unpaid: OrderState = {
  paymentStatus: "UnPaid",
  orderStatus: "Pending",
  paidAt: null,
  deliveredAt: null,
  txnId: null,
};

describe("applyOrderEvent", () => {
  it("a payment makes the order Paid once, with its time and transaction; a second is unchanged", () => {
    const r = applyOrderEvent(unpaid, { type: "pay", at, txnId: "T1" });
    expect(r).toEqual({ kind: "changed", state: { ...unpaid, paymentStatus: "Paid", paidAt: at, txnId: "T1" } });
    const paid = r.kind === "changed" ? r.state : unpaid;
    expect(applyOrderEvent(paid, { type: "pay", at: new Date(at.getTime() + 1), txnId: "T2" }).kind).toBe("unchanged");
  });

  it("a payment with automatic activation also delivers a pending order", () => {
    const r = applyOrderEvent(unpaid, { type: "pay", at, deliver: true });
    expect(r.kind === "changed" && r.state).toMatchObject({ orderStatus: "Delivered", deliveredAt: at });
  });

  it("only an unpaid order can be cancelled; the refusal says why", () => {
    expect(applyOrderEvent(unpaid, { type: "cancel", at })).toMatchObject({
      kind: "changed",
      state: { paymentStatus: "Cancelled" },
    });
    expect(applyOrderEvent({ ...unpaid, paymentStatus: "Cancelled" }, { type: "cancel", at }).kind).toBe("unchanged");
    expect(applyOrderEvent({ ...unpaid, paymentStatus: "Paid" }, { type: "cancel", at })).toEqual({
      kind: "refused",
      reason: "This order is Paid and can no longer be cancelled.",
    });
  });

  it("refunds and reversals end in Refunded once; UnPaid forgets the payment time; Pending forgets the delivery", () => {
    const paid: OrderState = {
      ...unpaid,
      paymentStatus: "Paid",
      paidAt: at,
      orderStatus: "Delivered",
      deliveredAt: at,
    };
    for (const type of ["refund", "reverse"] as const) {
      const r = applyOrderEvent(paid, { type, at });
      expect(r.kind === "changed" && r.state.paymentStatus).toBe("Refunded");
      if (r.kind === "changed") expect(applyOrderEvent(r.state, { type, at }).kind).toBe("unchanged");
    }
    expect(applyOrderEvent(paid, { type: "unpay", at })).toMatchObject({
      state: { paymentStatus: "UnPaid", paidAt: null },
    });
    expect(applyOrderEvent(paid, { type: "undeliver", at })).toMatchObject({
      state: { orderStatus: "Pending", deliveredAt: null },
    });
  });

  it("the admin's statuses stand for events", () => {
    expect(paymentStatusEvent("Paid", at).type).toBe("pay");
    expect(paymentStatusEvent("UnPaid", at).type).toBe("unpay");
    expect(paymentStatusEvent("Refunded", at).type).toBe("refund");
    expect(orderStatusEvent("Delivered", at).type).toBe("deliver");
    expect(orderStatusEvent("Pending", at).type).toBe("undeliver");
  });
});
