import { describe, expect, it } from "vitest";
import { getSection, PACKAGE_POINTS } from "./registry";
import { validateSection } from "./validation";
import {
  AUTO_RENEW_REFUSED,
  decideSubscriptionPayment,
  nextPaymentDate,
  nextSubscriptionStatus,
  paypalPeriod,
  periodDays,
  periodWords,
  subscriptionNotice,
  type SubscriptionNotice,
  type SubscriptionStatus,
} from "./subscription";

describe("paypalPeriod", () => {
  it("gives days up to 90, then whole years, months or weeks", () => {
    expect(paypalPeriod(1)).toEqual({ p3: 1, t3: "D" });
    expect(paypalPeriod(30)).toEqual({ p3: 30, t3: "D" });
    expect(paypalPeriod(90)).toEqual({ p3: 90, t3: "D" });
    expect(paypalPeriod(180)).toEqual({ p3: 6, t3: "M" });
    expect(paypalPeriod(365)).toEqual({ p3: 1, t3: "Y" });
    expect(paypalPeriod(730)).toEqual({ p3: 2, t3: "Y" });
    expect(paypalPeriod(98)).toEqual({ p3: 14, t3: "W" });
    expect(paypalPeriod(720)).toEqual({ p3: 24, t3: "M" });
  });
  it("refuses what PayPal cannot bill", () => {
    for (const d of [0, -1, 1.5, 92, 100, 366, 750, 2190, 371]) expect(paypalPeriod(d)).toBeNull();
  });
  it("round-trips through periodDays for every validity it accepts", () => {
    for (let d = 1; d <= 2000; d++) {
      const p = paypalPeriod(d);
      if (p) expect(periodDays(`${p.p3} ${p.t3}`)).toBe(d);
    }
    expect(periodDays("1 X")).toBeNull();
    expect(periodDays(null)).toBeNull();
  });
});

describe("periodWords", () => {
  it("says a PayPal period as a person reads it after 'every'", () => {
    expect(periodWords("30 D")).toBe("30 days");
    expect(periodWords("1 D")).toBe("day");
    expect(periodWords("2 W")).toBe("2 weeks");
    expect(periodWords("1 M")).toBe("month");
    expect(periodWords("6 M")).toBe("6 months");
    expect(periodWords("1 Y")).toBe("year");
    expect(periodWords(" odd ")).toBe("odd");
  });
});

describe("decideSubscriptionPayment: a refused sign-up", () => {
  it("refuses every payment of a subscription whose sign-up was refused", () => {
    expect(
      decideSubscriptionPayment({
        subscription: null,
        order: { id: "o", paymentStatus: "UnPaid" },
        txnApplied: false,
        signupRefused: true,
      }),
    ).toMatchObject({ kind: "refuse", reason: expect.stringMatching(/sign-up was refused/) });
  });
});

describe("subscription status", () => {
  it("reads PayPal's txn_type", () => {
    expect(subscriptionNotice("subscr_payment")).toBe("payment");
    expect(subscriptionNotice("recurring_payment_failed")).toBe("failed");
    expect(subscriptionNotice("web_accept")).toBeNull();
    expect(subscriptionNotice(null)).toBeNull();
  });
  it("never brings a cancelled or ended subscription back", () => {
    const notices: SubscriptionNotice[] = ["signup", "payment", "cancel", "failed", "end"];
    for (const n of notices) {
      expect(nextSubscriptionStatus("ended", n)).toBe("ended");
      expect(nextSubscriptionStatus("cancelled", n)).toBe(n === "end" ? "ended" : "cancelled");
    }
    const fresh: SubscriptionStatus = nextSubscriptionStatus(null, "cancel");
    expect(fresh).toBe("cancelled");
    expect(nextSubscriptionStatus(fresh, "signup")).toBe("cancelled");
    expect(nextSubscriptionStatus(null, "payment")).toBe("active");
  });
});

describe("the pricing record's automatic renewal", () => {
  const pricing = getSection("pricing")!;
  const base = {
    packageName: "Basic",
    packagePrice: "49",
    packageValidity: "30",
    packageButtonText: "Order",
    ...Object.fromEntries(PACKAGE_POINTS.slice(0, 7).map((p) => [p, "x"])),
  };
  it("is off unless ticked, and on from a form's 'on' or the API's true", () => {
    const off = validateSection(pricing, base);
    expect(off.ok && off.data.autoRenew).toBe(false);
    for (const v of ["on", true]) {
      const on = validateSection(pricing, { ...base, autoRenew: v });
      expect(on.ok && on.data.autoRenew).toBe(true);
    }
    expect(validateSection(pricing, { ...base, autoRenew: "maybe" }).ok).toBe(false);
  });
  it("is refused for a validity PayPal cannot bill, with the message on the validity", () => {
    const r = validateSection(pricing, { ...base, packageValidity: "100", autoRenew: "on" });
    expect(r).toEqual({ ok: false, errors: [{ field: "packageValidity", message: AUTO_RENEW_REFUSED }] });
    expect(validateSection(pricing, { ...base, packageValidity: "100" }).ok).toBe(true);
    expect(validateSection(pricing, { ...base, packageValidity: "365", autoRenew: "on" }).ok).toBe(true);
    // PayPal's Subscriptions API bills at most 12 months or one year a cycle (decision 070).
    expect(validateSection(pricing, { ...base, packageValidity: "360", autoRenew: "on" }).ok).toBe(true);
    for (const days of ["720", "730", "1825"])
      expect(validateSection(pricing, { ...base, packageValidity: days, autoRenew: "on" })).toEqual({
        ok: false,
        errors: [{ field: "packageValidity", message: AUTO_RENEW_REFUSED }],
      });
  });
});

describe("decideSubscriptionPayment", () => {
  const order = { id: "o1", paymentStatus: "UnPaid" };
  it("pays the order first, renews after, once per transaction, never after a cancellation or for another order", () => {
    expect(decideSubscriptionPayment({ subscription: null, order, txnApplied: false }).kind).toBe("pay-order");
    const paid = { ...order, paymentStatus: "Paid" };
    const active = { orderId: "o1", status: "active" as const };
    expect(decideSubscriptionPayment({ subscription: active, order: paid, txnApplied: false }).kind).toBe("renew");
    expect(decideSubscriptionPayment({ subscription: active, order: paid, txnApplied: true }).kind).toBe("duplicate");
    expect(
      decideSubscriptionPayment({ subscription: { ...active, status: "cancelled" }, order: paid, txnApplied: false })
        .kind,
    ).toBe("refuse");
    expect(
      decideSubscriptionPayment({ subscription: { ...active, orderId: "o2" }, order: paid, txnApplied: false }).kind,
    ).toBe("refuse");
    expect(
      decideSubscriptionPayment({
        subscription: active,
        order: { ...order, paymentStatus: "Refunded" },
        txnApplied: false,
      }).kind,
    ).toBe("refuse");
  });
});

describe("nextPaymentDate", () => {
  const at = (iso: string) => new Date(iso);
  it("adds days and weeks exactly", () => {
    expect(nextPaymentDate(at("2026-01-10T09:00:00Z"), 30, 1)).toEqual(at("2026-02-09T09:00:00Z"));
    expect(nextPaymentDate(at("2026-01-10T09:00:00Z"), 30, 3)).toEqual(at("2026-04-10T09:00:00Z"));
    expect(nextPaymentDate(at("2026-01-10T09:00:00Z"), 98, 1)).toEqual(at("2026-04-18T09:00:00Z"));
  });
  it("follows the calendar for months and years, clamping to the month's last day", () => {
    expect(nextPaymentDate(at("2026-01-31T12:00:00Z"), 180, 1)).toEqual(at("2026-07-31T12:00:00Z"));
    expect(nextPaymentDate(at("2026-08-31T12:00:00Z"), 180, 1)).toEqual(at("2027-02-28T12:00:00Z"));
    expect(nextPaymentDate(at("2028-02-29T12:00:00Z"), 365, 1)).toEqual(at("2029-02-28T12:00:00Z"));
    expect(nextPaymentDate(at("2026-03-15T12:00:00Z"), 730, 2)).toEqual(at("2030-03-15T12:00:00Z"));
  });
  it("has no date before the first payment or for a period PayPal cannot bill", () => {
    expect(nextPaymentDate(null, 30, 1)).toBeNull();
    expect(nextPaymentDate(at("2026-01-10T09:00:00Z"), 30, 0)).toBeNull();
    expect(nextPaymentDate(at("2026-01-10T09:00:00Z"), 100, 1)).toBeNull();
  });
});
