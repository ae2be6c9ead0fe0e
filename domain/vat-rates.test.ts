import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COUNTRY_NAME,
  EU_COUNTRIES,
  isEuCountry,
  MissingVatRateError,
  RATES_CHECKED,
  RATES_FROM,
  STANDARD_RATES,
  standardRate,
  taxDay,
  VAT_COUNTRIES,
  vatCountry,
} from "./vat-rates";

const runs = { numRuns: Number(process.env.FC_RUNS ?? 2000) };
const rateOn = (country: string, day: string) => standardRate(country, day).basisPoints;

describe("the dated table of standard VAT rates (issue 35)", () => {
  it("holds the UK and the 27 member states, checked on a day", () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(new Set(EU_COUNTRIES).size).toBe(27);
    expect(VAT_COUNTRIES).toEqual(["GB", ...EU_COUNTRIES]);
    expect(Object.keys(STANDARD_RATES).sort()).toEqual([...VAT_COUNTRIES].sort());
    expect(Object.keys(COUNTRY_NAME).sort()).toEqual([...VAT_COUNTRIES].sort());
    expect(RATES_CHECKED).toBe("2026-11-28");
    expect(RATES_FROM).toBe("2020-01-01");
  });

  it("each country's changes start on the table's first day, in order, as whole basis points", () => {
    for (const country of VAT_COUNTRIES) {
      const changes = STANDARD_RATES[country];
      expect(changes[0]?.from, country).toBe(RATES_FROM);
      for (const [i, change] of changes.entries()) {
        expect(change.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(Number.isInteger(change.basisPoints) && change.basisPoints > 0 && change.basisPoints < 10_000).toBe(
          true,
        );
        if (i > 0) expect(change.from > changes[i - 1]!.from, `${country} ${change.from}`).toBe(true);
      }
    }
  });

  it("the rates in force when the table was checked", () => {
    const now = Object.fromEntries(VAT_COUNTRIES.map((c) => [c, rateOn(c, RATES_CHECKED)]));
    expect(now).toEqual({
      GB: 2000,
      AT: 2000,
      BE: 2100,
      BG: 2000,
      HR: 2500,
      CY: 1900,
      CZ: 2100,
      DK: 2500,
      EE: 2400,
      FI: 2550,
      FR: 2000,
      DE: 1900,
      GR: 2400,
      HU: 2700,
      IE: 2300,
      IT: 2200,
      LV: 2100,
      LT: 2100,
      LU: 1700,
      MT: 1800,
      NL: 2100,
      PL: 2300,
      PT: 2300,
      RO: 2100,
      SK: 2300,
      SI: 2200,
      ES: 2100,
      SE: 2500,
    });
  });

  it("a date picks the rate in force: the day before a change and the day of it", () => {
    expect([rateOn("FI", "2024-08-31"), rateOn("FI", "2024-09-01")]).toEqual([2400, 2550]);
    expect([rateOn("SK", "2024-12-31"), rateOn("SK", "2025-01-01")]).toEqual([2000, 2300]);
    expect([rateOn("EE", "2023-12-31"), rateOn("EE", "2024-01-01")]).toEqual([2000, 2200]);
    expect([rateOn("EE", "2025-06-30"), rateOn("EE", "2025-07-01")]).toEqual([2200, 2400]);
    expect([rateOn("RO", "2025-07-31"), rateOn("RO", "2025-08-01")]).toEqual([1900, 2100]);
    expect([rateOn("LU", "2022-12-31"), rateOn("LU", "2023-01-01")]).toEqual([1700, 1600]);
    expect([rateOn("LU", "2023-12-31"), rateOn("LU", "2024-01-01")]).toEqual([1600, 1700]);
    expect([rateOn("DE", "2020-06-30"), rateOn("DE", "2020-07-01")]).toEqual([1900, 1600]);
    expect([rateOn("DE", "2020-12-31"), rateOn("DE", "2021-01-01")]).toEqual([1600, 1900]);
    expect([rateOn("IE", "2020-08-31"), rateOn("IE", "2020-09-01")]).toEqual([2300, 2100]);
    expect([rateOn("IE", "2021-02-28"), rateOn("IE", "2021-03-01")]).toEqual([2100, 2300]);
    expect(standardRate("FI", "2025-03-10")).toEqual({ country: "FI", basisPoints: 2550, from: "2024-09-01" });
  });

  it("a moment is read as its day in UTC", () => {
    expect(taxDay(new Date("2024-08-31T23:59:59.999Z"))).toBe("2024-08-31");
    expect(taxDay(new Date("2024-09-01T00:00:00Z"))).toBe("2024-09-01");
    expect(taxDay("2024-09-01")).toBe("2024-09-01");
    expect(standardRate("FI", new Date("2024-08-31T23:59:59Z")).basisPoints).toBe(2400);
    expect(standardRate("FI", new Date("2024-09-01T00:00:00Z")).basisPoints).toBe(2550);
    expect(() => taxDay(new Date("nope"))).toThrow(RangeError);
    expect(() => taxDay("2024-9-1")).toThrow(RangeError);
    expect(() => taxDay("2024-02-30")).toThrow(RangeError);
  });

  it("countries are ISO codes, any case; UK is GB's alias and EL (VAT's code) Greece's", () => {
    expect(vatCountry("gb")).toBe("GB");
    expect(vatCountry(" UK ")).toBe("GB");
    expect(vatCountry("el")).toBe("GR");
    expect(vatCountry("GR")).toBe("GR");
    for (const unknown of ["US", "CH", "NO", "XI", "", "  ", "France", "F", null, undefined]) {
      expect(vatCountry(unknown), String(unknown)).toBeNull();
    }
    expect(standardRate("uk", "2026-01-01").country).toBe("GB");
    expect(standardRate("EL", "2026-01-01")).toMatchObject({ country: "GR", basisPoints: 2400 });
    expect(isEuCountry("FR")).toBe(true);
    expect(isEuCountry("el")).toBe(true);
    expect(isEuCountry("GB")).toBe(false);
    expect(isEuCountry("UK")).toBe(false);
    expect(isEuCountry("CH")).toBe(false);
  });

  it("no rate is a named error naming the country and the day, never 0 %", () => {
    const missing = (country: string, date: string | Date) => {
      try {
        standardRate(country, date);
      } catch (e) {
        return e;
      }
      throw new Error(`a rate was found for ${country} on ${String(date)}`);
    };
    const us = missing("US", "2026-03-01");
    expect(us).toBeInstanceOf(MissingVatRateError);
    expect(us).toMatchObject({
      name: "MissingVatRateError",
      country: "US",
      day: "2026-03-01",
      message: "No standard VAT rate is known for US on 2026-03-01.",
    });
    expect(missing("FR", "2019-12-31")).toMatchObject({
      name: "MissingVatRateError",
      message: "No standard VAT rate is known for France (FR) on 2019-12-31 (the table starts on 2020-01-01).",
    });
    expect(missing("", new Date("2026-03-01T12:00:00Z"))).toMatchObject({
      message: "No standard VAT rate is known for a blank country on 2026-03-01.",
    });
  });

  it("every country has a rate on every day from the table's first, and it is one of its listed rates", () => {
    const days = fc.date({
      min: new Date("2020-01-01T00:00:00Z"),
      max: new Date("2035-12-31T23:59:59Z"),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(fc.constantFrom(...VAT_COUNTRIES), days, (country, date) => {
        const rate = standardRate(country, date);
        expect(STANDARD_RATES[country].map((c) => c.basisPoints)).toContain(rate.basisPoints);
        expect(rate.from <= taxDay(date)).toBe(true);
      }),
      runs,
    );
  });
});
