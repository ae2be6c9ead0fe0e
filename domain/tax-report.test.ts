import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CURRENCIES } from "./currency";
import { TAX_TREATMENTS } from "./tax";
import {
  decimal,
  money,
  namedPeriod,
  parseTaxPeriod,
  periodChoices,
  periodLabel,
  quarterOf,
  taxReport,
  taxTable,
  type TaxFigures,
  type TaxPeriod,
  type TaxTally,
} from "./tax-report";

/** How many random cases each property runs (FC_RUNS raises it for a long run). */
const RUNS = Number(process.env.FC_RUNS ?? 500);
const TODAY = "2026-11-28";
const Q4: TaxPeriod = { kind: "quarter", from: "2026-10-01", to: "2026-12-31", value: "2026-Q4" };

const tally = (t: Partial<TaxTally>): TaxTally => ({
  currency: "GBP",
  country: "GB",
  treatment: "domestic",
  rate: 2000,
  sales: 0,
  netCents: 0,
  taxCents: 0,
  refunds: 0,
  refundedNetCents: 0,
  refundedTaxCents: 0,
  ...t,
});

describe("parseTaxPeriod", () => {
  it("is the quarter today is in when nothing is asked", () => {
    expect(parseTaxPeriod({}, TODAY)).toEqual({ ok: true, data: Q4 });
  });

  it("reads a month and a quarter, leap years and lower case included", () => {
    expect(parseTaxPeriod({ period: "2024-02" }, TODAY)).toEqual({
      ok: true,
      data: { kind: "month", from: "2024-02-01", to: "2024-02-29", value: "2024-02" },
    });
    expect(parseTaxPeriod({ period: "2026-q1" }, TODAY)).toEqual({
      ok: true,
      data: { kind: "quarter", from: "2026-01-01", to: "2026-03-31", value: "2026-Q1" },
    });
    expect(namedPeriod("2026-Q3")).toMatchObject({ from: "2026-07-01", to: "2026-09-30" });
  });

  it("reads custom days, at most five years", () => {
    expect(parseTaxPeriod({ from: "2026-03-01", to: "2026-05-04" }, TODAY)).toEqual({
      ok: true,
      data: { kind: "custom", from: "2026-03-01", to: "2026-05-04" },
    });
    expect(parseTaxPeriod({ from: "2021-01-01", to: "2025-12-31" }, TODAY).ok).toBe(true);
  });

  it("refuses bad input with a message per field", () => {
    const fails = (input: object) => {
      const r = parseTaxPeriod(input, TODAY);
      return r.ok ? [] : r.errors;
    };
    const period = "Period must be a month (2026-11) or a quarter (2026-Q4), or give From and To dates";
    for (const p of ["2026-13", "2026-Q5", "forever", "26-11", ["2026-11", "2026-12"], 202611])
      expect(fails({ period: p }), String(p)).toEqual([{ field: "period", message: period }]);
    expect(fails({ from: "2026-01-01" })).toEqual([{ field: "to", message: "To is required" }]);
    expect(fails({ from: "01/02/2026", to: "2026-02-30" })).toEqual([
      { field: "from", message: "From must be a date (YYYY-MM-DD)" },
      { field: "to", message: "To must be a real date" },
    ]);
    expect(fails({ from: "2026-03-01", to: "2026-02-01" })).toEqual([
      { field: "to", message: "To must be on or after From" },
    ]);
    expect(fails({ from: "2020-01-01", to: "2025-01-01" })).toEqual([
      { field: "to", message: "A period can be at most 5 years long" },
    ]);
  });

  it("names periods and offers this and the last month and quarter", () => {
    expect(periodLabel(namedPeriod("2026-11"))).toBe("Nov 2026");
    expect(periodLabel(Q4)).toBe("Q4 2026 (Oct 1, 2026 to Dec 31, 2026)");
    expect(periodLabel({ kind: "custom", from: "2026-03-01", to: "2026-05-04" })).toBe("Mar 1, 2026 to May 4, 2026");
    expect(periodChoices("2026-01-15").map((c) => c.value)).toEqual(["2026-01", "2025-12", "2026-Q1", "2025-Q4"]);
    expect(quarterOf("2026-06-30")).toBe("2026-Q2");
  });
});

describe("taxReport", () => {
  it("gives each currency its lines by country, its totals per treatment and its OSS lines", () => {
    const report = taxReport(Q4, [
      tally({ country: "FR", treatment: "oss", rate: 2000, sales: 2, netCents: 8000, taxCents: 1600 }),
      tally({ sales: 3, netCents: 12000, taxCents: 2400, refunds: 1, refundedNetCents: 2000, refundedTaxCents: 400 }),
      tally({ country: "DE", treatment: "reverse-charge", rate: 0, sales: 1, netCents: 4900 }),
      tally({ country: "DE", treatment: "oss", rate: 1900, sales: 1, netCents: 4000, taxCents: 760 }),
      tally({ country: "", treatment: "domestic", sales: 1, netCents: 4000, taxCents: 800 }),
      tally({ country: "US", treatment: "outside-scope", rate: 0, sales: 1, netCents: 4900 }),
      tally({ currency: "EUR", country: "FR", treatment: "oss", sales: 1, netCents: 5000, taxCents: 1000 }),
      // A key seen twice is added up; a line of zeros is left out.
      tally({ country: "US", treatment: "outside-scope", rate: 0, sales: 1, netCents: 100 }),
      tally({ country: "IT", treatment: "oss", rate: 2200 }),
    ]);
    expect(report.currencies.map((c) => c.currency)).toEqual(["GBP", "EUR"]);
    const gbp = report.currencies[0]!;
    expect(gbp.lines.map((l) => `${l.countryName} ${l.treatment} ${l.rate}`)).toEqual([
      "France oss 2000",
      "Germany oss 1900",
      "Germany reverse-charge 0",
      "United Kingdom domestic 2000",
      "United States outside-scope 0",
      "Not known domestic 2000",
    ]);
    expect(gbp.lines.find((l) => l.country === "US")).toMatchObject({ sales: 2, netCents: 5000 });
    expect(gbp.treatments).toEqual([
      { treatment: "domestic", ...figures(4, 16000, 3200, 1, 2000, 400) },
      { treatment: "oss", ...figures(3, 12000, 2360) },
      { treatment: "reverse-charge", ...figures(1, 4900) },
      { treatment: "outside-scope", ...figures(2, 5000) },
    ]);
    expect(gbp.total).toEqual(figures(10, 37900, 5560, 1, 2000, 400));
    expect(gbp.oss.map((l) => [l.country, l.rate, l.netCents, l.taxCents])).toEqual([
      ["FR", 2000, 8000, 1600],
      ["DE", 1900, 4000, 760],
    ]);
    expect(report.currencies[1]!.total).toEqual(figures(1, 5000, 1000));
  });

  it("is empty without figures", () => {
    expect(taxReport(Q4, [])).toEqual({ period: Q4, currencies: [] });
  });

  it("has totals that are the sums of their lines, per currency, never across currencies", () => {
    const amount = fc.integer({ min: -1_000_000, max: 10_000_000 });
    const arbTally = fc.record({
      currency: fc.constantFrom(...CURRENCIES),
      country: fc.constantFrom("GB", "FR", "DE", "GR", "US", ""),
      treatment: fc.constantFrom(...TAX_TREATMENTS),
      rate: fc.constantFrom(0, 2000, 1900, 2400),
      sales: fc.integer({ min: -3, max: 50 }),
      netCents: amount,
      taxCents: amount,
      refunds: fc.integer({ min: 0, max: 5 }),
      refundedNetCents: amount,
      refundedTaxCents: amount,
    });
    fc.assert(
      fc.property(fc.array(arbTally, { maxLength: 40 }), (tallies) => {
        const report = taxReport(Q4, tallies);
        for (const c of report.currencies) {
          const own = tallies.filter((t) => t.currency === c.currency);
          expect(c.total).toEqual(sumOf(own));
          expect(c.total).toEqual(sumOf(c.lines));
          expect(sumOf(c.treatments)).toEqual(c.total);
          for (const t of c.treatments)
            expect(t).toEqual({ treatment: t.treatment, ...sumOf(own.filter((o) => o.treatment === t.treatment)) });
          expect(c.ossTotal).toEqual(sumOf(own.filter((t) => t.treatment === "oss")));
          expect(c.lines.every((l) => l.currency === c.currency)).toBe(true);
        }
        // Every currency with a figure has a section; none other does.
        const withFigures = CURRENCIES.filter((cur) =>
          tallies.some((t) => t.currency === cur && Object.values(sumOf([t])).some((v) => v !== 0)),
        );
        expect(report.currencies.map((c) => c.currency).every((cur) => withFigures.includes(cur))).toBe(true);
        // The table has one row per line, and its decimals read back to the line's cents.
        const table = taxTable(report);
        expect(table.rows.length).toBe(report.currencies.reduce((n, c) => n + c.lines.length, 0));
        const lines = report.currencies.flatMap((c) => c.lines);
        table.rows.forEach((row, i) => {
          expect(Math.round(Number(row[6]) * 100)).toBe(lines[i]!.netCents);
          expect(Math.round(Number(row[12]) * 100)).toBe(lines[i]!.taxCents - lines[i]!.refundedTaxCents);
        });
      }),
      { numRuns: RUNS },
    );
  });
});

describe("amounts", () => {
  it("print in their currency, negative ones with a minus sign", () => {
    expect(money(4900, "GBP")).toBe("£49.00");
    expect(money(-350, "EUR")).toBe("−€3.50");
    expect(money(0, "USD")).toBe("$0.00");
    expect(decimal(-5)).toBe("-0.05");
    expect(decimal(123456)).toBe("1234.56");
  });

  it("the table writes rates as percentages and the country's code and name", () => {
    const report = taxReport(Q4, [
      tally({ country: "GR", treatment: "oss", rate: 2400, sales: 1, netCents: 1000, taxCents: 240 }),
    ]);
    expect(taxTable(report).rows).toEqual([
      ["GBP", "GR", "Greece", "EU consumers (OSS)", "24%", 1, "10.00", "2.40", 0, "0.00", "0.00", "10.00", "2.40"],
    ]);
  });
});

function figures(sales: number, net: number, tax = 0, refunds = 0, refundedNet = 0, refundedTax = 0): TaxFigures {
  return {
    sales,
    netCents: net,
    taxCents: tax,
    refunds,
    refundedNetCents: refundedNet,
    refundedTaxCents: refundedTax,
  };
}

function sumOf(rows: TaxFigures[]): TaxFigures {
  const out = figures(0, 0);
  for (const r of rows) for (const k of Object.keys(out) as (keyof TaxFigures)[]) out[k] += r[k];
  return out;
}
