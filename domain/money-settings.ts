/**
 * The site's money settings (issue 35 part 1, decision 072): one record, stored under the settings key `money` and
 * audited as one change: the currency prices are in, and the seller's VAT (country, registration, number, whether
 * prices include VAT, the One Stop Shop). A fresh install is the spec's: US dollars, not registered, no VAT.
 */
import { z } from "zod";
import { CURRENCIES, type Currency } from "./currency";
import type { TaxSeller } from "./tax";
import { checkVatNumber } from "./vat-number";
import { COUNTRY_NAME, EU_COUNTRIES, standardRate, vatCountry, type VatCountry } from "./vat-rates";

export interface MoneySettings {
  currency: Currency;
  /** Where the business is established: GB or a member state (the countries whose VAT the site knows). */
  sellerCountry: VatCountry;
  vatRegistered: boolean;
  /** The seller's VAT number as invoices print it (checked for its country's form); blank when none. */
  vatNumber: string;
  pricesIncludeVat: boolean;
  /** The One Stop Shop for consumers in the Union (the non-Union scheme for a UK seller). */
  oss: boolean;
}

export const DEFAULT_MONEY_SETTINGS: MoneySettings = {
  currency: "USD",
  sellerCountry: "GB",
  vatRegistered: false,
  vatNumber: "",
  pricesIncludeVat: false,
  oss: false,
};

/** Why the currency cannot change: orders exist (decision 072). */
export const CURRENCY_LOCKED =
  "The currency can’t change once orders exist: each order keeps the currency it was placed in, and the totals are kept in one currency";

const flag = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], { error: "Must be true or false" })
  .optional()
  .transform((v) => v === true || v === "on" || v === "true");

/**
 * The record as a form or a JSON body gives it (every field; an unticked box is absent, so false). The VAT number is
 * checked against the seller's country and kept as invoices print it; a registered seller needs one.
 */
export const moneySettingsSchema = z
  .object({
    currency: z.enum(CURRENCIES, { error: `Choose one of ${CURRENCIES.join(", ")}` }),
    sellerCountry: z.string({ error: "Choose the country" }).transform((v, ctx) => {
      const code = vatCountry(v);
      if (!code) {
        ctx.addIssue({ code: "custom", message: "Choose the United Kingdom or a member state of the European Union" });
        return z.NEVER;
      }
      return code;
    }),
    vatRegistered: flag,
    vatNumber: z
      .string({ error: "Must be text" })
      .trim()
      .max(20, { error: "At most 20 characters" })
      .optional()
      .transform((v) => v ?? ""),
    pricesIncludeVat: flag,
    oss: flag,
  })
  .transform((value, ctx): MoneySettings => {
    let vatNumber = value.vatNumber;
    if (vatNumber) {
      const checked = checkVatNumber(value.sellerCountry, vatNumber);
      if (checked.ok) vatNumber = checked.normalized;
      else ctx.addIssue({ code: "custom", path: ["vatNumber"], message: checked.message });
    } else if (value.vatRegistered)
      ctx.addIssue({
        code: "custom",
        path: ["vatNumber"],
        message: "A business registered for VAT needs its VAT number",
      });
    return { ...value, vatNumber };
  });

/** The record as stored, read leniently: a field missing or no longer valid takes its default. */
export function readMoneySettings(stored: unknown): MoneySettings {
  const parsed = moneySettingsSchema.safeParse({ ...DEFAULT_MONEY_SETTINGS, ...(stored as object) });
  return parsed.success ? parsed.data : { ...DEFAULT_MONEY_SETTINGS };
}

/** The seller as domain/tax.ts reads it. */
export const taxSellerOf = (m: MoneySettings): TaxSeller => ({
  country: m.sellerCountry,
  vatRegistered: m.vatRegistered,
  vatNumber: m.vatNumber,
  pricesIncludeVat: m.pricesIncludeVat,
  oss: m.oss,
});

/**
 * What keeps the settings from taxing a sale on `day` ("YYYY-MM-DD"): a rate missing for the seller's country, or,
 * with the One Stop Shop, for any member state. Field and message, for the settings screen; empty when none.
 */
export function moneySettingsProblems(m: MoneySettings, day: string): { field: string; message: string }[] {
  if (!m.vatRegistered) return [];
  const missing = (country: VatCountry) => {
    try {
      standardRate(country, day);
      return false;
    } catch {
      return true;
    }
  };
  const problems: { field: string; message: string }[] = [];
  if (missing(m.sellerCountry))
    problems.push({
      field: "sellerCountry",
      message: `No standard VAT rate is known for ${COUNTRY_NAME[m.sellerCountry]} on ${day}: the rates table needs it`,
    });
  if (m.oss) {
    const without = EU_COUNTRIES.filter((c) => c !== m.sellerCountry && missing(c));
    if (without.length)
      problems.push({
        field: "oss",
        message: `No standard VAT rate is known on ${day} for ${without.map((c) => COUNTRY_NAME[c]).join(", ")}: the rates table needs them`,
      });
  }
  return problems;
}
