import { describe, expect, it } from "vitest";
import {
  DAY_MS,
  daysLeft,
  memberBadge,
  membershipOf,
  nextMembershipValid,
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
  it("is none without a Paid and Delivered order", () => {
    expect(membershipOf([], now)).toEqual({ state: "none" });
    expect(
      membershipOf(
        [order({ orderStatus: "Pending" }), order({ paymentStatus: "UnPaid" }), order({ paymentStatus: "Cancelled" })],
        now,
      ),
    ).toEqual({ state: "none" });
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

describe("nextMembershipValid", () => {
  it("runs from now without an unexpired membership", () => {
    expect(nextMembershipValid([], now, 30)).toEqual(at(30 * DAY_MS));
    expect(nextMembershipValid([at(-DAY_MS), null], now, 30)).toEqual(at(30 * DAY_MS));
  });
  it("stacks a renewal on the latest unexpired validity", () => {
    expect(nextMembershipValid([at(10 * DAY_MS), at(3 * DAY_MS)], now, 30)).toEqual(at(40 * DAY_MS));
  });
});

describe("markers and row actions", () => {
  it("validityMarker", () => {
    expect(validityMarker(null, now)).toBe("Not Set");
    expect(validityMarker(at(1), now)).toBe("Active");
    expect(validityMarker(now, now)).toBe("Expired");
  });
  it("memberBadge", () => {
    expect(memberBadge({ paymentStatus: "Paid", membershipValid: at(1) }, now)).toBe("Active Member");
    expect(memberBadge({ paymentStatus: "Paid", membershipValid: at(-1) }, now)).toBe("Expired");
    expect(memberBadge({ paymentStatus: "Paid", membershipValid: null }, now)).toBe("Inactive");
    expect(memberBadge({ paymentStatus: "UnPaid", membershipValid: at(1) }, now)).toBe("Inactive");
  });
  it("rowAction follows the payment status; 'Expires At' lasts through the expiry's calendar day", () => {
    const base = { id: "o1", membershipValid: null };
    expect(rowAction({ ...base, paymentStatus: "UnPaid" }, now, "UTC")).toEqual({ kind: "pay", href: "/pay-now/o1" });
    expect(rowAction({ ...base, paymentStatus: "Cancelled" }, now, "UTC")).toEqual({ kind: "cancelled" });
    expect(rowAction({ ...base, paymentStatus: "Refunded" }, now, "UTC")).toEqual({ kind: "refunded" });
    const earlierToday = new Date("2026-11-22T01:00:00Z");
    expect(rowAction({ id: "o1", paymentStatus: "Paid", membershipValid: earlierToday }, now, "UTC")).toEqual({
      kind: "expires",
      date: earlierToday,
    });
    expect(
      rowAction({ id: "o1", paymentStatus: "Paid", membershipValid: new Date("2026-11-21T23:59:59Z") }, now, "UTC"),
    ).toEqual({ kind: "membership-expired" });
  });
});
