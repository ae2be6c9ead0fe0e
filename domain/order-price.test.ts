import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CURRENCIES, centsToDecimal } from "./currency";
import { orderPrice, renewalTax } from "./order-price";
import type { TaxSeller } from "./tax";

const UK: TaxSeller = {
  country: "GB",
  vatRegistered: true,
  vatNumber: "GB123456789",
  pricesIncludeVat: false,
  oss: true,
};
const DAY = "2026-11-28";

describe("an order's price with its VAT (decision 072)", () => {
  it("adds the VAT to a net price, and keeps a discount on the same (gross) footing", () => {
    const p = orderPrice({
      seller: UK,
      currency: "GBP",
      buyer: { country: "GB", vatNumber: null },
      listPrice: 49,
      discountedPrice: 44.1,
      day: DAY,
    });
    expect(p).toMatchObject({ grossCents: 5292, grossBeforeCents: 5880, discountCents: 588 });
    expect(p.tax).toMatchObject({ netCents: 4410, taxCents: 882, rateBasisPoints: 2000, treatment: "domestic" });
  });

  it("takes the VAT out of a price that includes it; charges none to a reverse-charged business", () => {
    const gross = orderPrice({
      seller: { ...UK, pricesIncludeVat: true },
      currency: "GBP",
      buyer: { country: "FR", vatNumber: null },
      listPrice: "49.00",
      discountedPrice: null,
      day: DAY,
    });
    expect(gross).toMatchObject({ grossCents: 4900, grossBeforeCents: null, discountCents: 0 });
    expect(gross.tax).toMatchObject({ netCents: 4083, taxCents: 817, rateCountry: "FR", treatment: "oss" });
    const business = orderPrice({
      seller: UK,
      currency: "GBP",
      buyer: { country: "DE", vatNumber: "DE123456789" },
      listPrice: 49,
      discountedPrice: null,
      day: DAY,
    });
    expect(business).toMatchObject({ grossCents: 4900, tax: { taxCents: 0, treatment: "reverse-charge" } });
  });

  it("property: gross = net + VAT, and the price before a discount less the discount is the price, in every currency", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.constantFrom(...CURRENCIES),
        fc.boolean(),
        fc.constantFrom("GB", "FR", "DE", "US", ""),
        (listCents, percentOff, currency, pricesIncludeVat, country) => {
          const discounted = Math.floor((listCents * (100 - percentOff)) / 100);
          const p = orderPrice({
            seller: { ...UK, pricesIncludeVat },
            currency,
            buyer: { country, vatNumber: null },
            listPrice: centsToDecimal(listCents),
            discountedPrice: centsToDecimal(discounted),
            day: DAY,
          });
          expect(p.tax.netCents + p.tax.taxCents).toBe(p.grossCents);
          expect(p.grossBeforeCents! - p.discountCents).toBe(p.grossCents);
          expect(p.discountCents).toBeGreaterThanOrEqual(0);
          expect(p.tax.currency).toBe(currency);
        },
      ),
    );
  });
});

describe("a subscription's later payment", () => {
  it("splits the same gross at the rate of its own day; an untaxed order keeps none", () => {
    expect(renewalTax({ taxRate: 2000, taxCountry: "GB" }, 5880, DAY)).toEqual({ taxCents: 980, taxRate: 2000 });
    // Finland's rate went from 24 % to 25.5 % on 2024-09-01: the same €49.00 holds more VAT after.
    expect(renewalTax({ taxRate: 2400, taxCountry: "FI" }, 4900, "2024-08-31")).toEqual({
      taxCents: 948,
      taxRate: 2400,
    });
    expect(renewalTax({ taxRate: 2400, taxCountry: "FI" }, 4900, "2024-09-01")).toEqual({
      taxCents: 996,
      taxRate: 2550,
    });
    expect(renewalTax({ taxRate: 0, taxCountry: null }, 4900, DAY)).toEqual({ taxCents: 0, taxRate: 0 });
  });
});
