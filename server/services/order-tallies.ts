import { and, asc, desc, eq, gt, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import type { OrderFilters } from "../../domain/order-filters";
import type { Db } from "../db/client";
import { orderDayCounts, orderSalesMonths, orderTallyZone, orders } from "../db/schema";

/**
 * Reads of the tallies the triggers of migration 0010 maintain (docs/decisions/026-maintained-order-tallies.md):
 * the admin dashboard's total and chart, the exact count of a list filtered by status, and where a deep page starts.
 * Each reads a handful of rows (months) or a few thousand (days, only for a deep page), whatever the number of orders.
 */

/** A page deeper than this many rows starts from its day's bucket instead of skipping every row before it. */
export const DIRECT_OFFSET = 1_000;

/** Whether the tallies can count this list: statuses and days are tallied, a text search is not. */
export const tallied = (filters: OrderFilters) => !filters.q;

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
      const [row] = await db
        .select({ total: sql<string>`coalesce(sum(${orderSalesMonths.amount}), 0)::numeric(14,2)` })
        .from(orderSalesMonths);
      return Number(row?.total ?? 0);
    },

    /** Paid sales per calendar month (site time zone) over the 12 months up to `now`'s, oldest first. */
    async salesByMonth(now: Date): Promise<{ month: string; total: number }[]> {
      await ensureZone();
      const result = await db.execute<{ month: string; total: string }>(sql`
        with months as (
          select (date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${timeZone})
                  - make_interval(months => g))::date as month
          from generate_series(0, 11) g
        )
        select to_char(m.month, 'YYYY-MM') as month, coalesce(s.amount, 0)::numeric(14,2) as total
        from months m left join ${orderSalesMonths} s on s.month = m.month
        order by m.month`);
      return result.rows.map((r) => ({ month: r.month, total: Number(r.total) }));
    },

    /** How many orders a list filtered by statuses and days holds (exact; `tallied(filters)` must hold). */
    async count(filters: OrderFilters): Promise<number> {
      await ensureZone();
      const [row] = await db
        .select({ n: sql<string>`coalesce(sum(${orderDayCounts.n}), 0)` })
        .from(orderDayCounts)
        .where(dayWhere(filters));
      return Number(row?.n ?? 0);
    },

    /**
     * Where row number `offset` (0-based) of a list (tallied filters) sorted by creation lies: the condition that
     * starts the list at the beginning of its day, and how many rows of that day come before it. The list then
     * skips at most one day of rows, however deep the page. Null when the list is shorter.
     */
    async pageStart(
      filters: OrderFilters,
      offset: number,
      oldestFirst: boolean,
    ): Promise<{ from: SQL; skip: number } | null> {
      await ensureZone();
      const byDay = db
        .select({
          day: orderDayCounts.day,
          n: sql<string>`sum(${orderDayCounts.n})`.as("n"),
          upTo: sql<string>`sum(sum(${orderDayCounts.n})) over (order by ${orderDayCounts.day} ${oldestFirst ? sql`asc` : sql`desc`})`.as(
            "up_to",
          ),
        })
        .from(orderDayCounts)
        .where(dayWhere(filters))
        .groupBy(orderDayCounts.day)
        .as("by_day");
      const [row] = await db
        .select({ day: byDay.day, n: byDay.n, upTo: byDay.upTo })
        .from(byDay)
        .where(gt(byDay.upTo, String(offset)))
        .orderBy(oldestFirst ? asc(byDay.day) : desc(byDay.day))
        .limit(1);
      if (!row) return null;
      const before = Number(row.upTo) - Number(row.n);
      const from = oldestFirst
        ? sql`${orders.createdAt} >= (${row.day}::date)::timestamp at time zone ${timeZone}`
        : lt(orders.createdAt, sql`(${row.day}::date + 1)::timestamp at time zone ${timeZone}`);
      return { from, skip: offset - before };
    },
  };
}

export type OrderTallies = ReturnType<typeof createOrderTallies>;
