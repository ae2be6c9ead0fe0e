import { dayKey } from "./dates";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CURRENCIES, type Currency } from "./currency";
import {
  InvalidVatNumberError,
  OUTSIDE_EU_VAT_NOTE,
  OUTSIDE_UK_VAT_NOTE,
  rateText,
  REVERSE_CHARGE_NOTE,
  taxFor,
  VatSettingsError,
  type TaxBuyer,
  type TaxInput,
  type TaxSeller,
} from "./tax";
import { VAT_NUMBER_FORMS } from "./vat-number";
import { MissingVatRateError, standardRate, VAT_COUNTRIES, type VatCountry } from "./vat-rates";

const runs = { numRuns: Number(process.env.FC_RUNS ?? 2000) };

/** A number of each country's form: the example its sentence gives. */
const example = (country: VatCountry) => /\(([A-Z0-9]+)\)$/.exec(VAT_NUMBER_FORMS[country].is)![1]!;

const ukSeller: TaxSeller = {
  country: "GB",
  vatRegistered: true,
  vatNumber: "GB123456789",
  pricesIncludeVat: false,
  oss: false,
};
const deSeller: TaxSeller = { ...ukSeller, country: "DE", vatNumber: "DE123456789" };
const day = new Date("2026-06-15T10:00:00Z");
const tax = (
  seller: Partial<TaxSeller>,
  buyer: Partial<TaxBuyer>,
  cents = 4900,
  date: Date | string = day,
  currency = "GBP",
) =>
  taxFor({
    seller: { ...ukSeller, ...seller },
    buyer: { country: "GB", vatNumber: null, ...buyer },
    price: { cents, currency: currency as Currency },
    date,
  });
const caught = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("it did not throw");
};

describe("tax decided by one pure function (issue 35 part 2, decision 071)", () => {
  it("a seller not registered for VAT charges none, whoever buys, and prints no note", () => {
    for (const buyer of [{ country: "GB" }, { country: "FR", vatNumber: "FR12345678901" }, { country: "US" }]) {
      for (const pricesIncludeVat of [false, true]) {
        expect(tax({ vatRegistered: false, vatNumber: "", pricesIncludeVat, oss: true }, buyer)).toEqual({
          netCents: 4900,
          taxCents: 0,
          grossCents: 4900,
          currency: "GBP",
          rateBasisPoints: 0,
          rateCountry: null,
          treatment: "not-registered",
          note: null,
        });
      }
    }
  });

  it("a UK buyer pays UK VAT, consumer or business (UK to UK business is not a reverse charge)", () => {
    const consumer = tax({}, { country: "GB" });
    expect(consumer).toEqual({
      netCents: 4900,
      taxCents: 980,
      grossCents: 5880,
      currency: "GBP",
      rateBasisPoints: 2000,
      rateCountry: "GB",
      treatment: "domestic",
      note: null,
    });
    expect(tax({}, { country: "uk", vatNumber: "GB 987 6543 21" })).toEqual(consumer);
    expect(tax({ oss: true }, { country: "GB" })).toEqual(consumer);
  });

  it("prices including VAT: the price is the gross and the VAT is taken out of it", () => {
    expect(tax({ pricesIncludeVat: true }, { country: "GB" }, 5880)).toMatchObject({
      netCents: 4900,
      taxCents: 980,
      grossCents: 5880,
      treatment: "domestic",
    });
    expect(tax({ pricesIncludeVat: true }, { country: "GB" }, 4900)).toMatchObject({
      netCents: 4083,
      taxCents: 817, // 4900 × 2000 / 12000 = 816.67
      grossCents: 4900,
    });
  });

  it("an EU business with a VAT number: reverse charge, no VAT, the note the invoice prints", () => {
    const expected = {
      netCents: 4900,
      taxCents: 0,
      grossCents: 4900,
      currency: "GBP",
      rateBasisPoints: 0,
      rateCountry: null,
      treatment: "reverse-charge",
      note: "Reverse charge: customer to account for VAT",
    };
    expect(REVERSE_CHARGE_NOTE).toBe("Reverse charge: customer to account for VAT");
    expect(tax({}, { country: "FR", vatNumber: "FR12345678901" })).toEqual(expected);
    expect(tax({ oss: true }, { country: "DE", vatNumber: "de 123456789" })).toEqual(expected);
    expect(tax({ pricesIncludeVat: true }, { country: "EL", vatNumber: "EL123456789" })).toEqual(expected);
    expect(tax({}, { country: "gr", vatNumber: "123456789" })).toEqual(expected);
  });

  it("an EU consumer: the buyer's country's rate when OSS applies", () => {
    expect(tax({ oss: true }, { country: "DE" })).toEqual({
      netCents: 4900,
      taxCents: 931,
      grossCents: 5831,
      currency: "GBP",
      rateBasisPoints: 1900,
      rateCountry: "DE",
      treatment: "oss",
      note: null,
    });
    expect(tax({ oss: true }, { country: "HU" })).toMatchObject({ taxCents: 1323, rateBasisPoints: 2700 });
    expect(tax({ oss: true }, { country: "EL" })).toMatchObject({ rateCountry: "GR", rateBasisPoints: 2400 });
    // Including VAT, the price stays the same everywhere; what is net of it differs by country.
    expect(tax({ oss: true, pricesIncludeVat: true }, { country: "LU" }, 11700)).toMatchObject({
      netCents: 10000,
      taxCents: 1700,
      grossCents: 11700,
      rateCountry: "LU",
    });
  });

  it("a UK seller without the non-Union OSS: an EU consumer's sale is outside the scope of UK VAT", () => {
    expect(tax({ oss: false }, { country: "FR" })).toEqual({
      netCents: 4900,
      taxCents: 0,
      grossCents: 4900,
      currency: "GBP",
      rateBasisPoints: 0,
      rateCountry: null,
      treatment: "outside-scope",
      note: "Outside the scope of UK VAT",
    });
    expect(OUTSIDE_UK_VAT_NOTE).toBe("Outside the scope of UK VAT");
  });

  it("a buyer elsewhere: outside the scope, whatever number they give; the note names the seller's side", () => {
    for (const buyer of [
      { country: "US" },
      { country: "CH", vatNumber: "CHE-123.456.789 MWST" },
      { country: "no", vatNumber: "NO123456789MVA" },
    ]) {
      expect(tax({ oss: true }, buyer), buyer.country).toMatchObject({
        taxCents: 0,
        grossCents: 4900,
        treatment: "outside-scope",
        note: "Outside the scope of UK VAT",
      });
      expect(tax(deSeller, buyer), buyer.country).toMatchObject({
        taxCents: 0,
        treatment: "outside-scope",
        note: "Outside the scope of EU VAT",
      });
    }
    expect(OUTSIDE_EU_VAT_NOTE).toBe("Outside the scope of EU VAT");
    expect(tax(deSeller, { country: "GB" })).toMatchObject({ treatment: "outside-scope", note: OUTSIDE_EU_VAT_NOTE });
    expect(tax(deSeller, { country: "GB", vatNumber: "GB123456789" })).toMatchObject({ treatment: "outside-scope" });
  });

  it("a buyer's country blank or not a country code: taxed as at home, where the seller belongs", () => {
    for (const country of ["", "  ", "United Kingdom", "Narnia"]) {
      expect(tax({ oss: true }, { country }), country).toMatchObject({
        treatment: "domestic",
        rateCountry: "GB",
        taxCents: 980,
      });
      expect(tax(deSeller, { country }), country).toMatchObject({ treatment: "domestic", rateCountry: "DE" });
    }
    // A number without a country is not a business's of a known country: taxed at home, the number unread.
    expect(tax({ oss: true }, { country: "", vatNumber: "FR12345678901" })).toMatchObject({ treatment: "domestic" });
    expect(tax({}, { country: "Narnia", vatNumber: "nonsense" })).toMatchObject({ treatment: "domestic" });
  });

  it("an EU seller: home buyers pay its VAT; other member states' businesses reverse charge; consumers OSS or home VAT", () => {
    expect(tax(deSeller, { country: "DE" })).toMatchObject({ treatment: "domestic", rateCountry: "DE", taxCents: 931 });
    expect(tax(deSeller, { country: "DE", vatNumber: "DE987654321" })).toMatchObject({
      treatment: "domestic",
      rateCountry: "DE",
      note: null,
    });
    expect(tax(deSeller, { country: "AT", vatNumber: "ATU12345678" })).toMatchObject({
      treatment: "reverse-charge",
      taxCents: 0,
      note: REVERSE_CHARGE_NOTE,
    });
    expect(tax({ ...deSeller, oss: true }, { country: "FR" })).toMatchObject({
      treatment: "oss",
      rateCountry: "FR",
      taxCents: 980,
    });
    // Union OSS off: below the EU's threshold for such sales, the seller's own VAT.
    expect(tax({ ...deSeller, oss: false }, { country: "FR" })).toMatchObject({
      treatment: "domestic",
      rateCountry: "DE",
      taxCents: 931,
      note: null,
    });
  });

  it("the date picks the rate: the day before a change and the day of it", () => {
    const fi = (iso: string) => tax({ oss: true }, { country: "FI" }, 10000, new Date(iso));
    expect(fi("2024-08-31T23:59:59Z")).toMatchObject({ rateBasisPoints: 2400, taxCents: 2400 });
    expect(fi("2024-09-01T00:00:00Z")).toMatchObject({ rateBasisPoints: 2550, taxCents: 2550 });
    const sk = (iso: string) =>
      tax({ ...deSeller, country: "SK", vatNumber: "SK1234567890" }, { country: "SK" }, 10000, new Date(iso));
    expect(sk("2024-12-31T12:00:00Z").rateBasisPoints).toBe(2000);
    expect(sk("2025-01-01T12:00:00Z").rateBasisPoints).toBe(2300);
  });

  it("a day given as such is the site's day: 00:30 in Helsinki on the day of a change is that day, not UTC's", () => {
    const fi = (date: Date | string) => tax({ oss: true }, { country: "FI" }, 10000, date);
    const halfPastMidnightInHelsinki = new Date("2024-08-31T21:30:00Z"); // UTC+3: 00:30 on September 1st
    expect(fi(halfPastMidnightInHelsinki).rateBasisPoints).toBe(2400);
    expect(fi(dayKey(halfPastMidnightInHelsinki, "Europe/Helsinki")).rateBasisPoints).toBe(2550);
    expect(() => fi("2024-9-1")).toThrow(RangeError);
  });

  it("no rate for the day is the named error, never 0 %", () => {
    const e = caught(() => tax({ oss: true }, { country: "FR" }, 4900, new Date("2019-12-31T12:00:00Z")));
    expect(e).toBeInstanceOf(MissingVatRateError);
    expect(e).toMatchObject({
      message: "No standard VAT rate is known for France (FR) on 2019-12-31 (the table starts on 2020-01-01).",
    });
    expect(() => tax({}, { country: "GB" }, 4900, new Date("2019-06-01T00:00:00Z"))).toThrow(MissingVatRateError);
  });

  it("a buyer's VAT number not of their country's form is refused with the sentence naming it", () => {
    const e = caught(() => tax({}, { country: "DE", vatNumber: "DE12345" }));
    expect(e).toBeInstanceOf(InvalidVatNumberError);
    expect(e).toMatchObject({
      name: "InvalidVatNumberError",
      message: "A German VAT number is DE followed by 9 digits (DE123456789).",
    });
    expect(() => tax({}, { country: "FR", vatNumber: "DE123456789" })).toThrow(
      "DE starts a German VAT number, not a French one.",
    );
    expect(() => tax({}, { country: "GB", vatNumber: "12" })).toThrow(InvalidVatNumberError);
    // Blank is no number: the buyer is a consumer.
    expect(tax({ oss: true }, { country: "FR", vatNumber: "  " })).toMatchObject({ treatment: "oss" });
  });

  it("settings that cannot be taxed are a clear error: a registered seller outside the UK and EU, or without its number", () => {
    expect(() => tax({ country: "US" }, {})).toThrow(VatSettingsError);
    expect(() => tax({ country: "US" }, {})).toThrow(
      "VAT is charged only by a seller in the UK or the European Union; the seller's country is US.",
    );
    expect(() => tax({ vatNumber: " " }, {})).toThrow(
      "A seller registered for VAT needs its VAT number in the settings.",
    );
    expect(() => tax({ vatNumber: "GB12" }, {})).toThrow(
      "The seller's VAT number is not of its country's form: A UK VAT number is GB followed by 9 or 12 digits",
    );
    expect(tax({ country: "US", vatRegistered: false, vatNumber: "" }, {}).treatment).toBe("not-registered");
  });

  it("an amount is whole cents and a currency offered", () => {
    for (const cents of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => tax({}, {}, cents), String(cents)).toThrow(RangeError);
    }
    expect(() => tax({}, {}, 100, day, "JPY")).toThrow("not a currency offered: JPY");
    expect(tax({}, {}, 0)).toMatchObject({ netCents: 0, taxCents: 0, grossCents: 0, treatment: "domestic" });
  });

  it("rounds the VAT of the line to the nearest cent, exact halves up", () => {
    // Excluding VAT: 100 × 25.5 % = 25.5 → 26; 50 × 21 % = 10.5 → 11; 50 × 17 % = 8.5 → 9; 98 × 25.5 % = 24.99 → 25.
    expect(tax({ oss: true }, { country: "FI" }, 100).taxCents).toBe(26);
    expect(tax({ oss: true }, { country: "BE" }, 50).taxCents).toBe(11);
    expect(tax({ oss: true }, { country: "LU" }, 50).taxCents).toBe(9);
    expect(tax({ oss: true }, { country: "FI" }, 98).taxCents).toBe(25);
    expect(tax({ oss: true }, { country: "BE" }, 49).taxCents).toBe(10); // 10.29
    // Including VAT at 20 %: the VAT is a sixth of the gross: 3 → 0.5 → 1, 9 → 1.5 → 2, 8 → 1.33 → 1.
    const incl = (cents: number) => tax({ pricesIncludeVat: true }, { country: "GB" }, cents);
    expect(incl(3)).toMatchObject({ taxCents: 1, netCents: 2 });
    expect(incl(9)).toMatchObject({ taxCents: 2, netCents: 7 });
    expect(incl(8)).toMatchObject({ taxCents: 1, netCents: 7 });
    expect(incl(10)).toMatchObject({ taxCents: 2, netCents: 8 }); // 1.67
  });

  it("exact at any size: no float rounding on amounts beyond 2^53 / 10000", () => {
    // 9007199254740 × 20 % = 1801439850948 exactly; 4503599627370495 × 20 % = 900719925474099 exactly.
    expect(tax({}, {}, 9007199254740).taxCents).toBe(1801439850948);
    expect(tax({ pricesIncludeVat: true }, {}, 5404319552844594)).toMatchObject({
      taxCents: 900719925474099,
      netCents: 4503599627370495,
    });
    expect(() => tax({}, {}, Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
  });

  it("a rate as text for the invoice", () => {
    expect(rateText(2000)).toBe("20%");
    expect(rateText(2550)).toBe("25.5%");
    expect(rateText(1725)).toBe("17.25%");
    expect(rateText(505)).toBe("5.05%");
    expect(rateText(0)).toBe("0%");
    expect(() => rateText(20.5)).toThrow(RangeError);
    expect(() => rateText(-1)).toThrow(RangeError);
  });
});

const sellers = fc.record({
  country: fc.constantFrom(...VAT_COUNTRIES),
  vatRegistered: fc.boolean(),
  pricesIncludeVat: fc.boolean(),
  oss: fc.boolean(),
});
const buyers = fc
  .record({
    country: fc.constantFrom<string>(...VAT_COUNTRIES, "UK", "el", "US", "CH", "AU", "", "Narnia"),
    business: fc.boolean(),
  })
  .map(({ country, business }): TaxBuyer => {
    const known = VAT_COUNTRIES.find((c) => c === country.toUpperCase() || (c === "GR" && country === "el"));
    const vat = known ?? (country === "UK" ? "GB" : null);
    return { country, vatNumber: business && vat ? example(vat) : null };
  });
const inputs = fc
  .record({
    seller: sellers,
    buyer: buyers,
    cents: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 100_000_000_000 })),
    currency: fc.constantFrom(...CURRENCIES),
    date: fc.date({
      min: new Date("2020-01-01T00:00:00Z"),
      max: new Date("2030-12-31T23:59:59Z"),
      noInvalidDate: true,
    }),
  })
  .map(({ seller, buyer, cents, currency, date }): TaxInput => ({
    seller: { ...seller, vatNumber: example(seller.country) },
    buyer,
    price: { cents, currency },
    date,
  }));

describe("properties of the tax of a line, in every currency and both price modes", () => {
  it("net + tax = gross to the cent; the price is the net (excluding) or the gross (including); tax never negative", () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const t = taxFor(input);
        for (const v of [t.netCents, t.taxCents, t.grossCents]) expect(Number.isSafeInteger(v) && v >= 0).toBe(true);
        expect(t.netCents + t.taxCents).toBe(t.grossCents);
        expect(input.seller.pricesIncludeVat ? t.grossCents : t.netCents).toBe(input.price.cents);
        expect(t.currency).toBe(input.price.currency);
      }),
      runs,
    );
  });

  it("tax is 0 unless the treatment is domestic or OSS, and then it is the rate in force for its country", () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const t = taxFor(input);
        if (t.treatment === "domestic" || t.treatment === "oss") {
          expect(t.rateBasisPoints).toBe(standardRate(t.rateCountry!, input.date).basisPoints);
          expect(t.note).toBeNull();
        } else {
          expect([t.taxCents, t.rateBasisPoints, t.rateCountry]).toEqual([0, 0, null]);
          expect(t.grossCents).toBe(input.price.cents);
        }
        if (!input.seller.vatRegistered) expect(t.treatment).toBe("not-registered");
        if (t.treatment === "reverse-charge") expect(t.note).toBe(REVERSE_CHARGE_NOTE);
        if (t.treatment === "outside-scope")
          expect(t.note).toBe(input.seller.country === "GB" ? OUTSIDE_UK_VAT_NOTE : OUTSIDE_EU_VAT_NOTE);
      }),
      runs,
    );
  });

  it("the VAT is the nearest cent to net × rate (excluding) or gross × rate / (1 + rate) (including), halves up", () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const t = taxFor(input);
        const r = BigInt(t.rateBasisPoints);
        const [base, d] = input.seller.pricesIncludeVat ? [t.grossCents, 10000n + r] : [t.netCents, 10000n];
        // 2 × |tax × d − base × r| ≤ d, and at exactly a half the tax is the upper cent.
        const diff = BigInt(t.taxCents) * d - BigInt(base) * r;
        const twice = 2n * (diff < 0n ? -diff : diff);
        expect(twice <= d).toBe(true);
        if (twice === d) expect(diff > 0n).toBe(true);
      }),
      runs,
    );
  });

  it("the same inputs always give the same answer, whatever the currency, and the inputs are left as they were", () => {
    fc.assert(
      fc.property(inputs, fc.constantFrom(...CURRENCIES), (input, other) => {
        const copy = structuredClone(input);
        const first = taxFor(Object.freeze(input));
        expect(taxFor(copy)).toEqual(first);
        expect(input).toEqual(copy);
        const elsewhere = taxFor({ ...copy, price: { ...copy.price, currency: other } });
        expect({ ...elsewhere, currency: first.currency }).toEqual(first);
      }),
      runs,
    );
  });

  it("including and excluding VAT agree within a cent when the included price is the excluding gross", () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const excluding = taxFor({ ...input, seller: { ...input.seller, pricesIncludeVat: false } });
        const including = taxFor({
          ...input,
          seller: { ...input.seller, pricesIncludeVat: true },
          price: { ...input.price, cents: excluding.grossCents },
        });
        expect(including.grossCents).toBe(excluding.grossCents);
        expect(including.treatment).toBe(excluding.treatment);
        expect(Math.abs(including.taxCents - excluding.taxCents)).toBeLessThanOrEqual(1);
        expect(Math.abs(including.netCents - excluding.netCents)).toBeLessThanOrEqual(1);
      }),
      runs,
    );
  });
});
