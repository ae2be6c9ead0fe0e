import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyDiscount,
  DISCOUNT_HOLD_MS,
  mayPayWithCode,
  placingUse,
  useOf,
  type CodeOrder,
  discountCodeSchema,
  discountedPrice,
  discountOf,
  orderCodeSchema,
  type DiscountCode,
  type DiscountUse,
} from "./discounts";
import { parseWith } from "./validation";

const runs = { numRuns: Number(process.env.FC_RUNS ?? 2000) };
const PKG = "0b7f3a52-8f44-4e67-9d6a-2f4a4c1c2b11";
const OTHER = "7d8e2a10-1111-4222-8333-944455556666";
const code = (over: Partial<DiscountCode> = {}): DiscountCode => ({
  code: "SPRING",
  kind: "percent",
  value: 20,
  validFrom: null,
  validTo: null,
  maxUses: null,
  oncePerCustomer: false,
  packageIds: [],
  disabled: false,
  ...over,
});
const use = (over: Partial<DiscountUse> = {}): DiscountUse => ({
  today: "2026-11-25",
  packageId: PKG,
  price: 49,
  uses: 0,
  usedByCustomer: false,
  ...over,
});
const cents = fc.integer({ min: 0, max: 10_000_000 }).map((c) => c / 100);
const anyCode = fc.oneof(
  fc.record({ kind: fc.constant("percent" as const), value: fc.integer({ min: 1, max: 10_000 }).map((v) => v / 100) }),
  fc.record({ kind: fc.constant("amount" as const), value: cents }),
);

describe("the price with a discount", () => {
  it("is never negative, never more than the price, in whole cents, and price = before − discount", () => {
    fc.assert(
      fc.property(cents, anyCode, (price, c) => {
        const off = discountOf(price, c);
        const after = discountedPrice(price, c);
        expect(after).toBeGreaterThanOrEqual(0);
        expect(after).toBeLessThanOrEqual(price);
        expect(Number.isInteger(Math.round(after * 100))).toBe(true);
        expect(Math.abs(after * 100 - Math.round(after * 100))).toBeLessThan(1e-6);
        expect(Math.abs(off * 100 - Math.round(off * 100))).toBeLessThan(1e-6);
        expect(Math.round(after * 100) + Math.round(off * 100)).toBe(Math.round(price * 100));
      }),
      runs,
    );
  });

  it("rounds a percentage to the nearest cent", () => {
    expect(discountOf(49, { kind: "percent", value: 20 })).toBe(9.8);
    expect(discountedPrice(49.99, { kind: "percent", value: 15 })).toBe(42.49); // 7.4985 off → 7.50
    expect(discountedPrice(0.05, { kind: "percent", value: 50 })).toBe(0.02); // 2.5 cents off → 3
    expect(discountedPrice(10, { kind: "amount", value: 25 })).toBe(0);
    expect(discountedPrice(0.3, { kind: "amount", value: 0.1 })).toBe(0.2);
  });

  it("a larger percentage never gives a higher price", () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), (price, a, b) => {
        const [lo, hi] = a < b ? [a, b] : [b, a];
        expect(discountedPrice(price, { kind: "percent", value: hi })).toBeLessThanOrEqual(
          discountedPrice(price, { kind: "percent", value: lo }),
        );
      }),
      runs,
    );
  });
});

describe("whether a code applies", () => {
  it("gives the price before, the discount and the price", () => {
    expect(applyDiscount(code(), use())).toEqual({ ok: true, priceBefore: 49, discount: 9.8, price: 39.2 });
  });

  it("says why not, one reason per rule", () => {
    expect(applyDiscount(null, use())).toEqual({ ok: false, reason: "unknown" });
    expect(applyDiscount(code({ disabled: true }), use())).toEqual({ ok: false, reason: "unknown" });
    expect(applyDiscount(code({ validTo: "2026-11-24" }), use())).toEqual({ ok: false, reason: "expired" });
    expect(applyDiscount(code({ validFrom: "2026-11-26" }), use())).toEqual({ ok: false, reason: "notYet" });
    expect(applyDiscount(code({ maxUses: 3 }), use({ uses: 3 }))).toEqual({ ok: false, reason: "usedUp" });
    expect(applyDiscount(code({ oncePerCustomer: true }), use({ usedByCustomer: true }))).toEqual({
      ok: false,
      reason: "alreadyUsed",
    });
    expect(applyDiscount(code({ packageIds: [OTHER] }), use())).toEqual({ ok: false, reason: "notForPackage" });
    expect(applyDiscount(code({ kind: "amount", value: 49 }), use())).toEqual({ ok: false, reason: "free" });
  });

  it("takes its first and last day as valid, and the last use as usable", () => {
    const c = code({ validFrom: "2026-11-25", validTo: "2026-11-25", maxUses: 3, packageIds: [PKG] });
    expect(applyDiscount(c, use({ uses: 2 })).ok).toBe(true);
    expect(applyDiscount(code({ oncePerCustomer: false }), use({ usedByCustomer: true })).ok).toBe(true);
  });

  it("never applies past its maximum, whatever the other rules", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 100 }), (max, uses) => {
        const r = applyDiscount(code({ maxUses: max }), use({ uses }));
        expect(r.ok).toBe(uses < max);
      }),
      runs,
    );
  });
});

describe("the back office's form", () => {
  const base = { code: " spring-26 ", kind: "percent", value: "20", packageIds: "" };

  it("takes what a form posts: strings, blanks for no limit, one package or several", () => {
    const r = parseWith(discountCodeSchema, { ...base, validFrom: "", maxUses: "", oncePerCustomer: "on" });
    expect(r).toMatchObject({
      ok: true,
      data: {
        code: "SPRING-26",
        value: 20,
        validFrom: undefined,
        maxUses: undefined,
        oncePerCustomer: true,
        packageIds: [],
        period: "first",
      },
    });
    expect(parseWith(discountCodeSchema, { ...base, packageIds: PKG })).toMatchObject({ data: { packageIds: [PKG] } });
    expect(parseWith(discountCodeSchema, { ...base, packageIds: [PKG, OTHER] })).toMatchObject({
      data: { packageIds: [PKG, OTHER] },
    });
  });

  it("refuses with a message on the field", () => {
    const bad = (input: Record<string, unknown>) => {
      const r = parseWith(discountCodeSchema, { ...base, ...input });
      return r.ok ? null : r.errors[0];
    };
    expect(bad({ code: "a b" })).toEqual({
      field: "code",
      message: "Code must be 3 to 32 letters, digits, dashes or underscores",
    });
    expect(bad({ value: "150" })).toEqual({ field: "value", message: "A percentage must be at most 100" });
    expect(bad({ value: "0" })).toEqual({ field: "value", message: "Value must be more than 0" });
    expect(bad({ value: "abc" })).toEqual({ field: "value", message: "Value must be a number" });
    expect(bad({ kind: "amount", value: "1.005" })).toEqual({
      field: "value",
      message: "Value must be in whole cents",
    });
    expect(bad({ validFrom: "2026-12-01", validTo: "2026-11-01" })).toEqual({
      field: "validTo",
      message: "Valid to must be on or after Valid from",
    });
    expect(bad({ validFrom: "2026-02-30" })).toEqual({
      field: "validFrom",
      message: "Valid from must be a date (YYYY-MM-DD)",
    });
    expect(bad({ maxUses: "1.5" })).toEqual({ field: "maxUses", message: "Maximum uses must be a whole number" });
    expect(bad({ packageIds: "not-a-package" })).toEqual({
      field: "packageIds",
      message: "Choose packages from the list",
    });
    expect(bad({ period: "sometimes" })).toEqual({
      field: "period",
      message: "Choose first period only or every period",
    });
  });

  it("the order page's code: optional, trimmed, upper-case", () => {
    expect(orderCodeSchema.parse("")).toBeUndefined();
    expect(orderCodeSchema.parse(undefined)).toBeUndefined();
    expect(orderCodeSchema.parse(" spring ")).toBe("SPRING");
    expect(orderCodeSchema.safeParse("x".repeat(33)).success).toBe(false);
  });
});

/**
 * Issue 33, item 2 (decision 060): random sequences of place, cancel, pay, refund and time passing, for several
 * customers, replayed through the rules the service calls (placingUse + applyDiscount when placing, mayPayWithCode
 * when paying an unpaid or cancelled order, as the order lifecycle allows).
 */
describe("a code's uses over any sequence of events", () => {
  type Event =
    | { type: "place"; customer: number }
    | { type: "cancel" | "pay" | "refund"; order: number }
    | { type: "wait"; ms: number };
  const events = fc.array(
    fc.oneof(
      fc.record({ type: fc.constant("place" as const), customer: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ type: fc.constantFrom("cancel" as const, "pay" as const, "refund" as const), order: fc.nat(30) }),
      fc.record({ type: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: DISCOUNT_HOLD_MS * 1.5 }) }),
    ),
    { maxLength: 60 },
  );
  const limits = fc.record({
    maxUses: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    oncePerCustomer: fc.boolean(),
  });

  const replay = (limit: { maxUses: number | null; oncePerCustomer: boolean }, sequence: Event[]) => {
    const rules = code(limit);
    const orders: CodeOrder[] = [];
    let now = new Date(Date.UTC(2026, 10, 25, 15));
    const paidUses = () => orders.filter((o) => o.paymentStatus === "Paid" || o.paymentStatus === "Refunded");
    const held = (userId: string) => orders.filter((o) => o.userId === userId && useOf(o, now) === "held");
    for (const e of sequence) {
      if (e.type === "wait") now = new Date(now.getTime() + e.ms);
      else if (e.type === "place") {
        const userId = `c${e.customer}`;
        const r = applyDiscount(rules, { ...use(), ...placingUse(orders, now, userId) });
        if (r.ok)
          orders.push({
            id: `o${orders.length}`,
            userId,
            paymentStatus: "UnPaid",
            placedAt: now,
            pendingAtPayPal: false,
          });
      } else {
        const o = orders[e.order];
        if (!o) continue;
        if (e.type === "cancel" && o.paymentStatus === "UnPaid") o.paymentStatus = "Cancelled";
        if (e.type === "refund" && o.paymentStatus === "Paid") o.paymentStatus = "Refunded";
        if (e.type === "pay" && (o.paymentStatus === "UnPaid" || o.paymentStatus === "Cancelled")) {
          const onlyHold = useOf(o, now) === "held" && held(o.userId).length === 1;
          const r = mayPayWithCode(rules, orders, o, now);
          // A customer's one order still holding its use is never refused for want of room (the hold is a promise).
          if (onlyHold && !(rules.oncePerCustomer && paidUses().some((p) => p.userId === o.userId)))
            expect(r).toEqual({ ok: true });
          if (r.ok) o.paymentStatus = "Paid";
        }
      }
      // Never more paid uses than the limit; never two per customer when once per customer.
      if (rules.maxUses !== null) expect(paidUses().length).toBeLessThanOrEqual(rules.maxUses);
      if (rules.oncePerCustomer) {
        const customers = paidUses().map((o) => o.userId);
        expect(new Set(customers).size).toBe(customers.length);
      }
    }
    return orders;
  };

  it("never counts more paid uses than the limit, nor two per customer when once per customer", () => {
    fc.assert(
      fc.property(limits, events, (limit, sequence) => {
        replay(limit, sequence);
      }),
      runs,
    );
  });

  it("the issue's case: a kept pay form paid after cancelling, once another customer took the last use", () => {
    const orders = replay({ maxUses: 1, oncePerCustomer: false }, [
      { type: "place", customer: 0 },
      { type: "cancel", order: 0 },
      { type: "place", customer: 1 },
      { type: "pay", order: 1 },
      { type: "pay", order: 0 },
    ]);
    expect(orders.map((o) => o.paymentStatus)).toEqual(["Cancelled", "Paid"]);
  });

  it("an unpaid order's hold ends: a code is not kept from others by an order nobody pays", () => {
    const orders = replay({ maxUses: 1, oncePerCustomer: false }, [
      { type: "place", customer: 0 },
      { type: "place", customer: 1 },
      { type: "wait", ms: DISCOUNT_HOLD_MS },
      { type: "place", customer: 1 },
      { type: "pay", order: 0 },
    ]);
    expect(orders.map((o) => [o.userId, o.paymentStatus])).toEqual([
      ["c0", "UnPaid"],
      ["c1", "UnPaid"],
    ]);
  });
});
