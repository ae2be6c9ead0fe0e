import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import type { Currency } from "#domain/currency.ts";
import { dayKey } from "#domain/dates.ts";
import type { TaxTreatment } from "#domain/tax.ts";
import {
  parseTaxPeriod,
  taxReport,
  taxTable,
  type TaxPeriod,
  type TaxPeriodInput,
  type TaxReport,
} from "#domain/tax-report.ts";
import type { ParseResult } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { statement, statementRows } from "../db/prepared";
import type { ExportTable } from "./exports";

export interface TaxReportDeps {
  db: Db;
  /** The site's time zone: periods are its calendar days (the tallies count in it: orders/tallies.ts ensureZone). */
  timeZone: string;
  now: () => Date;
}

/**
 * The tax report (issue 35, part 6): read from the day tallies that the triggers of migration 0038 keep on orders and
 * credit notes (`tax_days`), so it costs the same with a thousand orders or a million: one statement summing the
 * period's day rows (at most five years of days × the few countries, treatments and rates sold in) by currency,
 * country, treatment and rate. The report's shape and rules are in domain/tax-report.ts.
 */
export function createTaxReportService({ db, timeZone, now }: TaxReportDeps) {
  const tallies = statement(sql`
    select currency, country, treatment, rate, sum(sales)::int as sales, sum(net_cents)::text as net,
           sum(tax_cents)::text as tax, sum(refunds)::int as refunds, sum(refunded_net_cents)::text as refunded_net,
           sum(refunded_tax_cents)::text as refunded_tax
    from tax_days
    where day between ${sql.placeholder("from")}::date and ${sql.placeholder("to")}::date
    group by currency, country, treatment, rate`);

  /** The report of a period, from one read of the tallies. */
  async function of(period: TaxPeriod): Promise<TaxReport> {
    const rows = await statementRows<{
      currency: Currency;
      country: string;
      treatment: TaxTreatment;
      rate: number;
      sales: number;
      net: string;
      tax: string;
      refunds: number;
      refunded_net: string;
      refunded_tax: string;
    }>(db, tallies, { from: period.from, to: period.to });
    return taxReport(
      period,
      rows.map((r) => ({
        currency: r.currency,
        country: r.country,
        treatment: r.treatment,
        rate: r.rate,
        sales: r.sales,
        netCents: Number(r.net),
        taxCents: Number(r.tax),
        refunds: r.refunds,
        refundedNetCents: Number(r.refunded_net),
        refundedTaxCents: Number(r.refunded_tax),
      })),
    );
  }

  const today = () => dayKey(now(), timeZone);

  return {
    /** Today in the site's calendar (the page's choices of period start from it). */
    today,
    /** The period asked for (a month, a quarter, or from and to in the site's calendar), checked; today is the site's. */
    period: (input: TaxPeriodInput): ParseResult<TaxPeriod> => parseTaxPeriod(input, today()),
    of,
    /** The report as a table: the CSV download's header and rows (a few dozen, from `of`). */
    table: (report: TaxReport): ExportTable => {
      const { header, rows } = taxTable(report);
      return { header, rows: Readable.from(rows) };
    },
  };
}

export type TaxReportService = ReturnType<typeof createTaxReportService>;
