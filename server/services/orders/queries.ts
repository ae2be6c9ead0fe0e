import { and, asc, desc, eq, getTableColumns, inArray, or, sql, type SQL } from "drizzle-orm";
import { membershipOf, type Membership } from "#domain/membership.ts";
import { TO_DELIVER, type OrderFilters } from "#domain/order-filters.ts";
import { normalInvoiceNumber } from "#domain/invoice-number.ts";
import { normalOrderNumber } from "#domain/order-number.ts";
import type { PageInfo } from "#domain/pagination.ts";
import type { Db } from "#server/db/client.ts";
import { preparedQuery } from "#server/db/prepared.ts";
import { orders } from "#server/db/schema.ts";
import { badRequest, isId, notFound } from "#server/lib/errors.ts";
import { boundedCount, pageOf, paginate, preparedPages } from "#server/lib/paging.ts";
import type { Viewer } from "../accounts";
import { ownScope, scope, toOrderRecord, type OrderRecord, type OrderRow } from "./record";
import {
  createOrderTallies,
  DIRECT_OFFSET,
  startOf,
  tallied,
  tallyTotal,
  valuesOf as tallyValues,
  type OrderTallies,
} from "./tallies";
import { withDeps } from "#server/lib/with-deps.ts";

type Row = OrderRow;

export interface OrderQueriesDeps {
  db: Db;
  now: () => Date;
  timeZone: string;
}

/** The most orders an admin list counts (a bounded count: the desk never counts a million rows per request). */
export const ORDERS_COUNT_LIMIT = 10_000;
/** LIKE's own characters in what a person typed are meant literally. */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The SQL condition of the orders desk's filters, each served by an index (server/db/schema.ts). */
function filterWhere(filters: OrderFilters, timeZone: string): SQL[] {
  const where: SQL[] = [];
  if (filters.q) {
    // Matches the expression of the trigram index orders_customer_search_idx: a name, an email or an order number, or
    // any part of one; an order's id or its whole number typed in any case finds it by their unique indexes.
    const typed = filters.q.trim();
    const text = sql`lower(${orders.customerName} || ' ' || ${orders.customerEmail} || ' ' || ${orders.number}) like ${`%${likeEscaped(filters.q.toLowerCase())}%`}`;
    const number = normalOrderNumber(typed);
    // An invoice number (INV-2026-00001, any case) finds its order by the unique index on invoice_number.
    const invoice = normalInvoiceNumber(typed);
    where.push(
      isId(typed.toLowerCase())
        ? or(eq(orders.id, typed.toLowerCase()), text)!
        : number
          ? or(eq(orders.number, number), text)!
          : invoice
            ? or(eq(orders.invoiceNumber, invoice), text)!
            : text,
    );
  }
  if (filters.payment) where.push(eq(orders.paymentStatus, filters.payment));
  if (filters.status) where.push(eq(orders.orderStatus, filters.status));
  // Calendar days in the site's time zone: from the start of `from` to the start of the day after `to`.
  if (filters.from) where.push(sql`${orders.createdAt} >= (${filters.from}::date)::timestamp at time zone ${timeZone}`);
  if (filters.to) where.push(sql`${orders.createdAt} < (${filters.to}::date + 1)::timestamp at time zone ${timeZone}`);
  return where;
}

/** The conditions and order of a list: a customer's own orders, or (an admin's) all, with the desk's filters. */
function listQueryIn(timeZone: string) {
  return (viewer: Viewer, all: boolean, filters: OrderFilters) => {
    const oldestFirst = filters.view === "to-deliver";
    return {
      where: [...(all ? [] : [scope(viewer, true)!]), ...filterWhere(filters, timeZone)],
      orderBy: oldestFirst ? [asc(orders.createdAt), asc(orders.id)] : [desc(orders.createdAt), desc(orders.id)],
      oldestFirst,
    };
  };
}

/** The columns of orders read from a derived table `page` of its rows, each mapped as drizzle maps the column. */
const pageColumns = Object.fromEntries(
  Object.entries(getTableColumns(orders)).map(([key, column]) => [
    key,
    sql`page.${sql.identifier(column.name)}`.mapWith(column),
  ]),
) as { [K in keyof Row]: SQL<Row[K]> };

/** The cursor of the page after this one: its last order, unless this is the last page. */
const nextCursor = (rows: Row[], page: PageInfo) =>
  page.page < page.pages && rows.length === page.perPage ? rows.at(-1)!.id : null;

/** The statements every read of orders shares, prepared once per process. */
function preparedReads(db: Db) {
  /** A customer's Paid orders (their membership is made of them) and their sum: prepared (the user_id index, whoever). */
  const paidOrdersQuery = preparedQuery(
    db
      .select({
        packageName: orders.packageName,
        paymentStatus: orders.paymentStatus,
        orderStatus: orders.orderStatus,
        membershipStarts: orders.membershipStarts,
        membershipValid: orders.membershipValid,
        total: sql<string>`(sum(${orders.packagePrice}) over ())::numeric(12,2)`,
      })
      .from(orders)
      .where(and(ownScope, eq(orders.paymentStatus, "Paid")))
      // Placement order: membershipOf names the first paid order waiting for activation (ties by id, as the timeline).
      .orderBy(asc(orders.createdAt), asc(orders.id)),
  );
  return {
    paidOrders: (userId: string) => paidOrdersQuery.execute({ userId }),
    /** A customer's unpaid orders, newest first, the latest 20 (My Orders, the pending order). */
    unpaidOrders: preparedQuery(
      db
        .select()
        .from(orders)
        .where(and(ownScope, eq(orders.paymentStatus, "UnPaid")))
        .orderBy(desc(orders.createdAt))
        .limit(20),
    ),
    /** A page of a customer's own orders, newest first, and their count (My Orders, the dashboard). */
    ownOrders: preparedPages(db, orders, {
      where: ownScope,
      orderBy: [desc(orders.createdAt), desc(orders.id)],
    }),
    /**
     * A page of every order, newest first, counted by the tallies: the back office's home and the desk without a
     * filter read one on every view, by the creation-order index whatever the page (prepared).
     */
    latestOrders: preparedPages(db, orders, {
      orderBy: [desc(orders.createdAt), desc(orders.id)],
      total: tallyTotal({}),
    }),
  };
}

/** What the reads share: their dependencies, the tallies, the list's conditions and the prepared statements. */
interface QueriesCtx extends OrderQueriesDeps, ReturnType<typeof preparedReads> {
  tallies: OrderTallies;
  listQuery: ReturnType<typeof listQueryIn>;
  /** The deep page of every order, prepared once per page size (`latestDeepOf`). */
  latestDeep: Map<number, ReturnType<typeof latestDeepOf>>;
}

/**
 * A deep page of a list sorted by creation, read from where its first row lies. `start` is one row: `total` (the
 * list's count), `day` (the day of the site's time zone its first row was created in) and `skip` (how many rows of
 * the list in that day come before it). An index-only scan of the list's index skips those rows (at most a day's
 * entries, none of them read) to the creation time `t` of the first row; the page is read from `t`, skipping only the
 * orders created at that very instant before it (the id breaks ties). Each row comes with `total`; no row when the
 * day has fewer rows than `skip` (a list changed meanwhile, or no day: the list is shorter).
 *
 * The page size is written into the text, not a placeholder: with `limit $n` PostgreSQL costs a generic plan for
 * 10% of the orders, never prefers it, and plans the prepared statement again on every run (0.3 ms, more than it
 * takes to run).
 */
function fromStart(
  { db, timeZone }: OrderQueriesDeps,
  start: SQL,
  where: SQL[],
  oldestFirst: boolean,
  perPage: number,
) {
  if (!Number.isSafeInteger(perPage) || perPage < 1) throw new Error(`not a page size: ${perPage}`);
  const dir = oldestFirst ? sql`asc` : sql`desc`;
  const created = orders.createdAt;
  const matching = where.length ? and(...where)! : sql`true`;
  // The list enters its day at the day's end (newest first) or start (oldest first), in the site's time zone.
  const edge = oldestFirst
    ? sql`(day::date)::timestamp at time zone ${timeZone}`
    : sql`(day::date + 1)::timestamp at time zone ${timeZone}`;
  const inDay = oldestFirst ? sql`${created} >= (select edge from bound)` : sql`${created} < (select edge from bound)`;
  const beforeT = oldestFirst ? sql`${created} < (select t from at)` : sql`${created} > (select t from at)`;
  const fromT = oldestFirst ? sql`${created} >= (select t from at)` : sql`${created} <= (select t from at)`;
  const page = sql`(
    with bound as materialized (select total, ${edge} as edge, skip from (${start}) start),
    at as materialized (
      select ${created} as t from ${orders} where ${matching} and ${inDay}
      order by ${created} ${dir} offset (select skip from bound) limit 1)
    select ${orders}.*, (select total from bound) as __total from ${orders}
    where ${matching} and ${fromT}
    order by ${created} ${dir}, ${orders.id} ${dir}
    limit ${sql.raw(String(perPage))}
    offset (select (select skip from bound) - count(*) from ${orders} where ${matching} and ${inDay} and ${beforeT})
  ) as page`;
  return db
    .select({ ...pageColumns, __total: sql<number>`page.__total`.mapWith(Number) })
    .from(page)
    .orderBy(oldestFirst ? sql`page.created_at asc, page.id asc` : sql`page.created_at desc, page.id desc`);
}

/**
 * A deep page of every order, newest first (the back office's desk and `GET /api/orders?page=`): its start found
 * from the tallies (`startOf`, the placeholder `offset`) in the same statement, one round trip at any depth;
 * prepared once per page size (the API's ?limit= is 1 to 100).
 */
const latestDeepOf = (deps: OrderQueriesDeps, perPage: number) =>
  preparedQuery(
    fromStart(
      deps,
      sql`select total, day, (${sql.placeholder("offset")}::numeric - before)::bigint as skip
          from (${startOf({}, false)}) tallied`,
      [],
      false,
      perPage,
    ),
  );

/** The order if this viewer may see it (scope): its owner or an admin. Anything else is "not found". */
async function visible({ db }: OrderQueriesDeps, viewer: Viewer, id: string): Promise<Row> {
  if (!isId(id)) throw notFound("Order not found");
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), scope(viewer)));
  if (!row) throw notFound("Order not found");
  return row;
}

/**
 * One page of a text search and its count from a single scan of the trigram index (a search matches few orders,
 * and each scan of a busy trigram costs): the matching ids, at most ORDERS_COUNT_LIMIT + 1, counted and cut in
 * SQL, then their rows. Null when more match than that (the caller pages by the sort's index instead).
 */
async function searchPage(
  { db }: OrderQueriesDeps,
  where: SQL,
  requested: unknown,
  perPage: number,
  oldestFirst: boolean,
) {
  const dir = oldestFirst ? sql`asc` : sql`desc`;
  const cut = async (offset: number) => {
    const result = await db.execute<{ total: number; ids: string[] }>(sql`
      with matched as materialized (
        select ${orders.id} as id, ${orders.createdAt} as created_at from ${orders} where ${where}
        limit ${ORDERS_COUNT_LIMIT + 1})
      select (select count(*) from matched)::int as total,
             array(select id from matched order by created_at ${dir}, id ${dir} limit ${perPage} offset ${offset})::text[] as ids`);
    return result.rows[0]!;
  };
  const wanted = paginate(Number.MAX_SAFE_INTEGER, requested, perPage);
  const first = await cut(wanted.offset);
  const total = first.total;
  if (total > ORDERS_COUNT_LIMIT) return null;
  const page = paginate(total, requested, perPage);
  const ids = page.offset === wanted.offset ? first.ids : (await cut(page.offset)).ids;
  const rows = ids.length
    ? await db
        .select()
        .from(orders)
        .where(inArray(orders.id, ids))
        .orderBy(...(oldestFirst ? [asc(orders.createdAt), asc(orders.id)] : [desc(orders.createdAt), desc(orders.id)]))
    : [];
  return { rows, page };
}

type ListOptions = { page?: unknown; perPage: number; mine?: boolean; filters?: OrderFilters };
type ListPage = { orders: OrderRecord[]; page: PageInfo; next: string | null };
type ListQuery = ReturnType<QueriesCtx["listQuery"]>;

/** A list's page of rows as the callers get it, with the cursor of the page after it. */
const listPage = (rows: Row[], page: PageInfo): ListPage => ({
  orders: rows.map(toOrderRecord),
  page,
  next: nextCursor(rows, page),
});

/** A customer's own orders, with the filters of the API if any (without one, the statements built once). */
async function listOwn(ctx: QueriesCtx, viewer: Viewer, options: ListOptions, query: ListQuery): Promise<ListPage> {
  const { where, orderBy, oldestFirst } = query;
  const { rows, page } =
    where.length === 1 && !oldestFirst
      ? await ctx.ownOrders({ userId: viewer.id }, options.page, options.perPage)
      : await pageOf(ctx.db, orders, { where: and(...where), orderBy, page: options.page, perPage: options.perPage });
  return listPage(rows, page);
}

/** A text search: one scan of the trigram index gives the count and the page (a few matches, usually). */
async function listSearched(ctx: QueriesCtx, options: ListOptions, query: ListQuery): Promise<ListPage> {
  const { where, orderBy, oldestFirst } = query;
  const searched = await searchPage(ctx, and(...where)!, options.page, options.perPage, oldestFirst);
  if (searched) return listPage(searched.rows, searched.page);
  // More matches than ORDERS_COUNT_LIMIT: the page by the sort's index, the count bounded.
  const { rows, page } = await pageOf(ctx.db, orders, {
    where: where.length ? and(...where) : undefined,
    orderBy,
    page: options.page,
    perPage: options.perPage,
    countLimit: ORDERS_COUNT_LIMIT,
  });
  return listPage(rows, page);
}

/**
 * A deep page of a tallied list: counted and found in its day from the tallies, then read from there. Every order:
 * one prepared statement. Filtered: the tallies' prepared read, then the page's (planned for its values).
 */
async function deepPage(
  ctx: QueriesCtx,
  filters: OrderFilters,
  query: ListQuery,
  offset: number,
  perPage: number,
): Promise<{ rows: Row[]; total: number | null }> {
  if (Object.values(filters).every((v) => v === undefined)) {
    const prepared = ctx.latestDeep.get(perPage) ?? latestDeepOf(ctx, perPage);
    ctx.latestDeep.set(perPage, prepared);
    const found = await prepared.execute({ offset });
    return { rows: found.map(({ __total: _, ...row }) => row), total: found[0]?.__total ?? null };
  }
  const { total, start } = await ctx.tallies.pageStart(filters, offset, query.oldestFirst);
  if (!start) return { rows: [], total };
  const at = sql`select ${total}::bigint as total, ${start.day}::date as day, ${start.skip}::bigint as skip`;
  const found = await fromStart(ctx, at, query.where, query.oldestFirst, perPage);
  return { rows: found.map(({ __total: _, ...row }) => row), total };
}

/**
 * An admin's list filtered by statuses and days only: counted from the maintained tallies. Without a filter, the
 * prepared statements (by the creation-order index, whatever the page); a status filter's values pick very different
 * shares of the orders (Paid most, Cancelled few): planned each time.
 */
async function listTallied(ctx: QueriesCtx, filters: OrderFilters, options: ListOptions, query: ListQuery) {
  const unfiltered = Object.values(filters).every((v) => v === undefined);
  await ctx.tallies.ensureZone();
  // A page near the start: its rows and the tallies' count in one statement.
  const near = async (requested: unknown) => {
    const { rows, page } = unfiltered
      ? await ctx.latestOrders({}, requested, options.perPage)
      : await pageOf(ctx.db, orders, {
          where: and(...query.where),
          orderBy: query.orderBy,
          page: requested,
          perPage: options.perPage,
          total: tallyTotal(filters),
          values: tallyValues(filters),
        });
    return listPage(rows, page);
  };
  const wanted = paginate(Number.MAX_SAFE_INTEGER, options.page, options.perPage).offset;
  if (wanted <= DIRECT_OFFSET) return near(options.page);
  const first = await deepPage(ctx, filters, query, wanted, options.perPage);
  const page = paginate(first.total ?? (await ctx.tallies.count(filters)), options.page, options.perPage);
  if (page.offset === wanted && first.rows.length) return listPage(first.rows, page);
  // Nothing there: an empty list, or a page beyond its end (then the last page, near the start or deep).
  if (page.total === 0) return { orders: [], page, next: null };
  if (page.offset <= DIRECT_OFFSET) return near(page.page);
  return listPage((await deepPage(ctx, filters, query, page.offset, options.perPage)).rows, page);
}

/**
 * A customer's own orders (an admin: everyone's, with the desk's filters), newest first (the to-deliver view:
 * oldest first, a queue), one page of them by number. An admin's list is counted from the maintained tallies and
 * a deep page starts from its day (order-tallies.ts), so no page costs more than a day of rows; a text search
 * counts at most ORDERS_COUNT_LIMIT rows. `next` is the cursor of the page after this one (listAfter).
 */
async function list(ctx: QueriesCtx, viewer: Viewer, options: ListOptions): Promise<ListPage> {
  const all = viewer.isAdmin && !options.mine;
  const filters = options.filters ?? {};
  const query = ctx.listQuery(viewer, all, filters);
  if (!all) return listOwn(ctx, viewer, options, query);
  if (!tallied(filters)) return listSearched(ctx, options, query);
  return listTallied(ctx, filters, options, query);
}

/**
 * The page after the order `after` (a cursor from `next`), in the same list's order: a keyset read from that
 * order's (created_at, id), constant time at any depth. Walking the cursors returns every order that existed
 * when the walk began exactly once, even while orders are placed meanwhile (new ones sort before the cursor, or
 * after it in the oldest-first view, where the walk reaches them too). An unknown cursor is a 400.
 */
async function listAfter(
  ctx: QueriesCtx,
  viewer: Viewer,
  options: { after: string; perPage: number; mine?: boolean; filters?: OrderFilters },
): Promise<{ orders: OrderRecord[]; total: number; capped: boolean; next: string | null }> {
  const { db, listQuery, tallies } = ctx;
  const all = viewer.isAdmin && !options.mine;
  const filters = options.filters ?? {};
  const { where, orderBy, oldestFirst } = listQuery(viewer, all, filters);
  const badCursor = badRequest([{ field: "after", message: "Unknown cursor: use the X-Next-Cursor of a page" }]);
  if (!isId(options.after)) throw badCursor;
  const [at] = await db
    .select({ createdAt: sql<string>`${orders.createdAt}::text` })
    .from(orders)
    .where(and(eq(orders.id, options.after), scope(viewer, !all)));
  if (!at) throw badCursor;
  const key = sql`(${at.createdAt}::timestamptz, ${options.after}::uuid)`;
  where.push(
    oldestFirst
      ? sql`${orders.createdAt} >= ${at.createdAt}::timestamptz and (${orders.createdAt}, ${orders.id}) > ${key}`
      : sql`${orders.createdAt} <= ${at.createdAt}::timestamptz and (${orders.createdAt}, ${orders.id}) < ${key}`,
  );
  const [rows, count] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(and(...where))
      .orderBy(...orderBy)
      .limit(options.perPage + 1),
    all && tallied(filters)
      ? tallies.count(filters).then((total) => ({ total, capped: false }))
      : boundedCount(db, orders, and(...listQuery(viewer, all, filters).where), ORDERS_COUNT_LIMIT),
  ]);
  const more = rows.length > options.perPage;
  const shown = rows.slice(0, options.perPage);
  return { orders: shown.map(toOrderRecord), ...count, next: more ? shown.at(-1)!.id : null };
}

/** The viewer's membership and total spent, from one read of their Paid orders (Delivered ones count). */
async function summary(
  { now, paidOrders }: QueriesCtx,
  viewer: Viewer,
): Promise<{ membership: Membership; totalSpent: number }> {
  const rows = await paidOrders(viewer.id);
  return {
    membership: viewer.isAdmin ? membershipOf([], now(), true) : membershipOf(rows as never, now()),
    totalSpent: Number(rows[0]?.total ?? 0),
  };
}

/**
 * Every read of orders: the desk's and a customer's lists (pages counted by the maintained tallies, cursors), one order
 * as its viewer may see it, a customer's membership and total spent, the sales. Nothing here writes (commands.ts does).
 */
export function createOrderQueries(deps: OrderQueriesDeps) {
  const { db, now, timeZone } = deps;
  const ctx: QueriesCtx = {
    ...deps,
    ...preparedReads(db),
    tallies: createOrderTallies({ db, timeZone }),
    listQuery: listQueryIn(timeZone),
    latestDeep: new Map(),
  };
  const { tallies } = ctx;
  return {
    async get(viewer: Viewer, id: string): Promise<OrderRecord> {
      return toOrderRecord(await visible(deps, viewer, id));
    },

    /** The row of an order this viewer may see (the commands check their viewer with it). */
    visible: withDeps(deps, visible),
    list: withDeps(ctx, list),
    listAfter: withDeps(ctx, listAfter),

    /**
     * How many paid orders wait for delivery (the back office's badge on every page), exact, from the maintained
     * tallies: one prepared read of the small month table instead of a count over orders.
     */
    async toDeliverCount(): Promise<{ total: number; capped: boolean }> {
      return { total: await tallies.count(TO_DELIVER), capped: false };
    },

    /** The customer's unpaid orders, newest first (My Orders: 'Your Pending Orders'). */
    async unpaid(viewer: Viewer): Promise<OrderRecord[]> {
      return (await ctx.unpaidOrders.execute({ userId: viewer.id })).map(toOrderRecord);
    },

    /** Sum of the customer's Paid orders, in SQL, two decimals. */
    async totalSpent(userId: string): Promise<number> {
      return Number((await ctx.paidOrders(userId))[0]?.total ?? 0);
    },

    /** The customer's membership and total spent together (the dashboard shows both). */
    summary: withDeps(ctx, summary),

    /** The viewer's membership, from their Paid orders (Delivered ones count; Pending ones wait for activation). */
    async membership(viewer: Viewer): Promise<Membership> {
      if (viewer.isAdmin) return membershipOf([], now(), true);
      return membershipOf((await ctx.paidOrders(viewer.id)) as never, now());
    },

    /**
     * Paid orders' total, two decimals (admin dashboard 'Total Sales'), and Paid sales per calendar month of the site's
     * time zone over the last 12 months, oldest first, empty ones too (its chart): one read of the maintained tallies.
     */
    sales: () => tallies.sales(now()),

    /** Tallies the months in the site's time zone if they were tallied in another (at start). */
    start: () => tallies.ensureZone(),

    /** Rows for the payment listener and the simulator (no viewer: server-side only). */
    async byId(id: string): Promise<Row | undefined> {
      if (!isId(id)) return undefined;
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      return row;
    },

    async byIds(ids: string[]): Promise<Row[]> {
      return ids.length ? db.select().from(orders).where(inArray(orders.id, ids)) : [];
    },

    /** The order a PayPal transaction paid, if any (the listener's duplicate check). */
    async byTxnId(txnId: string): Promise<Row | undefined> {
      const [row] = await db.select().from(orders).where(eq(orders.txnId, txnId));
      return row;
    },
  };
}

export type OrderQueries = ReturnType<typeof createOrderQueries>;
