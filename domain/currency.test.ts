import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { money } from "./format";
import {
  centsOf,
  centsToDecimal,
  CURRENCIES,
  CURRENCY_DECIMALS,
  CURRENCY_SYMBOL,
  formatMoney,
  isCurrency,
} from "./currency";

const runs = { numRuns: Number(process.env.FC_RUNS ?? 2000) };

describe("the currencies a price may be in (issue 35)", () => {
  it("offers USD (the default), GBP and EUR, each with its symbol and two decimals", () => {
    expect(CURRENCIES).toEqual(["USD", "GBP", "EUR"]);
    expect(CURRENCY_SYMBOL).toEqual({ USD: "$", GBP: "£", EUR: "€" });
    expect(CURRENCY_DECIMALS).toEqual({ USD: 2, GBP: 2, EUR: 2 });
    expect(CURRENCIES.filter(isCurrency)).toEqual(["USD", "GBP", "EUR"]);
    expect(["usd", "JPY", "", "CHF"].some(isCurrency)).toBe(false);
  });

  it("a price as typed or stored becomes whole cents exactly", () => {
    expect(centsOf(49)).toBe(4900);
    expect(centsOf("49.00")).toBe(4900);
    expect(centsOf("49")).toBe(4900);
    expect(centsOf(" 24.5 ")).toBe(2450);
    expect(centsOf(0.07)).toBe(7);
    expect(centsOf(19.99)).toBe(1999);
    expect(centsOf("0")).toBe(0);
    expect(centsOf("12.340")).toBe(1234);
    expect(centsOf(".5")).toBe(50);
    // Where float arithmetic errs: 1.15 * 100 is 114.99999999999999, 4.35 * 100 is 434.99999999999994.
    expect(centsOf(1.15)).toBe(115);
    expect(centsOf(4.35)).toBe(435);
    expect(centsOf("90071992547409.91")).toBe(9007199254740991);
  });

  it("refuses what is not an amount of cents: three decimals, signs, words, exponents, too large", () => {
    for (const bad of ["1.005", "-5", "+5", "ten", "", " ", "1e3", "1,000.00", "$49", "49.", "NaN"]) {
      expect(() => centsOf(bad), bad).toThrow(RangeError);
    }
    expect(() => centsOf(0.1 + 0.2)).toThrow("not an amount with at most two decimals: 0.30000000000000004");
    expect(() => centsOf(-1)).toThrow(RangeError);
    expect(() => centsOf(Number.NaN)).toThrow(RangeError);
    expect(() => centsOf(Infinity)).toThrow(RangeError);
    expect(() => centsOf(1e21)).toThrow(RangeError);
    expect(() => centsOf("90071992547409.92")).toThrow(RangeError);
  });

  it("cents are written back as a decimal string with two places", () => {
    expect(centsToDecimal(4900)).toBe("49.00");
    expect(centsToDecimal(5)).toBe("0.05");
    expect(centsToDecimal(0)).toBe("0.00");
    expect(centsToDecimal(123456789)).toBe("1234567.89");
    expect(() => centsToDecimal(-1)).toThrow(RangeError);
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
  });

  it("an amount for people carries its currency's symbol", () => {
    expect(formatMoney(4900, "USD")).toBe("$49.00");
    expect(formatMoney(4900, "GBP")).toBe("£49.00");
    expect(formatMoney(4900, "EUR")).toBe("€49.00");
    expect(formatMoney(1, "GBP")).toBe("£0.01");
  });

  it("cents to text and back is the identity; it writes what money() writes for dollars", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(centsOf(centsToDecimal(cents))).toBe(cents);
      }),
      runs,
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => {
        const dollars = Number(centsToDecimal(cents));
        expect(centsOf(dollars)).toBe(cents);
        expect(centsToDecimal(cents)).toBe(money(dollars));
        expect(formatMoney(cents, "USD")).toBe(`$${money(dollars)}`);
      }),
      runs,
    );
  });
});
