import { longDate, monthName } from "./dates";
import { day } from "./order-filters";
import type { FieldError, ParseResult } from "./validation";

/**
 * The back office's reports (issue 26, part 4): what a period is, how it is cut into buckets, and the rules behind each
 * figure. The figures come from day tallies kept by triggers on orders (migration 0022, server/services/reports.ts);
 * `dayFacts` is the same rule written once more as a pure function, which the tests hold the tallies to.
 */

/**
 * A membership that ends counts as renewed when the customer's next window starts within this many days of its end.
 * Migration 0022 counts with the same number ("interval '30 days'"): change both, and rebuild the tallies.
 */
export const RENEWAL_GRACE_DAYS = 30;

/** The longest period a report covers: five years of days is at most 1,827 tally rows. */
export const MAX_PERIOD_YEARS = 5;

/** A period of at most this many days is shown day by day; a longer one month by month. */
export const MAX_DAYS_BY_DAY = 62;

export const REPORTS = [
  {
    name: "revenue",
    title: "Revenue",
    what: "Money received for paid orders, by the day it was paid: from subscription renewals (PayPal's automatic payments) and from orders placed by hand. Discounts given are what paid orders with a discount code took off their price.",
  },
  {
    name: "orders-paid",
    title: "Orders paid",
    what: "Orders paid (subscription renewals apart from orders placed by hand), and memberships given by the agency (no charge), by the day they were paid or given.",
  },
  {
    name: "new-customers",
    title: "New customers and renewals",
    what: "A customer's first paid order makes them new; each later paid order is a renewal.",
  },
  {
    name: "active-members",
    title: "Active members",
    what: "Customers whose membership was running at the end of each day or month.",
  },
  {
    name: "churn",
    title: "Memberships ended and not renewed",
    what: `A membership ends when its last day passes with no new one straight after. It counts as renewed if a new one starts within ${RENEWAL_GRACE_DAYS} days.`,
  },
  {
    name: "revenue-per-customer",
    title: "Revenue per paying customer",
    what: "Each calendar month's revenue divided by the customers who paid in that month (whole months).",
  },
] as const;

export type ReportName = (typeof REPORTS)[number]["name"];
export const REPORT_NAMES = REPORTS.map((r) => r.name) as ReportName[];
export const isReportName = (v: string): v is ReportName => (REPORT_NAMES as string[]).includes(v);

export const PERIOD_PRESETS = [
  { value: "this-month", label: "This month" },
  { value: "last-12-months", label: "Last 12 months" },
] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number]["value"];

/** Calendar days of the site's time zone (YYYY-MM-DD), both included; `to` is never after today. */
export interface Period {
  from: string;
  to: string;
  /** How the period is cut: day by day (up to 62 days) or by calendar month. */
  unit: "day" | "month";
  /** Set when the period is one of the presets. */
  preset?: PeriodPreset;
}

// ── Calendar days as YYYY-MM-DD (no time zone: a day of the site's calendar, computed in UTC) ─────────────────────

const asDate = (d: string) => new Date(`${d}T00:00:00Z`);
const asDay = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(d: string, n: number): string {
  const x = asDate(d);
  x.setUTCDate(x.getUTCDate() + n);
  return asDay(x);
}

/** The first day of the month `n` months after `d`'s. */
export function addMonths(d: string, n: number): string {
  const x = asDate(monthStart(d));
  x.setUTCMonth(x.getUTCMonth() + n);
  return asDay(x);
}

export const monthStart = (d: string) => `${d.slice(0, 7)}-01`;
export const monthEnd = (d: string) => addDays(addMonths(d, 1), -1);

/** Days from `a` to `b` (b − a). */
export const daysBetween = (a: string, b: string) =>
  Math.round((asDate(b).getTime() - asDate(a).getTime()) / 86_400_000);

/** The same calendar day `n` years on (29 February becomes 1 March in a common year). */
function addYears(d: string, n: number): string {
  const x = asDate(d);
  x.setUTCFullYear(x.getUTCFullYear() + n);
  return asDay(x);
}

const unitOf = (from: string, to: string): Period["unit"] =>
  daysBetween(from, to) + 1 <= MAX_DAYS_BY_DAY ? "day" : "month";

/** A preset period ending today (`today` is the site's day). */
export function presetPeriod(preset: PeriodPreset, today: string): Period {
  if (preset === "this-month") return { from: monthStart(today), to: today, unit: "day", preset };
  return { from: addMonths(today, -11), to: today, unit: "month", preset };
}

export interface PeriodInput {
  period?: unknown;
  from?: unknown;
  to?: unknown;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== "";

/**
 * Custom days `from` and `to` as both reports read them: each a day (YYYY-MM-DD), From not after To, at most
 * MAX_PERIOD_YEARS long. A bad input's message is pushed onto `errors` by its field; undefined then.
 */
export function parseDayRange(
  input: { from?: unknown; to?: unknown },
  errors: FieldError[],
): { from: string; to: string } | undefined {
  const read = (field: "from" | "to", label: string) => {
    const value = input[field];
    if (!present(value)) {
      errors.push({ field, message: `${label} is required` });
      return undefined;
    }
    const parsed = day(label).safeParse(typeof value === "string" ? value : "");
    if (!parsed.success) {
      errors.push({ field, message: parsed.error.issues[0]?.message ?? `${label} must be a date (YYYY-MM-DD)` });
      return undefined;
    }
    return parsed.data;
  };
  const from = read("from", "From");
  const to = read("to", "To");
  if (!from || !to) return undefined;
  if (from > to) errors.push({ field: "to", message: "To must be on or after From" });
  else if (to >= addYears(from, MAX_PERIOD_YEARS))
    errors.push({ field: "to", message: `A period can be at most ${MAX_PERIOD_YEARS} years long` });
  else return { from, to };
  return undefined;
}

/**
 * The period asked for: `from` and `to` (both, in the site's calendar), or a preset (`period`), or the last 12 months.
 * Each bad input gets its own message; a period ending after today ends today.
 */
export function parsePeriod(input: PeriodInput, today: string): ParseResult<Period> {
  const errors: FieldError[] = [];
  if (!present(input.from) && !present(input.to)) {
    if (!present(input.period)) return { ok: true, data: presetPeriod("last-12-months", today) };
    const preset = PERIOD_PRESETS.find((p) => p.value === input.period);
    if (preset) return { ok: true, data: presetPeriod(preset.value, today) };
    return {
      ok: false,
      errors: [{ field: "period", message: "Period must be this-month or last-12-months, or give From and To dates" }],
    };
  }
  const range = parseDayRange(input, errors);
  if (range && range.from > today) errors.push({ field: "from", message: "From must be today or earlier" });
  if (errors.length || !range) return { ok: false, errors };
  const { from, to } = range;
  const end = to > today ? today : to;
  return { ok: true, data: { from, to: end, unit: unitOf(from, end) } };
}

/** One bar of a chart: a day, or a calendar month cut to the period. `key` is the day or the month's first day. */
export interface Bucket {
  key: string;
  start: string;
  end: string;
}

/** The period cut into its days or months, in order: together they cover it exactly, with no day twice. */
export function bucketsOf(period: Period): Bucket[] {
  const out: Bucket[] = [];
  if (period.unit === "day") {
    for (let d = period.from; d <= period.to; d = addDays(d, 1)) out.push({ key: d, start: d, end: d });
    return out;
  }
  for (let m = monthStart(period.from); m <= period.to; m = addMonths(m, 1)) {
    const last = monthEnd(m);
    out.push({ key: m, start: m < period.from ? period.from : m, end: last > period.to ? period.to : last });
  }
  return out;
}

/** The calendar months a period touches, whole (revenue per paying customer is per month). */
export function monthsOf(period: Period): string[] {
  const out: string[] = [];
  for (let m = monthStart(period.from); m <= period.to; m = addMonths(m, 1)) out.push(m);
  return out;
}

// ── The figures ─────────────────────────────────────────────────────────────────────────────────────────────────

/** What the tallies hold for one bucket (sums of its days). */
export interface BucketTotals {
  revenue: number;
  paidOrders: number;
  givenOrders: number;
  /** Customers' first paid orders. */
  firstOrders: number;
  /** Paid orders that were a PayPal subscription's later payments (decision 046), and their money. */
  subscriptionRenewals: number;
  subscriptionRevenue: number;
  /** Paid orders that used a discount code (decision 049), and what the codes took off (price before − paid). */
  discountedOrders: number;
  discounts: number;
  /** Membership windows starting minus windows ending. */
  net: number;
  ended: number;
  renewed: number;
  /** Ends without a renewal yet whose 30 days have not all passed. */
  waiting: number;
}

export interface ReportRow extends Bucket {
  revenue: number;
  paidOrders: number;
  /** Paid orders that were a subscription's automatic payments, and their money. */
  subscriptionRenewals: number;
  subscriptionRevenue: number;
  /** The other paid orders (placed by the customer, or recorded by the studio), and their money. */
  manualOrders: number;
  manualRevenue: number;
  /** Paid orders that used a discount code, and the money their codes took off (not part of the revenue). */
  discountedOrders: number;
  discounts: number;
  givenOrders: number;
  newCustomers: number;
  renewals: number;
  /** At the bucket's last day's end. */
  activeMembers: number;
  ended: number;
  renewed: number;
  notRenewed: number;
  waiting: number;
  /** notRenewed ÷ (renewed + notRenewed); null when no end is decided yet. */
  churnRate: number | null;
}

export interface MonthRow {
  month: string;
  revenue: number;
  payers: number;
  /** revenue ÷ payers; null when nobody paid. */
  perPayer: number | null;
}

export interface Reports {
  period: Period;
  rows: ReportRow[];
  months: MonthRow[];
  totals: Omit<ReportRow, keyof Bucket | "activeMembers"> & {
    activeAtStart: number;
    activeAtEnd: number;
    revenuePerPayer: number | null;
  };
}

/**
 * Churn rate: of the memberships that ended and whose 30 days have passed (or that were renewed sooner), the share not
 * renewed. Ends still within their 30 days and not renewed yet are left out, neither renewed nor lost.
 */
export function churnRate(renewed: number, notRenewed: number): number | null {
  const decided = renewed + notRenewed;
  return decided > 0 ? notRenewed / decided : null;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * The reports of a period from its buckets' tallies (`totals` by bucket key; a bucket with none is all zeros), the
 * members active before the period began, and each month's revenue and paying customers.
 */
export function assemble(
  period: Period,
  totals: Map<string, BucketTotals>,
  activeBefore: number,
  months: Map<string, { revenue: number; payers: number }>,
): Reports {
  let active = activeBefore;
  const rows = bucketsOf(period).map((b): ReportRow => {
    const t = totals.get(b.key);
    active += t?.net ?? 0;
    const ended = t?.ended ?? 0;
    const renewed = t?.renewed ?? 0;
    const waiting = t?.waiting ?? 0;
    const notRenewed = ended - renewed - waiting;
    const revenue = cents(t?.revenue ?? 0);
    const subscriptionRevenue = cents(t?.subscriptionRevenue ?? 0);
    return {
      ...b,
      revenue,
      paidOrders: t?.paidOrders ?? 0,
      subscriptionRenewals: t?.subscriptionRenewals ?? 0,
      subscriptionRevenue,
      manualOrders: (t?.paidOrders ?? 0) - (t?.subscriptionRenewals ?? 0),
      manualRevenue: cents(revenue - subscriptionRevenue),
      discountedOrders: t?.discountedOrders ?? 0,
      discounts: cents(t?.discounts ?? 0),
      givenOrders: t?.givenOrders ?? 0,
      newCustomers: t?.firstOrders ?? 0,
      renewals: (t?.paidOrders ?? 0) - (t?.firstOrders ?? 0),
      activeMembers: active,
      ended,
      renewed,
      notRenewed,
      waiting,
      churnRate: churnRate(renewed, notRenewed),
    };
  });
  const monthRows = monthsOf(period).map((month): MonthRow => {
    const m = months.get(month);
    const revenue = cents(m?.revenue ?? 0);
    const payers = m?.payers ?? 0;
    return { month, revenue, payers, perPayer: payers > 0 ? cents(revenue / payers) : null };
  });
  const sum = (f: (r: ReportRow) => number) => rows.reduce((s, r) => s + f(r), 0);
  const renewed = sum((r) => r.renewed);
  const notRenewed = sum((r) => r.notRenewed);
  const monthRevenue = monthRows.reduce((s, m) => s + m.revenue, 0);
  const monthPayers = monthRows.reduce((s, m) => s + m.payers, 0);
  return {
    period,
    rows,
    months: monthRows,
    totals: {
      revenue: cents(sum((r) => r.revenue)),
      paidOrders: sum((r) => r.paidOrders),
      subscriptionRenewals: sum((r) => r.subscriptionRenewals),
      subscriptionRevenue: cents(sum((r) => r.subscriptionRevenue)),
      manualOrders: sum((r) => r.manualOrders),
      manualRevenue: cents(sum((r) => r.manualRevenue)),
      discountedOrders: sum((r) => r.discountedOrders),
      discounts: cents(sum((r) => r.discounts)),
      givenOrders: sum((r) => r.givenOrders),
      newCustomers: sum((r) => r.newCustomers),
      renewals: sum((r) => r.renewals),
      ended: sum((r) => r.ended),
      renewed,
      notRenewed,
      waiting: sum((r) => r.waiting),
      churnRate: churnRate(renewed, notRenewed),
      activeAtStart: activeBefore,
      activeAtEnd: active,
      revenuePerPayer: monthPayers > 0 ? cents(monthRevenue / monthPayers) : null,
    },
  };
}

// ── The per-customer rules, as the tallies count them (the reference the tests hold migration 0022 to) ────────────

/** What the tallies need of an order. Days are already the site's (the tallies convert moments in SQL). */
export interface ReportOrder {
  id: string;
  userId: string;
  paid: boolean;
  price: number;
  /** A PayPal subscription's later payment (orders.subscr_id set). */
  renewal?: boolean;
  /** The price before a discount code (orders.price_before), set exactly when the order used one. */
  priceBefore?: number;
  /** When it was paid (else placed): its day in the site's calendar, and the moment, to find a customer's first. */
  paidDay: string;
  paidAt: number;
  createdAt: number;
  /** Its customer was erased (customer_totals.erased): their windows count on no day (decision 068), their money does. */
  erased?: boolean;
  /** Its membership window (moments in ms) and the days they fall on, when it has one. */
  window?: { starts: number; valid: number; startDay: string; endDay: string };
}

export interface DayFacts {
  revenue: number;
  paidOrders: number;
  givenOrders: number;
  firstOrders: number;
  windowStarts: number;
  windowEnds: number;
  membershipsEnded: number;
  membershipsRenewed: number;
  subscriptionRenewals: number;
  subscriptionRevenue: number;
  discountedOrders: number;
  discounts: number;
}

const DAY_MS = 86_400_000;

/**
 * Every customer's facts by day: revenue and paid orders (price > 0) and given ones (price 0) on the day paid, a
 * subscription's later payments also apart (migration 0028), and those that used a discount code with what it took off
 * (price before − paid, migration 0029); a
 * customer's first paid order (earliest payment, then placement, then id); each window's start and end; a membership
 * ended where a window is not followed at once by the next, renewed when the next starts within RENEWAL_GRACE_DAYS;
 * an erased customer's windows count on no day (migration 0032). Also the customers who paid in each month.
 */
export function dayFacts(orders: ReportOrder[]): { days: Map<string, DayFacts>; payers: Map<string, number> } {
  const days = new Map<string, DayFacts>();
  const at = (d: string) => {
    let f = days.get(d);
    if (!f)
      days.set(
        d,
        (f = {
          revenue: 0,
          paidOrders: 0,
          givenOrders: 0,
          firstOrders: 0,
          windowStarts: 0,
          windowEnds: 0,
          membershipsEnded: 0,
          membershipsRenewed: 0,
          subscriptionRenewals: 0,
          subscriptionRevenue: 0,
          discountedOrders: 0,
          discounts: 0,
        }),
      );
    return f;
  };
  const byCustomer = new Map<string, ReportOrder[]>();
  for (const o of orders) byCustomer.set(o.userId, [...(byCustomer.get(o.userId) ?? []), o]);
  const payerMonths = new Map<string, Set<string>>();
  for (const [userId, own] of byCustomer) {
    const paid = own.filter((o) => o.paid && o.price > 0);
    for (const o of own.filter((x) => x.paid)) {
      const f = at(o.paidDay);
      f.revenue = cents(f.revenue + o.price);
      if (o.price > 0) f.paidOrders++;
      else f.givenOrders++;
      if (o.renewal && o.price > 0) {
        f.subscriptionRenewals++;
        f.subscriptionRevenue = cents(f.subscriptionRevenue + o.price);
      }
      if (o.priceBefore !== undefined) {
        f.discountedOrders++;
        f.discounts = cents(f.discounts + o.priceBefore - o.price);
      }
    }
    const first = [...paid].sort((a, b) => a.paidAt - b.paidAt || a.createdAt - b.createdAt || cmp(a.id, b.id))[0];
    if (first) at(first.paidDay).firstOrders++;
    for (const o of paid) {
      const month = monthStart(o.paidDay);
      payerMonths.set(month, (payerMonths.get(month) ?? new Set()).add(userId));
    }
    const windows = own
      .flatMap((o) => (o.window && !o.erased ? [o.window] : []))
      .sort((a, b) => a.starts - b.starts || a.valid - b.valid);
    windows.forEach((w, i) => {
      at(w.startDay).windowStarts++;
      at(w.endDay).windowEnds++;
      const next = windows[i + 1];
      if (next && next.starts <= w.valid) return;
      const f = at(w.endDay);
      f.membershipsEnded++;
      if (next && next.starts <= w.valid + RENEWAL_GRACE_DAYS * DAY_MS) f.membershipsRenewed++;
    });
  }
  const payers = new Map([...payerMonths].map(([m, s]) => [m, s.size]));
  return { days, payers };
}

/** PostgreSQL's order of uuids (byte order), which for their lower-case text is the text's order. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A bucket's name: under a bar ("Nov 3", "Nov") or in a table ("Nov 3, 2026", "Nov 2026"). Keys are calendar days. */
export function bucketLabel(key: string, unit: Period["unit"], where: "axis" | "table"): string {
  if (unit === "month")
    return where === "axis" ? monthName(key.slice(0, 7)) : `${monthName(key.slice(0, 7))} ${key.slice(0, 4)}`;
  const long = longDate(`${key}T12:00:00Z`, "UTC");
  return where === "axis" ? long.replace(/, \d{4}$/, "") : long;
}
