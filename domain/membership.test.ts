import { describe, expect, it } from "vitest";
import {
  awaitsActivation,
  DAY_MS,
  daysLeft,
  memberBadge,
  membershipOf,
  rowAction,
  validityMarker,
  type MembershipOrder,
} from "./membership";

const now = new Date("2026-11-22T12:00:00Z");
const at = (ms: number) => new Date(now.getTime() + ms);
const order = (o: Partial<MembershipOrder>): MembershipOrder => ({
  packageName: "Standard",
  paymentStatus: "Paid",
  orderStatus: "Delivered",
  membershipValid: at(10 * DAY_MS),
  ...o,
});

describe("membershipOf", () => {
  it("is none without a paid order", () => {
    expect(membershipOf([], now)).toEqual({ state: "none" });
    expect(
      membershipOf(
        [
          order({ paymentStatus: "UnPaid", orderStatus: "Pending" }),
          order({ paymentStatus: "UnPaid" }),
          order({ paymentStatus: "Cancelled" }),
        ],
        now,
      ),
    ).toEqual({ state: "none" });
  });

  it("is waiting (payment received, waiting for activation) for a Paid order not yet Delivered", () => {
    const paid = order({ packageName: "Premium", orderStatus: "Pending", membershipValid: null });
    expect(membershipOf([paid], now)).toEqual({ state: "waiting", packageName: "Premium" });
    // Never "none" or "expired" to someone whose payment was received:
    expect(membershipOf([order({ membershipValid: at(-DAY_MS) }), paid], now).state).toBe("waiting");
    // An active membership stays active while a renewal waits.
    expect(membershipOf([order({}), paid], now).state).toBe("active");
    // A refunded or unpaid order waits for nothing.
    expect(membershipOf([order({ orderStatus: "Pending", paymentStatus: "Refunded" })], now).state).toBe("none");
  });

  it("a window that has not started yet is not a membership", () => {
    expect(membershipOf([order({ membershipStarts: at(1), membershipValid: at(DAY_MS) })], now).state).toBe("expired");
    expect(membershipOf([order({ membershipStarts: now, membershipValid: at(DAY_MS) })], now).state).toBe("active");
  });

  it("is active while the validity is in the future, expired from the moment it is reached", () => {
    expect(membershipOf([order({ membershipValid: at(1000) })], now)).toMatchObject({ state: "active", daysLeft: 1 });
    expect(membershipOf([order({ membershipValid: now })], now)).toEqual({ state: "expired" });
    expect(membershipOf([order({ membershipValid: at(-1000) })], now)).toEqual({ state: "expired" });
    expect(membershipOf([order({ membershipValid: null })], now)).toEqual({ state: "expired" });
  });

  it("one second later the same membership has expired", () => {
    const orders = [order({ membershipValid: at(1000) })];
    expect(membershipOf(orders, now).state).toBe("active");
    expect(membershipOf(orders, at(1000)).state).toBe("expired");
  });

  it("uses the latest expiry among several", () => {
    const m = membershipOf(
      [
        order({ packageName: "Basic", membershipValid: at(5 * DAY_MS) }),
        order({ packageName: "Premium", membershipValid: at(40 * DAY_MS) }),
        order({ packageName: "Old", membershipValid: at(-DAY_MS) }),
      ],
      now,
    );
    expect(m).toEqual({ state: "active", packageName: "Premium", expiresAt: at(40 * DAY_MS), daysLeft: 40 });
  });

  it("ignores refunded orders", () => {
    expect(membershipOf([order({ paymentStatus: "Refunded" })], now)).toEqual({ state: "none" });
  });

  it("gives admins full access", () => {
    expect(membershipOf([], now, true)).toEqual({ state: "admin" });
  });
});

describe("daysLeft", () => {
  it("rounds up", () => {
    expect(daysLeft(at(1), now)).toBe(1);
    expect(daysLeft(at(DAY_MS), now)).toBe(1);
    expect(daysLeft(at(DAY_MS + 1), now)).toBe(2);
    expect(daysLeft(at(-5), now)).toBe(0);
  });
});

describe("markers and row actions", () => {
  it("validityMarker", () => {
    expect(validityMarker(null, now)).toBe("Not Set");
    expect(validityMarker(at(1), now)).toBe("Active");
    expect(validityMarker(now, now)).toBe("Expired");
  });
  it("memberBadge", () => {
    const d = { orderStatus: "Delivered" } as const;
    expect(memberBadge({ ...d, paymentStatus: "Paid", membershipValid: at(1) }, now)).toBe("Active Member");
    expect(memberBadge({ ...d, paymentStatus: "Paid", membershipValid: at(-1) }, now)).toBe("Expired");
    expect(memberBadge({ ...d, paymentStatus: "Paid", membershipValid: null }, now)).toBe("Inactive");
    expect(memberBadge({ ...d, paymentStatus: "UnPaid", membershipValid: at(1) }, now)).toBe("Inactive");
    const p = { orderStatus: "Pending" } as const;
    expect(memberBadge({ ...p, paymentStatus: "Paid", membershipValid: null }, now)).toBe("Awaiting Activation");
    expect(memberBadge({ ...p, paymentStatus: "UnPaid", membershipValid: null }, now)).toBe("Inactive");
  });
  it("awaitsActivation: Paid and still Pending", () => {
    const o = { paymentStatus: "Paid", orderStatus: "Pending" } as const;
    expect(awaitsActivation(o)).toBe(true);
    expect(awaitsActivation({ ...o, orderStatus: "Delivered" })).toBe(false);
    expect(awaitsActivation({ ...o, paymentStatus: "UnPaid" })).toBe(false);
    expect(awaitsActivation({ ...o, paymentStatus: "Refunded" })).toBe(false);
  });
  it("rowAction follows the payment status; 'Expires At' lasts through the expiry's calendar day", () => {
    const base = { id: "o1", membershipValid: null, orderStatus: "Delivered" } as const;
    expect(rowAction({ ...base, paymentStatus: "UnPaid" }, now, "UTC")).toEqual({ kind: "pay", href: "/pay-now/o1" });
    expect(rowAction({ ...base, paymentStatus: "Cancelled" }, now, "UTC")).toEqual({ kind: "cancelled" });
    expect(rowAction({ ...base, paymentStatus: "Refunded" }, now, "UTC")).toEqual({ kind: "refunded" });
    const earlierToday = new Date("2026-11-22T01:00:00Z");
    expect(rowAction({ ...base, paymentStatus: "Paid", membershipValid: earlierToday }, now, "UTC")).toEqual({
      kind: "expires",
      date: earlierToday,
    });
    expect(
      rowAction({ ...base, paymentStatus: "Paid", membershipValid: new Date("2026-11-21T23:59:59Z") }, now, "UTC"),
    ).toEqual({ kind: "membership-expired" });
    expect(
      rowAction({ ...base, orderStatus: "Pending", paymentStatus: "Paid", membershipValid: at(DAY_MS) }, now, "UTC"),
    ).toEqual({ kind: "waiting" });
  });
});
