import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyDiscount, toCents, type DiscountPeriod } from "./discounts";
import {
  paymentDue,
  renewalPrice,
  subscriptionFields,
  subscriptionTerms,
  termsOfFields,
  type PricedOrder,
} from "./subscription-price";

const runs = { numRuns: Number(process.env.FC_RUNS ?? 2000) };
const plain = (price: number): PricedOrder => ({
  packagePrice: price,
  priceBefore: null,
  discountAmount: 0,
  discountPeriod: null,
});
const discounted = (before: number, off: number, period: DiscountPeriod): PricedOrder => ({
  packagePrice: (toCents(before) - toCents(off)) / 100,
  priceBefore: before,
  discountAmount: off,
  discountPeriod: period,
});

describe("what PayPal takes for each payment", () => {
  it("without a code: the order's price every time, no introductory period", () => {
    const terms = subscriptionTerms(plain(49));
    expect(terms).toEqual({ intro: null, regular: 49 });
    expect([1, 2, 3].map((n) => paymentDue(terms, n))).toEqual([49, 49, 49]);
    expect(renewalPrice(plain(49))).toEqual({
      packagePrice: 49,
      carriesDiscount: false,
      priceBefore: null,
      discountAmount: 0,
    });
    expect(subscriptionFields(terms, { p3: 30, t3: "D" })).toEqual({ a3: "49.00", p3: "30", t3: "D" });
  });

  it("a code on the first period only: the discounted price first (a1), then the full price (a3), no code on renewals", () => {
    const order = discounted(49, 12.25, "first");
    const terms = subscriptionTerms(order);
    expect(terms).toEqual({ intro: 36.75, regular: 49 });
    expect([1, 2, 3].map((n) => paymentDue(terms, n))).toEqual([36.75, 49, 49]);
    expect(renewalPrice(order)).toEqual({
      packagePrice: 49,
      carriesDiscount: false,
      priceBefore: null,
      discountAmount: 0,
    });
    expect(subscriptionFields(terms, { p3: 1, t3: "M" })).toEqual({
      a1: "36.75",
      p1: "1",
      t1: "M",
      a3: "49.00",
      p3: "1",
      t3: "M",
    });
  });

  it("a code on every period: the discounted price every time, carried by each renewal", () => {
    const order = discounted(49, 10, "every");
    const terms = subscriptionTerms(order);
    expect(terms).toEqual({ intro: null, regular: 39 });
    expect([1, 2, 3].map((n) => paymentDue(terms, n))).toEqual([39, 39, 39]);
    expect(renewalPrice(order)).toEqual({
      packagePrice: 39,
      carriesDiscount: true,
      priceBefore: 49,
      discountAmount: 10,
    });
    expect(subscriptionFields(terms, { p3: 30, t3: "D" })).not.toHaveProperty("a1");
  });

  it("a code that took nothing off (a percentage of a few cents) asks for no introductory period", () => {
    expect(subscriptionTerms(discounted(0.2, 0, "first"))).toEqual({ intro: null, regular: 0.2 });
    expect(renewalPrice(discounted(0.2, 0, "first")).carriesDiscount).toBe(false);
  });

  it("reads back the terms of a form, and refuses an amount that is not one", () => {
    expect(termsOfFields({ a1: "36.75", a3: "49.00" })).toEqual({ intro: 36.75, regular: 49 });
    expect(termsOfFields({ a3: "49.00" })).toEqual({ intro: null, regular: 49 });
    expect(termsOfFields({ a3: "" })).toBeNull();
    expect(termsOfFields({ a1: "free", a3: "49.00" })).toBeNull();
    expect(termsOfFields({ a3: "-1" })).toBeNull();
  });
});

// Orders as the order commands place them: a random price and code through applyDiscount.
const orderArb: fc.Arbitrary<PricedOrder> = fc
  .record({
    price: fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100),
    code: fc.option(
      fc.record({
        kind: fc.constantFrom("percent" as const, "amount" as const),
        value: fc.integer({ min: 1, max: 10_000 }).map((v) => v / 100),
        period: fc.constantFrom<DiscountPeriod>("first", "every"),
      }),
    ),
  })
  .map(({ price, code }) => {
    if (!code) return plain(price);
    const r = applyDiscount(
      {
        code: "X",
        kind: code.kind,
        value: code.kind === "percent" ? Math.min(code.value, 100) : code.value,
        validFrom: null,
        validTo: null,
        maxUses: null,
        oncePerCustomer: false,
        packageIds: [],
        disabled: false,
      },
      { today: "2026-11-25", packageId: "p", price, uses: 0, usedByCustomer: false },
    );
    return r.ok
      ? { packagePrice: r.price, priceBefore: r.priceBefore, discountAmount: r.discount, discountPeriod: code.period }
      : plain(price);
  });

describe("property: the payments of a subscription", () => {
  it("the first is the order's price; each later one is the renewal's price, full for a first-period code", () => {
    fc.assert(
      fc.property(orderArb, fc.integer({ min: 2, max: 60 }), (order, n) => {
        const terms = subscriptionTerms(order);
        const renewal = renewalPrice(order);
        expect(paymentDue(terms, 1)).toBe(order.packagePrice);
        expect(paymentDue(terms, n)).toBe(renewal.packagePrice);
        const listPrice = order.priceBefore ?? order.packagePrice;
        if (order.discountPeriod === "first") {
          expect(renewal.packagePrice).toBe(listPrice);
          expect(renewal.carriesDiscount).toBe(false);
        } else expect(renewal.packagePrice).toBe(order.packagePrice);
        // A renewal's columns keep the orders' check: price before = price + discount, whenever a code is carried.
        if (renewal.carriesDiscount)
          expect(toCents(renewal.priceBefore!)).toBe(toCents(renewal.packagePrice) + toCents(renewal.discountAmount));
        else expect(renewal).toMatchObject({ priceBefore: null, discountAmount: 0 });
        // Never more than the list price, never less than the discounted price, for any payment.
        expect(paymentDue(terms, n)).toBeLessThanOrEqual(listPrice);
        expect(paymentDue(terms, n)).toBeGreaterThanOrEqual(order.packagePrice);
      }),
      runs,
    );
  });

  it("what the form tells PayPal is what the rule expects back (the simulator reads the form)", () => {
    fc.assert(
      fc.property(orderArb, fc.integer({ min: 1, max: 60 }), (order, n) => {
        const terms = subscriptionTerms(order);
        const read = termsOfFields(subscriptionFields(terms, { p3: 30, t3: "D" }));
        expect(read).toEqual(terms);
        expect(paymentDue(read!, n)).toBe(paymentDue(terms, n));
      }),
      runs,
    );
  });
});
