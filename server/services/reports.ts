import { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { dayKey } from "#domain/dates.ts";
import {
  addDays,
  assemble,
  parsePeriod,
  RENEWAL_GRACE_DAYS,
  type BucketTotals,
  type Period,
  type PeriodInput,
  type ReportName,
  type Reports,
} from "#domain/reports.ts";
import type { ParseResult } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { statement, statementRows } from "../db/prepared";
import { withDeps } from "../lib/with-deps";
import type { ExportTable } from "./exports";

export interface ReportsDeps {
  db: Db;
  /** The site's time zone: periods are its calendar days (the tallies count in it: orders/tallies.ts ensureZone). */
  timeZone: string;
  now: () => Date;
}

/** The reports' statements, one per read, compiled once per service; each run only fills in the period. */
const reportStatements = () => ({
  buckets: statement(sql`
    select to_char(date_trunc(${sql.placeholder("unit")}, day::timestamp), 'YYYY-MM-DD') as bucket,
           sum(revenue)::text as revenue, sum(paid_orders)::int as paid_orders, sum(given_orders)::int as given_orders,
           sum(first_orders)::int as first_orders, sum(window_starts - window_ends)::int as net,
           sum(subscription_renewals)::int as subscription_renewals,
           sum(subscription_revenue)::text as subscription_revenue,
           sum(discounted_orders)::int as discounted_orders, sum(discounts)::text as discounts,
           sum(memberships_ended)::int as ended, sum(memberships_renewed)::int as renewed,
           sum(memberships_ended - memberships_renewed)
             filter (where day >= ${sql.placeholder("decidedAfter")}::date)::int as waiting
    from report_days
    where day between ${sql.placeholder("from")}::date and ${sql.placeholder("to")}::date
    group by 1`),
  activeBefore: statement(sql`
    select coalesce(sum(window_starts - window_ends), 0)::int as n
    from report_days where day < ${sql.placeholder("from")}::date`),
  months: statement(sql`
    select to_char(m.month, 'YYYY-MM-DD') as month, m.payers,
           (select coalesce(sum(d.revenue), 0) from report_days d
            where d.day >= m.month and d.day < (m.month + interval '1 month')::date)::text as revenue
    from report_months m
    where m.month between date_trunc('month', ${sql.placeholder("from")}::date)::date and ${sql.placeholder("to")}::date`),
});

type ReportsContext = ReportsDeps & { statements: ReturnType<typeof reportStatements> };

const today = ({ now, timeZone }: ReportsDeps) => dayKey(now(), timeZone);

/** Every report of a period, from three reads of the tallies. */
async function of(ctx: ReportsContext, period: Period): Promise<Reports> {
  const { db, statements } = ctx;
  // An end counts as waiting while its 30 days may not all have passed: from the day 30 days before today on.
  const decidedAfter = addDays(today(ctx), -RENEWAL_GRACE_DAYS);
  const [buckets, [before], months] = await Promise.all([
    statementRows<{
      bucket: string;
      revenue: string;
      paid_orders: number;
      given_orders: number;
      first_orders: number;
      subscription_renewals: number;
      subscription_revenue: string;
      discounted_orders: number;
      discounts: string;
      net: number;
      ended: number;
      renewed: number;
      waiting: number | null;
    }>(db, statements.buckets, { unit: period.unit, from: period.from, to: period.to, decidedAfter }),
    statementRows<{ n: number }>(db, statements.activeBefore, { from: period.from }),
    statementRows<{ month: string; payers: number; revenue: string }>(db, statements.months, {
      from: period.from,
      to: period.to,
    }),
  ]);
  const totals = new Map<string, BucketTotals>(
    buckets.map((b) => [
      b.bucket,
      {
        revenue: Number(b.revenue),
        paidOrders: b.paid_orders,
        givenOrders: b.given_orders,
        firstOrders: b.first_orders,
        subscriptionRenewals: b.subscription_renewals,
        subscriptionRevenue: Number(b.subscription_revenue),
        discountedOrders: b.discounted_orders,
        discounts: Number(b.discounts),
        net: b.net,
        ended: b.ended,
        renewed: b.renewed,
        waiting: b.waiting ?? 0,
      },
    ]),
  );
  return assemble(
    period,
    totals,
    before?.n ?? 0,
    new Map(months.map((m) => [m.month, { revenue: Number(m.revenue), payers: m.payers }])),
  );
}

/**
 * The reports (issue 26, part 4; docs/decisions/042): every figure read from the day and month tallies that the
 * triggers of migration 0022 keep on orders, so a report costs the same with a thousand orders or a million: at most
 * one row per day of the period (five years: 1,827), one per month, and the days before the period summed once for the
 * members already active. The rules of the figures are in domain/reports.ts.
 */
export function createReportsService(deps: ReportsDeps) {
  const ctx: ReportsContext = { ...deps, statements: reportStatements() };
  return {
    /** The period asked for (a preset, or from and to in the site's calendar), checked; today is the site's. */
    period: (input: PeriodInput): ParseResult<Period> => parsePeriod(input, today(deps)),
    of: withDeps(ctx, of),
    /** One report as a table: the CSV download's header and rows (a few hundred at most, from `of`). */
    table: (name: ReportName, reports: Reports): ExportTable => {
      const { header, rows } = reportTable(name, reports);
      return { header, rows: Readable.from(rows) };
    },
    reportTable,
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;

const money = (n: number) => n.toFixed(2);
const rate = (r: number | null) => (r === null ? null : (r * 100).toFixed(1));

/**
 * One report's columns and rows, as the CSV and the REST call give them (the page's tables show the same figures). A
 * month is written as its first day's month (2026-03), a day as itself.
 */
export function reportTable(
  name: ReportName,
  reports: Reports,
): { header: string[]; rows: (string | number | null)[][] } {
  const unit = reports.period.unit;
  const when = (key: string) => (unit === "month" ? key.slice(0, 7) : key);
  const period = unit === "month" ? "Month" : "Day";
  const { rows } = reports;
  switch (name) {
    case "revenue":
      return {
        header: [
          period,
          "Revenue (USD)",
          "Subscription renewals (USD)",
          "Orders placed by hand (USD)",
          "Orders with a discount code",
          "Discounts given (USD)",
        ],
        rows: rows.map((r) => [
          when(r.key),
          money(r.revenue),
          money(r.subscriptionRevenue),
          money(r.manualRevenue),
          r.discountedOrders,
          money(r.discounts),
        ]),
      };
    case "orders-paid":
      return {
        header: [period, "Orders paid", "Subscription renewals", "Orders placed by hand", "Given by the agency"],
        rows: rows.map((r) => [when(r.key), r.paidOrders, r.subscriptionRenewals, r.manualOrders, r.givenOrders]),
      };
    case "new-customers":
      return {
        header: [period, "New customers", "Renewals"],
        rows: rows.map((r) => [when(r.key), r.newCustomers, r.renewals]),
      };
    case "active-members":
      return {
        header: [period, "Last day", "Active members"],
        rows: rows.map((r) => [when(r.key), r.end, r.activeMembers]),
      };
    case "churn":
      return {
        header: [period, "Ended", "Renewed", "Not renewed", "May still renew", "Not renewed (%)"],
        rows: rows.map((r) => [when(r.key), r.ended, r.renewed, r.notRenewed, r.waiting, rate(r.churnRate)]),
      };
    case "revenue-per-customer":
      return {
        header: ["Month", "Revenue (USD)", "Paying customers", "Revenue per paying customer (USD)"],
        rows: reports.months.map((m) => [
          m.month.slice(0, 7),
          money(m.revenue),
          m.payers,
          m.perPayer === null ? null : money(m.perPayer),
        ]),
      };
  }
}
