import { and, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { OrderFilters } from "#domain/order-filters.ts";
import type { Db } from "#server/db/client.ts";
import { statement, statementRows, type Statement } from "#server/db/prepared.ts";
import type { Tx } from "../jobs";
import {
  creditNotes,
  orderDayCounts,
  orderMonthCounts,
  orderSalesMonths,
  orderTallyZone,
  orders,
} from "#server/db/schema.ts";

/**
 * Reads of the tallies the triggers of migrations 0010 and 0013 maintain (docs/decisions/026-maintained-order-tallies.md):
 * the admin dashboard's total and chart, the exact count of a list filtered by status, and where a deep page starts.
 * Each reads a few hundred rows at most (months, then one month's days), whatever the number of orders; a list
 * limited to dates reads the days of its range.
 */

/** A page deeper than this many rows starts from its day's bucket instead of skipping every row before it. */
export const DIRECT_OFFSET = 1_000;

/** Whether the tallies can count this list: statuses and days are tallied, a text search is not. */
export const tallied = (filters: OrderFilters) => !filters.q;

/** The filters a tally read takes, as placeholders (a statement is compiled once per shape, its values given per run). */
const value = (name: keyof OrderFilters) => sql.placeholder(name);

/** The month rows of a list's status filters (a list limited to dates is counted by its days). */
const monthWhere = (filters: OrderFilters): SQL =>
  and(
    filters.payment ? eq(orderMonthCounts.paymentStatus, value("payment")) : undefined,
    filters.status ? eq(orderMonthCounts.orderStatus, value("status")) : undefined,
  ) ?? sql`true`;

/** Whether a list is limited to dates (then its days are read, not months). */
const dated = (filters: OrderFilters) => Boolean(filters.from || filters.to);

/** The day rows of a list's filters (days are the site's, as the desk's from/to). */
const dayWhere = (filters: OrderFilters): SQL =>
  and(
    filters.payment ? eq(orderDayCounts.paymentStatus, value("payment")) : undefined,
    filters.status ? eq(orderDayCounts.orderStatus, value("status")) : undefined,
    filters.from ? gte(orderDayCounts.day, value("from")) : undefined,
    filters.to ? lte(orderDayCounts.day, value("to")) : undefined,
  ) ?? sql`true`;

/** Which tallied filters a list has: the statements of two lists with the same shape are the same. */
const shapeOf = (filters: OrderFilters) =>
  (["payment", "status", "from", "to"] as const).map((k) => (filters[k] ? k[0] : "-")).join("");

/** How many orders a list holds, from the month counts (the day counts for a list limited to dates). */
const countSql = (filters: OrderFilters): SQL =>
  dated(filters)
    ? sql`select coalesce(sum(${orderDayCounts.n}), 0) as n from ${orderDayCounts} where ${dayWhere(filters)}`
    : sql`select coalesce(sum(${orderMonthCounts.n}), 0) as n from ${orderMonthCounts} where ${monthWhere(filters)}`;

/**
 * How many orders a list holds (tallied filters), as a scalar subquery for the statement that reads its page
 * (server/lib/paging.ts), its filters as placeholders (`valuesOf`). The tallies must be in the site's time zone
 * (`ensureZone`).
 */
export const tallyTotal = (filters: OrderFilters): SQL => sql`(${countSql(filters)})`;

/** The values of a list's filters, for its statement's placeholders. */
export const valuesOf = (filters: OrderFilters) => ({
  payment: filters.payment,
  status: filters.status,
  from: filters.from,
  to: filters.to,
});

/**
 * Where row number `offset` (0-based, the placeholder `offset`) of a list sorted by creation (tallied filters, their
 * values as placeholders: `valuesOf`) lies, as one row for the statement that reads the page (queries.ts): `total`,
 * the list's count; `day`, the day of the site's time zone that row was created in (null when the list is shorter);
 * `before`, how many rows of the list come before that day. The count, then the month the row lies in from the month
 * counts, then the day within that month (a list limited to dates reads the days of its range directly): a few hundred
 * tally rows, however deep the page. The tallies must be in the site's time zone (`ensureZone`).
 */
export function startOf(filters: OrderFilters, oldestFirst: boolean): SQL {
  const dir = oldestFirst ? sql`asc` : sql`desc`;
  const offsetValue = sql`${sql.placeholder("offset")}::numeric`;
  const day = orderDayCounts.day;
  const n = orderDayCounts.n;
  const days = dated(filters)
    ? sql`select ${day} as day, sum(${n}) as n, sum(sum(${n})) over (order by ${day} ${dir}) as up_to
        from ${orderDayCounts} where ${dayWhere(filters)} group by ${day}`
    : sql`with by_month as (
          select ${orderMonthCounts.month} as month, sum(${orderMonthCounts.n}) as n,
                 sum(sum(${orderMonthCounts.n})) over (order by ${orderMonthCounts.month} ${dir}) as up_to
          from ${orderMonthCounts} where ${monthWhere(filters)} group by ${orderMonthCounts.month}),
        chosen as (
          select month, up_to - n as before from by_month where up_to > ${offsetValue}
          order by month ${dir} limit 1)
        select ${day} as day, sum(${n}) as n,
               (select before from chosen) + sum(sum(${n})) over (order by ${day} ${dir}) as up_to
        from ${orderDayCounts}
        where ${dayWhere(filters)}
          and ${day} >= (select month from chosen) and ${day} < (select month from chosen) + interval '1 month'
        group by ${day}`;
  return sql`select total.n as total, d.day, d.up_to - d.n as before
             from (${countSql(filters)}) total
             left join (select * from (${days}) by_day where up_to > ${offsetValue} order by day ${dir} limit 1) d
             on true`;
}

/**
 * Tallies every order again in `timeZone` (the days, months and sales of the desk, the reports' and the tax report's),
 * with orders locked against writes meanwhile, and stores the zone they are tallied in.
 */
async function retallyTx(tx: Tx, timeZone: string) {
  await tx.execute(sql`lock table ${orders} in share row exclusive mode`);
  await tx
    .insert(orderTallyZone)
    .values({ one: true, timeZone })
    .onConflictDoUpdate({ target: orderTallyZone.one, set: { timeZone } });
  await tx.delete(orderDayCounts);
  await tx.execute(sql`
      insert into ${orderDayCounts} (day, payment_status, order_status, n)
      select (created_at at time zone ${timeZone})::date, payment_status, order_status, count(*)
      from ${orders} group by 1, 2, 3`);
  await tx.delete(orderMonthCounts);
  await tx.execute(sql`
      insert into ${orderMonthCounts} (month, payment_status, order_status, n)
      select date_trunc('month', day)::date, payment_status, order_status, sum(n)
      from ${orderDayCounts} group by 1, 2, 3`);
  await tx.delete(orderSalesMonths);
  await tx.execute(sql`
      insert into ${orderSalesMonths} (month, amount, orders)
      select date_trunc('month', coalesce(paid_at, created_at) at time zone ${timeZone})::date,
             sum(package_price), count(*)
      from ${orders} where payment_status = 'Paid' group by 1`);
  // The reports' day tallies (migration 0022, server/services/reports.ts), counted in the same zone.
  await tx.execute(sql`select report_tallies_rebuild(${timeZone})`);
  // The tax report's (migration 0038, server/services/tax-report.ts): invoices and credit notes by day.
  await tx.execute(sql`lock table ${creditNotes} in share row exclusive mode`);
  await tx.execute(sql`select tax_tallies_rebuild(${timeZone})`);
}

export function createOrderTallies({ db, timeZone }: { db: Db; timeZone: string }) {
  let zoneChecked: Promise<void> | undefined;

  /** The statements of the reads below, compiled once per shape of filters (a few dozen at most). */
  const statements = new Map<string, Statement>();
  const compiled = (shape: string, query: () => SQL): Statement => {
    let found = statements.get(shape);
    if (!found) statements.set(shape, (found = statement(query())));
    return found;
  };

  const salesStatement = statement(sql`
    with months as (
      select (date_trunc('month', ${sql.placeholder("now")}::timestamptz at time zone ${timeZone})
              - make_interval(months => g))::date as month
      from generate_series(0, 11) g
    )
    select to_char(m.month, 'YYYY-MM') as month, coalesce(s.amount, 0)::numeric(14,2) as total,
           (select coalesce(sum(${orderSalesMonths.amount}), 0) from ${orderSalesMonths})::numeric(14,2) as all_time
    from months m left join ${orderSalesMonths} s on s.month = m.month
    order by m.month`);

  /**
   * Days and months are tallied in the site's time zone: if the stored one differs (first start after the migration,
   * or the site moved), they are tallied again once, with orders locked against writes meanwhile.
   */
  function ensureZone(): Promise<void> {
    zoneChecked ??= (async () => {
      const [row] = await db.select().from(orderTallyZone);
      if (row?.timeZone === timeZone) return;
      await db.transaction((tx) => retallyTx(tx, timeZone));
    })().catch((error: unknown) => {
      zoneChecked = undefined;
      throw error;
    });
    return zoneChecked;
  }

  return {
    ensureZone,

    /**
     * Sum of Paid orders' prices (two decimals) and Paid sales per calendar month (site time zone) over the 12 months
     * up to `now`'s, oldest first: the admin dashboard's total and chart, one read of the months' tallies.
     */
    async sales(now: Date): Promise<{ total: number; months: { month: string; total: number }[] }> {
      await ensureZone();
      const rows = await statementRows<{ month: string; total: string; all_time: string }>(db, salesStatement, {
        now: now.toISOString(),
      });
      return {
        total: Number(rows[0]?.all_time ?? 0),
        months: rows.map((r) => ({ month: r.month, total: Number(r.total) })),
      };
    },

    /** How many orders a list filtered by statuses and days holds (exact; `tallied(filters)` must hold). */
    async count(filters: OrderFilters): Promise<number> {
      await ensureZone();
      const [row] = await statementRows<{ n: string }>(
        db,
        compiled(`count ${shapeOf(filters)}`, () => countSql(filters)),
        valuesOf(filters),
      );
      return Number(row?.n ?? 0);
    },

    /**
     * How many orders a list (tallied filters) sorted by creation holds, and where its row number `offset` (0-based)
     * lies: the day of the site's time zone it was created in, and how many rows of the list in that day come before
     * it (`skip`). Null when the list is shorter. One prepared statement (`startOf`).
     */
    async pageStart(
      filters: OrderFilters,
      offset: number,
      oldestFirst: boolean,
    ): Promise<{ total: number; start: { day: string; skip: number } | null }> {
      await ensureZone();
      const shape = `page start ${shapeOf(filters)} ${oldestFirst ? "asc" : "desc"}`;
      const [row] = await statementRows<{ total: string; day: string | null; before: string | null }>(
        db,
        compiled(
          shape,
          () =>
            sql`select total::text as total, day::text as day, before::text as before
                from (${startOf(filters, oldestFirst)}) start`,
        ),
        { ...valuesOf(filters), offset },
      );
      const total = Number(row?.total ?? 0);
      if (!row?.day) return { total, start: null };
      return { total, start: { day: row.day, skip: offset - Number(row.before) } };
    },
  };
}

export type OrderTallies = ReturnType<typeof createOrderTallies>;
