/**
 * The STANDARD VAT rates of the UK and the 27 member states of the European Union, dated (issue 35, decision 071):
 * each country's rates with the day each took effect, so the date of a sale picks the rate in force that day, and an
 * invoice made again later says what it said then. Rates are whole basis points (2000 = 20 %, 2550 = 25.5 %), so no
 * rate is ever a float.
 *
 * Sources: the European Commission's "VAT rates applied in the Member States of the European Union" (its list of
 * standard rates and their changes) and GOV.UK's "VAT rates" (the UK's standard rate). The table starts on
 * RATES_FROM: a country's first entry is the rate in force that day, not the day that rate first took effect. Only
 * standard rates: the site sells memberships, which no member state gives a reduced rate, and the regions with their
 * own rates (the Azores, Madeira, the Canary Islands, Northern Ireland's goods) are not distinguished.
 *
 * Keeping it current: when a member state or the UK announces a change of its standard rate, add an entry with the
 * day it takes effect (the old one stays, for the sales before it) and set RATES_CHECKED to the day the sources were
 * read again. A country or a day the table does not cover is a MissingVatRateError, never 0 %.
 */

/** The 27 member states, by their ISO 3166 alpha-2 codes (Greece is GR here; its VAT numbers start with EL). */
export const EU_COUNTRIES = [
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
] as const;

export type EuCountry = (typeof EU_COUNTRIES)[number];

/** The countries whose VAT the site knows: the UK (GB) and the member states. */
export type VatCountry = "GB" | EuCountry;

export const VAT_COUNTRIES: readonly VatCountry[] = ["GB", ...EU_COUNTRIES];

/** Each country's name in English, for messages. */
export const COUNTRY_NAME: Record<VatCountry, string> = {
  GB: "the United Kingdom",
  AT: "Austria",
  BE: "Belgium",
  BG: "Bulgaria",
  HR: "Croatia",
  CY: "Cyprus",
  CZ: "Czechia",
  DK: "Denmark",
  EE: "Estonia",
  FI: "Finland",
  FR: "France",
  DE: "Germany",
  GR: "Greece",
  HU: "Hungary",
  IE: "Ireland",
  IT: "Italy",
  LV: "Latvia",
  LT: "Lithuania",
  LU: "Luxembourg",
  MT: "Malta",
  NL: "the Netherlands",
  PL: "Poland",
  PT: "Portugal",
  RO: "Romania",
  SK: "Slovakia",
  SI: "Slovenia",
  ES: "Spain",
  SE: "Sweden",
};

/** The aliases a country may be given by: UK for GB (common usage), EL for GR (the EU's VAT code for Greece). */
const ALIASES: Record<string, VatCountry> = { UK: "GB", EL: "GR" };

/**
 * The VAT country a code names, or null when it names none the table knows: trimmed, any case, UK read as GB and EL
 * as GR. A country outside the UK and the Union (US, CH, NO …) is null too: VAT of those is not this table's.
 */
export function vatCountry(code: string | null | undefined): VatCountry | null {
  const upper = (code ?? "").trim().toUpperCase();
  const country = ALIASES[upper] ?? upper;
  return (VAT_COUNTRIES as readonly string[]).includes(country) ? (country as VatCountry) : null;
}

/** Whether a code (any case, EL accepted) names a member state of the Union; the UK is not one. */
export const isEuCountry = (code: string | null | undefined): boolean => {
  const country = vatCountry(code);
  return country !== null && country !== "GB";
};

/** A rate and the day it took effect ("YYYY-MM-DD"); it stays in force until the country's next entry. */
export interface RateChange {
  from: string;
  basisPoints: number;
}

/** The first day the table covers: a sale before it has no rate here (a MissingVatRateError). */
export const RATES_FROM = "2020-01-01";

/** The day the table was last checked against its sources. */
export const RATES_CHECKED = "2026-11-28";

const since = (basisPoints: number): RateChange[] => [{ from: RATES_FROM, basisPoints }];

/** Each country's standard rate from RATES_FROM, and every change since, oldest first. */
export const STANDARD_RATES: Record<VatCountry, readonly RateChange[]> = {
  GB: since(2000),
  AT: since(2000),
  BE: since(2100),
  BG: since(2000),
  HR: since(2500),
  CY: since(1900),
  CZ: since(2100),
  DK: since(2500),
  EE: [...since(2000), { from: "2024-01-01", basisPoints: 2200 }, { from: "2025-07-01", basisPoints: 2400 }],
  FI: [...since(2400), { from: "2024-09-01", basisPoints: 2550 }],
  FR: since(2000),
  // The reduction for the second half of 2020 (a pandemic measure).
  DE: [...since(1900), { from: "2020-07-01", basisPoints: 1600 }, { from: "2021-01-01", basisPoints: 1900 }],
  GR: since(2400),
  HU: since(2700),
  IE: [...since(2300), { from: "2020-09-01", basisPoints: 2100 }, { from: "2021-03-01", basisPoints: 2300 }],
  IT: since(2200),
  LV: since(2100),
  LT: since(2100),
  // One point less during 2023 (a measure against inflation).
  LU: [...since(1700), { from: "2023-01-01", basisPoints: 1600 }, { from: "2024-01-01", basisPoints: 1700 }],
  MT: since(1800),
  NL: since(2100),
  PL: since(2300),
  PT: since(2300),
  RO: [...since(1900), { from: "2025-08-01", basisPoints: 2100 }],
  SK: [...since(2000), { from: "2025-01-01", basisPoints: 2300 }],
  SI: since(2200),
  ES: since(2100),
  SE: since(2500),
};

/** No rate for a country on a day: a clear error for the caller to show or log, instead of a silent 0 %. */
export class MissingVatRateError extends Error {
  override name = "MissingVatRateError";
  constructor(
    /** The country as it was asked for (trimmed). */
    readonly country: string,
    /** The day, "YYYY-MM-DD". */
    readonly day: string,
  ) {
    const known = vatCountry(country);
    const who = known ? `${capitalize(COUNTRY_NAME[known])} (${known})` : country ? country : "a blank country";
    const why = known && day < RATES_FROM ? ` (the table starts on ${RATES_FROM})` : "";
    super(`No standard VAT rate is known for ${who} on ${day}${why}.`);
  }
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The day a sale is taxed on, "YYYY-MM-DD": a moment's calendar day in UTC, or a day given as such. UTC rather than
 * each country's own zone: a rate changes at midnight, and only a sale within those few hours of a change could read
 * the other rate (decision 071).
 */
export function taxDay(date: Date | string): string {
  if (typeof date === "string") {
    const parsed = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
    if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date)
      throw new RangeError(`not a day (YYYY-MM-DD): ${date}`);
    return date;
  }
  if (Number.isNaN(date.getTime())) throw new RangeError("not a date: Invalid Date");
  return date.toISOString().slice(0, 10);
}

/**
 * The standard rate in force in a country on a day (a moment's UTC day), with the day it took effect. Throws a
 * MissingVatRateError for a country outside the table or a day before it starts: never 0 %.
 */
export function standardRate(country: string, date: Date | string): RateChange & { country: VatCountry } {
  const day = taxDay(date);
  const known = vatCountry(country);
  const change = known ? STANDARD_RATES[known].findLast((c) => c.from <= day) : undefined;
  if (!known || !change) throw new MissingVatRateError(country.trim(), day);
  return { country: known, basisPoints: change.basisPoints, from: change.from };
}
