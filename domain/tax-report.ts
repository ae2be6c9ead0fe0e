import { z } from "zod";
import { countryName } from "./countries";
import { CURRENCIES, formatMoney, centsToDecimal, type Currency } from "./currency";
import { longDate, monthName } from "./dates";
import { addDays, addMonths, monthStart, parseDayRange } from "./reports";
import { rateText, TAX_TREATMENTS, type TaxTreatment } from "./tax";
import type { FieldError, ParseResult } from "./validation";

/**
 * The tax report (issue 35, part 6): for a month, a quarter or custom days of the site's calendar, per country the
 * sales invoiced (net and VAT) and the credit notes issued (net and VAT refunded), totals per treatment, and the OSS
 * figures (EU consumers taxed at their own state's rate) per member state and rate. The figures come from the day
 * tallies of migration 0038 (`tax_days`, kept by triggers on orders and credit notes; server/services/tax-report.ts),
 * summed over the period by currency, country, treatment and rate; this file turns them into the report. Currencies
 * are never added together: each has its own rows and totals.
 */

/** A period: calendar days of the site's time zone, both included. */
export interface TaxPeriod {
  kind: "month" | "quarter" | "custom";
  from: string;
  to: string;
  /** The query value a month or quarter is asked with (2026-11, 2026-Q4); absent for custom days. */
  value?: string;
}

export interface TaxPeriodInput {
  period?: unknown;
  from?: unknown;
  to?: unknown;
}

const PERIOD_MESSAGE = "Period must be a month (2026-11) or a quarter (2026-Q4), or give From and To dates";

/** `?period=`: a month (2026-11) or a quarter (2026-Q4), the year 2000 to 2999. */
const periodValue = z
  .string({ error: PERIOD_MESSAGE })
  .trim()
  .toUpperCase()
  .regex(/^2\d{3}-(0[1-9]|1[0-2]|Q[1-4])$/, { error: PERIOD_MESSAGE });

/** A month (2026-11) or a quarter (2026-Q4) as a period. */
export function namedPeriod(value: string): TaxPeriod {
  const [year, part] = value.split("-") as [string, string];
  if (part.startsWith("Q")) {
    const from = `${year}-${String((Number(part.slice(1)) - 1) * 3 + 1).padStart(2, "0")}-01`;
    return { kind: "quarter", from, to: addDays(addMonths(from, 3), -1), value };
  }
  const from = `${year}-${part}-01`;
  return { kind: "month", from, to: addDays(addMonths(from, 1), -1), value };
}

/** The quarter a day is in (2026-Q4): the report's period when none is asked for, as VAT returns are quarterly. */
export const quarterOf = (d: string) => `${d.slice(0, 4)}-Q${Math.floor((Number(d.slice(5, 7)) - 1) / 3) + 1}`;

/**
 * The period asked for: `period` (a month or a quarter), or `from` and `to` (custom days, at most MAX_PERIOD_YEARS
 * long), or, with none, the quarter `today` is in. Each bad input gets its own plain message (the page shows it by its
 * field, the REST call and the CSV answer it with a 400).
 */
export function parseTaxPeriod(input: TaxPeriodInput, today: string): ParseResult<TaxPeriod> {
  const present = (v: unknown) => v !== undefined && v !== null && v !== "";
  if (!present(input.from) && !present(input.to)) {
    if (!present(input.period)) return { ok: true, data: namedPeriod(quarterOf(today)) };
    const parsed = periodValue.safeParse(input.period);
    if (!parsed.success) return { ok: false, errors: [{ field: "period", message: PERIOD_MESSAGE }] };
    return { ok: true, data: namedPeriod(parsed.data) };
  }
  const errors: FieldError[] = [];
  const range = parseDayRange(input, errors);
  if (!range) return { ok: false, errors };
  return { ok: true, data: { kind: "custom", ...range } };
}

/** The period in words, as the reports write days: "Nov 2026", "Q4 2026 (Oct 1, 2026 to Dec 31, 2026)". */
export function periodLabel(period: TaxPeriod): string {
  const long = (d: string) => longDate(`${d}T12:00:00Z`, "UTC");
  if (period.kind === "month") return `${monthName(period.from.slice(0, 7))} ${period.from.slice(0, 4)}`;
  if (period.kind === "quarter")
    return `Q${period.value!.slice(-1)} ${period.from.slice(0, 4)} (${long(period.from)} to ${long(period.to)})`;
  return `${long(period.from)} to ${long(period.to)}`;
}

/** The periods the page offers in one click: this month, the last one, this quarter and the last one. */
export function periodChoices(today: string): { value: string; label: string }[] {
  const lastMonth = addMonths(monthStart(today), -1);
  const lastQuarter = quarterOf(addMonths(namedPeriod(quarterOf(today)).from, -3));
  return [
    { value: today.slice(0, 7), label: "This month" },
    { value: lastMonth.slice(0, 7), label: "Last month" },
    { value: quarterOf(today), label: "This quarter" },
    { value: lastQuarter, label: "Last quarter" },
  ];
}

/** How each treatment is named in the report (domain/tax.ts says what each means). */
export const TREATMENT_LABEL: Record<TaxTreatment, string> = {
  domestic: "Domestic VAT",
  oss: "EU consumers (OSS)",
  "reverse-charge": "Reverse charge",
  "outside-scope": "Outside the scope of VAT",
  "not-registered": "No VAT (not registered)",
};

/** The money of a set of sales and credit notes, in whole cents of one currency. */
export interface TaxFigures {
  /** Invoices issued, and their net and VAT. */
  sales: number;
  netCents: number;
  taxCents: number;
  /** Credit notes issued, and the net and VAT they returned. */
  refunds: number;
  refundedNetCents: number;
  refundedTaxCents: number;
}

/** One tally of the period: its sums for a currency, country, treatment and rate (basis points). */
export interface TaxTally extends TaxFigures {
  currency: Currency;
  /** The ISO code of the tax country or the buyer's; "" when the buyer's country is not known. */
  country: string;
  treatment: TaxTreatment;
  rate: number;
}

export interface TaxLine extends TaxTally {
  /** The country's English name, or "Not known". */
  countryName: string;
}

export interface TaxCurrencySection {
  currency: Currency;
  /** Per country, treatment and rate, by country name (the unknown country last). */
  lines: TaxLine[];
  /** Per treatment that has figures, in TAX_TREATMENTS order. */
  treatments: (TaxFigures & { treatment: TaxTreatment })[];
  total: TaxFigures;
  /** The OSS lines: EU consumers, per member state and rate. */
  oss: TaxLine[];
  ossTotal: TaxFigures;
}

export interface TaxReport {
  period: TaxPeriod;
  /** One per currency that has figures, in CURRENCIES order. */
  currencies: TaxCurrencySection[];
}

const ZERO: TaxFigures = { sales: 0, netCents: 0, taxCents: 0, refunds: 0, refundedNetCents: 0, refundedTaxCents: 0 };
const FIGURES = Object.keys(ZERO) as (keyof TaxFigures)[];

const add = (a: TaxFigures, b: TaxFigures): TaxFigures =>
  Object.fromEntries(FIGURES.map((k) => [k, a[k] + b[k]])) as unknown as TaxFigures;
const sum = (rows: TaxFigures[]): TaxFigures => rows.reduce(add, ZERO);
const figuresOf = (t: TaxFigures): TaxFigures =>
  Object.fromEntries(FIGURES.map((k) => [k, t[k]])) as unknown as TaxFigures;
const isZero = (t: TaxFigures) => FIGURES.every((k) => t[k] === 0);

/** The name a line shows for its country code. */
export const countryLabel = (code: string) => (code ? (countryName(code) ?? code) : "Not known");

/**
 * The report of a period from its tallies (any order; two tallies of the same key are added; an all-zero one is left
 * out): per currency, its lines by country, its totals per treatment and in all, and its OSS lines. Every total is the
 * sum of the lines it covers, to the cent.
 */
export function taxReport(period: TaxPeriod, tallies: readonly TaxTally[]): TaxReport {
  const merged = new Map<string, TaxTally>();
  for (const t of tallies) {
    const key = [t.currency, t.country, t.treatment, t.rate].join("|");
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, ...add(seen, t) } : { ...t });
  }
  const lines = [...merged.values()]
    .filter((t) => !isZero(t))
    .map((t): TaxLine => ({ ...t, countryName: countryLabel(t.country) }));
  const order = (a: TaxLine, b: TaxLine) =>
    Number(a.country === "") - Number(b.country === "") ||
    a.countryName.localeCompare(b.countryName, "en") ||
    a.country.localeCompare(b.country) ||
    TAX_TREATMENTS.indexOf(a.treatment) - TAX_TREATMENTS.indexOf(b.treatment) ||
    b.rate - a.rate;
  const currencies = CURRENCIES.flatMap((currency): TaxCurrencySection[] => {
    const own = lines.filter((l) => l.currency === currency).sort(order);
    if (!own.length) return [];
    const oss = own.filter((l) => l.treatment === "oss");
    return [
      {
        currency,
        lines: own,
        treatments: TAX_TREATMENTS.flatMap((treatment) => {
          const of = own.filter((l) => l.treatment === treatment);
          return of.length ? [{ treatment, ...sum(of.map(figuresOf)) }] : [];
        }),
        total: sum(own.map(figuresOf)),
        oss,
        ossTotal: sum(oss.map(figuresOf)),
      },
    ];
  });
  return { period, currencies };
}

/** An amount for people in its currency, a negative one with a minus sign: "£49.00", "−£3.50". */
export const money = (cents: number, currency: Currency): string =>
  cents < 0 ? `−${formatMoney(-cents, currency)}` : formatMoney(cents, currency);

/** An amount for a spreadsheet: "49.00", "-3.50". */
export const decimal = (cents: number): string => (cents < 0 ? `-${centsToDecimal(-cents)}` : centsToDecimal(cents));

export const TAX_TABLE_HEADER = [
  "Currency",
  "Country code",
  "Country",
  "Treatment",
  "Rate",
  "Sales",
  "Net sales",
  "VAT charged",
  "Credit notes",
  "Net refunded",
  "VAT refunded",
  "Net after refunds",
  "VAT after refunds",
];

/**
 * The report's lines as the CSV and the REST call give them: one row per currency, country, treatment and rate, amounts
 * as decimals of the row's currency (two places), the rate as a percentage ("20%").
 */
export function taxTable(report: TaxReport): { header: string[]; rows: (string | number)[][] } {
  return {
    header: TAX_TABLE_HEADER,
    rows: report.currencies.flatMap((c) =>
      c.lines.map((l) => [
        l.currency,
        l.country,
        l.countryName,
        TREATMENT_LABEL[l.treatment],
        rateText(l.rate),
        l.sales,
        decimal(l.netCents),
        decimal(l.taxCents),
        l.refunds,
        decimal(l.refundedNetCents),
        decimal(l.refundedTaxCents),
        decimal(l.netCents - l.refundedNetCents),
        decimal(l.taxCents - l.refundedTaxCents),
      ]),
    ),
  };
}
