import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toCents, type DiscountPeriod } from "./discounts";
import { paypalPeriod } from "./subscription";
import { paymentDue, subscriptionTerms, type PricedOrder } from "./subscription-price";
import { centsToValue, PLAN_UNIT_MAX, planKey, planPeriod, planTerms, type PlanTerms } from "./subscription-plan";

const runs = { numRuns: Number(process.env.FC_RUNS ?? 2000) };
const DAYS = { DAY: 1, WEEK: 7, MONTH: 30, YEAR: 365 } as const;
const value = (v: string) => {
  expect(v).toMatch(/^\d+\.\d{2}$/);
  return Number(v.replace(".", ""));
};

/** An order as placed: a price in cents, maybe a code (its period, its amount off) as the order columns hold it. */
const order = fc
  .record({
    beforeCents: fc.integer({ min: 1, max: 10_000_000 }),
    offCents: fc.integer({ min: 0, max: 10_000_000 }),
    period: fc.constantFrom<DiscountPeriod | null>(null, "first", "every"),
    validity: fc.integer({ min: -5, max: 2000 }),
  })
  .map(({ beforeCents, offCents, period, validity }) => {
    const off = period ? Math.min(offCents, beforeCents) : 0;
    const o: PricedOrder & { packageValidity: number } = {
      packagePrice: (beforeCents - off) / 100,
      priceBefore: period ? beforeCents / 100 : null,
      discountAmount: off / 100,
      discountPeriod: period,
      packageValidity: validity,
    };
    return o;
  });

describe("the plan a subscription is made on", () => {
  it("a plain package: its price every period, no trial", () => {
    expect(
      planTerms({ packagePrice: 49, priceBefore: null, discountAmount: 0, discountPeriod: null, packageValidity: 30 }),
    ).toEqual({ period: { unit: "DAY", count: 30 }, currency: "USD", amount: "49.00", firstPayment: null });
  });

  it("a code on the first payment: one trial cycle at the discounted price, then the price before the code", () => {
    expect(
      planTerms({
        packagePrice: 24.5,
        priceBefore: 49,
        discountAmount: 24.5,
        discountPeriod: "first",
        packageValidity: 365,
      }),
    ).toEqual({ period: { unit: "YEAR", count: 1 }, currency: "USD", amount: "49.00", firstPayment: "24.50" });
  });

  it("a code on every payment: the discounted price every period, no trial", () => {
    expect(
      planTerms({
        packagePrice: 39,
        priceBefore: 49,
        discountAmount: 10,
        discountPeriod: "every",
        packageValidity: 60,
      }),
    ).toEqual({ period: { unit: "DAY", count: 60 }, currency: "USD", amount: "39.00", firstPayment: null });
  });

  it("periods the Subscriptions API cannot bill (more than 12 months or one year a cycle) are refused", () => {
    expect(planPeriod(720)).toBeNull(); // 24 months: Payments Standard took it
    expect(planPeriod(730)).toBeNull(); // 2 years
    expect(planPeriod(360)).toEqual({ unit: "MONTH", count: 12 });
    expect(planPeriod(91)).toEqual({ unit: "WEEK", count: 13 });
    expect(planPeriod(0)).toBeNull();
  });

  it("every payment PayPal takes on the plan is exactly what the order's rule says, in cents", () => {
    fc.assert(
      fc.property(order, (o) => {
        const plan = planTerms(o);
        if (!plan) return;
        const terms = subscriptionTerms(o);
        expect(value(plan.amount)).toBe(toCents(paymentDue(terms, 2)));
        expect(value(plan.firstPayment ?? plan.amount)).toBe(toCents(paymentDue(terms, 1)));
        // The first payment is the order's own price; a trial only where it differs from the regular one.
        expect(value(plan.firstPayment ?? plan.amount)).toBe(toCents(o.packagePrice));
        if (plan.firstPayment !== null) expect(plan.firstPayment).not.toBe(plan.amount);
        expect(plan.currency).toBe("USD");
      }),
      runs,
    );
  });

  it("a plan's cycle is the package's validity, within PayPal's limits; none for a free order or a bad validity", () => {
    fc.assert(
      fc.property(order, (o) => {
        const plan = planTerms(o);
        const period = paypalPeriod(o.packageValidity);
        if (!plan) {
          const billable = period && planPeriod(o.packageValidity) !== null ? toCents(o.packagePrice) > 0 : false;
          expect(billable).toBe(false);
          return;
        }
        expect(plan.period.count).toBeGreaterThanOrEqual(1);
        expect(plan.period.count).toBeLessThanOrEqual(PLAN_UNIT_MAX[plan.period.unit]);
        expect(plan.period.count * DAYS[plan.period.unit]).toBe(o.packageValidity);
        expect(value(plan.amount)).toBeGreaterThan(0);
      }),
      runs,
    );
  });

  it("equal terms make equal keys and different terms different keys", () => {
    const terms = fc.record({
      period: fc.record({
        unit: fc.constantFrom("DAY", "WEEK", "MONTH", "YEAR" as const),
        count: fc.integer({ min: 1, max: 365 }),
      }),
      currency: fc.constant("USD" as const),
      amount: fc.integer({ min: 1, max: 1_000_000 }).map(centsToValue),
      firstPayment: fc.option(fc.integer({ min: 0, max: 1_000_000 }).map(centsToValue)),
    }) as fc.Arbitrary<PlanTerms>;
    const pkg = fc.constantFrom("7d1c0a52-0000-4000-8000-000000000001", "7d1c0a52-0000-4000-8000-000000000002");
    fc.assert(
      fc.property(pkg, terms, pkg, terms, (p1, t1, p2, t2) => {
        const same = p1 === p2 && JSON.stringify(t1) === JSON.stringify(t2);
        expect(planKey(p1, t1) === planKey(p2, t2)).toBe(same);
      }),
      runs,
    );
  });

  it("cents become PayPal's decimal strings exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        const v = centsToValue(cents);
        expect(BigInt(v.replace(".", ""))).toBe(BigInt(cents));
      }),
      runs,
    );
    expect(() => centsToValue(1.5)).toThrow(RangeError);
    expect(() => centsToValue(-1)).toThrow(RangeError);
  });
});
