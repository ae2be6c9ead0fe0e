import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsValue, decideRefund, priceCents, refundDeadline, tallyRefunds, type RefundRequest } from "./refunds";

const paidAt = new Date("2026-06-01T10:00:00Z");
const ask = (over: Partial<RefundRequest> = {}): RefundRequest => ({
  price: 49,
  paidAt,
  refunds: [],
  amount: "",
  now: new Date("2026-06-10T10:00:00Z"),
  ...over,
});
/** A price as the orders table stores it: a decimal of at most two places, read as a number. */
const prices = fc.integer({ min: 1, max: 10_000_00 }).map((cents) => Number(centsValue(cents)));

describe("refunds of a payment (issue 34 part 3, decision 067)", () => {
  it("blank refunds everything that is left; a part keeps the order paid", () => {
    expect(decideRefund(ask())).toEqual({ ok: true, cents: 4900, whole: true });
    expect(decideRefund(ask({ amount: "10.5" }))).toEqual({ ok: true, cents: 1050, whole: false });
    expect(decideRefund(ask({ amount: "$39", refunds: [1000] }))).toEqual({ ok: true, cents: 3900, whole: true });
  });

  it("refuses with a sentence: nothing, a negative or bad amount, three decimals, more than is left, after 180 days", () => {
    expect(decideRefund(ask({ amount: "0" }))).toMatchObject({
      ok: false,
      field: "amount",
      message: "Enter an amount greater than zero.",
    });
    expect(decideRefund(ask({ amount: "-5" }))).toMatchObject({ ok: false, field: "amount" });
    expect(decideRefund(ask({ amount: "ten" }))).toMatchObject({ ok: false, field: "amount" });
    expect(decideRefund(ask({ amount: "1.005" }))).toMatchObject({
      ok: false,
      message: "Enter the amount with at most two decimals, such as 25.50.",
    });
    expect(decideRefund(ask({ amount: "49.01" }))).toMatchObject({
      ok: false,
      message: "At most $49.00 is left to refund on this payment.",
    });
    expect(decideRefund(ask({ refunds: [4900] }))).toMatchObject({ ok: false, field: null });
    expect(decideRefund(ask({ now: new Date(refundDeadline(paidAt).getTime() + 1) }))).toMatchObject({
      ok: false,
      field: null,
    });
    expect(decideRefund(ask({ now: refundDeadline(paidAt) }))).toMatchObject({ ok: true });
    expect(refundDeadline(paidAt).toISOString()).toBe("2026-11-28T10:00:00.000Z");
  });

  it("property: whole exactly when the refunds reach the price, whatever their order; never below zero left", () => {
    fc.assert(
      fc.property(prices, fc.array(fc.integer({ min: 1, max: 500_00 }), { maxLength: 8 }), (price, parts) => {
        const t = tallyRefunds(price, parts);
        const due = priceCents(price);
        const sum = parts.reduce((a, b) => a + b, 0);
        expect(t.refundedCents).toBe(sum);
        expect(t.remainingCents).toBe(Math.max(0, due - sum));
        expect(t.kind).toBe(sum === 0 ? "none" : sum >= due ? "whole" : "part");
        expect(tallyRefunds(price, [...parts].reverse())).toEqual(t);
      }),
    );
  });

  it("property: refunds granted one after another never exceed the price, and the last that reaches it is whole", () => {
    fc.assert(
      fc.property(
        prices,
        fc.array(fc.oneof(fc.constant(""), fc.integer({ min: 0, max: 200_00 }).map(centsValue)), { maxLength: 10 }),
        (price, typed) => {
          const made: number[] = [];
          for (const amount of typed) {
            const d = decideRefund(ask({ price, refunds: made, amount }));
            if (!d.ok) continue;
            made.push(d.cents);
            const t = tallyRefunds(price, made);
            expect(d.whole).toBe(t.kind === "whole");
            expect(t.refundedCents).toBeLessThanOrEqual(priceCents(price));
          }
          // Once whole, nothing more is granted.
          if (tallyRefunds(price, made).kind === "whole")
            expect(decideRefund(ask({ price, refunds: made })).ok).toBe(false);
        },
      ),
    );
  });

  it("property: a typed amount of at most two decimals is read exactly (no float)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4900 }), (cents) => {
        const d = decideRefund(ask({ amount: centsValue(cents) }));
        expect(d).toEqual({ ok: true, cents, whole: cents === 4900 });
      }),
    );
  });
});
