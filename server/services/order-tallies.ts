import { and, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import type { OrderFilters } from "../../domain/order-filters";
import type { Db } from "../db/client";
import { preparedRows } from "../db/prepared";
import { orderDayCounts, orderMonthCounts, orderSalesMonths, orderTallyZone, orders } from "../db/schema";

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

/** The month rows of a list's status filters (a list limited to dates is counted by its days). */
const monthWhere = (filters: OrderFilters): SQL | undefined =>
  and(
    filters.payment ? eq(orderMonthCounts.paymentStatus, filters.payment) : undefined,
    filters.status ? eq(orderMonthCounts.orderStatus, filters.status) : undefined,
  );

/** Whether a list is limited to dates (then its days are read, not months). */
const dated = (filters: OrderFilters) => Boolean(filters.from || filters.to);

/** The day rows of a list's filters (days are the site's, as the desk's from/to). */
const dayWhere = (filters: OrderFilters): SQL | undefined =>
  and(
    filters.payment ? eq(orderDayCounts.paymentStatus, filters.payment) : undefined,
    filters.status ? eq(orderDayCounts.orderStatus, filters.status) : undefined,
    filters.from ? gte(orderDayCounts.day, filters.from) : undefined,
    filters.to ? lte(orderDayCounts.day, filters.to) : undefined,
  );

export function createOrderTallies(db: Db, timeZone: string) {
  let zoneChecked: Promise<void> | undefined;

  /**
   * Days and months are tallied in the site's time zone: if the stored one differs (first start after the migration,
   * or the site moved), they are tallied again once, with orders locked against writes meanwhile.
   */
  function ensureZone(): Promise<void> {
    zoneChecked ??= (async () => {
      const [row] = await db.select().from(orderTallyZone);
      if (row?.timeZone === timeZone) return;
      await db.transaction(async (tx) => {
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
      });
    })().catch((error: unknown) => {
      zoneChecked = undefined;
      throw error;
    });
    return zoneChecked;
  }

  return {
    ensureZone,

    /** Sum of Paid orders' prices (two decimals), from the months' tallies. */
    async totalSales(): Promise<number> {
      await ensureZone();
      const [row] = await preparedRows<{ total: string }>(
        db,
        sql`select coalesce(sum(${orderSalesMonths.amount}), 0)::numeric(14,2) as total from ${orderSalesMonths}`,
      );
      return Number(row?.total ?? 0);
    },

    /** Paid sales per calendar month (site time zone) over the 12 months up to `now`'s, oldest first. */
    async salesByMonth(now: Date): Promise<{ month: string; total: number }[]> {
      await ensureZone();
      const rows = await preparedRows<{ month: string; total: string }>(
        db,
        sql`
        with months as (
          select (date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${timeZone})
                  - make_interval(months => g))::date as month
          from generate_series(0, 11) g
        )
        select to_char(m.month, 'YYYY-MM') as month, coalesce(s.amount, 0)::numeric(14,2) as total
        from months m left join ${orderSalesMonths} s on s.month = m.month
        order by m.month`,
      );
      return rows.map((r) => ({ month: r.month, total: Number(r.total) }));
    },

    /** How many orders a list filtered by statuses and days holds (exact; `tallied(filters)` must hold). */
    async count(filters: OrderFilters): Promise<number> {
      await ensureZone();
      const [row] = await preparedRows<{ n: string }>(
        db,
        dated(filters)
          ? sql`select coalesce(sum(${orderDayCounts.n}), 0) as n from ${orderDayCounts}
                where ${dayWhere(filters) ?? sql`true`}`
          : sql`select coalesce(sum(${orderMonthCounts.n}), 0) as n from ${orderMonthCounts}
                where ${monthWhere(filters) ?? sql`true`}`,
      );
      return Number(row?.n ?? 0);
    },

    /**
     * Where row number `offset` (0-based) of a list (tallied filters) sorted by creation lies: the condition that
     * starts the list at the beginning of its day, and how many rows of that day come before it. The list then
     * skips at most one day of rows, however deep the page. Null when the list is shorter.
     *
     * One statement: the month the row lies in, from the month counts, then the day within that month (a list
     * limited to dates reads the days of its range directly).
     */
    async pageStart(
      filters: OrderFilters,
      offset: number,
      oldestFirst: boolean,
    ): Promise<{ from: SQL; skip: number } | null> {
      await ensureZone();
      const dir = oldestFirst ? sql`asc` : sql`desc`;
      const day = orderDayCounts.day;
      const n = orderDayCounts.n;
      const days = dated(filters)
        ? sql`select ${day} as day, sum(${n}) as n, sum(sum(${n})) over (order by ${day} ${dir}) as up_to
              from ${orderDayCounts} where ${dayWhere(filters) ?? sql`true`} group by ${day}`
        : sql`with by_month as (
                select ${orderMonthCounts.month} as month, sum(${orderMonthCounts.n}) as n,
                       sum(sum(${orderMonthCounts.n})) over (order by ${orderMonthCounts.month} ${dir}) as up_to
                from ${orderMonthCounts} where ${monthWhere(filters) ?? sql`true`} group by ${orderMonthCounts.month}),
              chosen as (
                select month, up_to - n as before from by_month where up_to > ${offset}::numeric
                order by month ${dir} limit 1)
              select ${day} as day, sum(${n}) as n,
                     (select before from chosen) + sum(sum(${n})) over (order by ${day} ${dir}) as up_to
              from ${orderDayCounts}
              where ${dayWhere(filters) ?? sql`true`}
                and ${day} >= (select month from chosen) and ${day} < (select month from chosen) + interval '1 month'
              group by ${day}`;
      const [row] = await preparedRows<{ day: string; n: string; up_to: string }>(
        db,
        sql`select day::text as day, n::text as n, up_to::text as up_to from (${days}) by_day
            where up_to > ${offset}::numeric order by day ${dir} limit 1`,
      );
      if (!row) return null;
      const before = Number(row.up_to) - Number(row.n);
      const from = oldestFirst
        ? sql`${orders.createdAt} >= (${row.day}::date)::timestamp at time zone ${timeZone}`
        : lt(orders.createdAt, sql`(${row.day}::date + 1)::timestamp at time zone ${timeZone}`);
      return { from, skip: offset - before };
    },
  };
}

export type OrderTallies = ReturnType<typeof createOrderTallies>;
