import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { PageInfo } from "#domain/pagination.ts";
import type { Db } from "../db/client";
import { preparedQuery } from "../db/prepared";

/**
 * Page arithmetic (pages are 1-based; a missing or bad ?page= is the first, one beyond the end the last). A `capped`
 * total is a lower bound (more rows exist than were counted): the pages it gives are the ones that can be reached.
 */
export function paginate(total: number, requested: unknown, perPage: number, capped = false): PageInfo {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const n =
    typeof requested === "string" ? Number.parseInt(requested, 10) : typeof requested === "number" ? requested : 1;
  const page = Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), pages) : 1;
  return { page, pages, perPage, total, offset: (page - 1) * perPage, ...(capped ? { capped } : {}) };
}

/**
 * How many rows match, counting no further than `limit` (an index scan of at most limit + 1 entries, however large
 * the table): `capped` says more exist.
 */
export async function boundedCount(
  db: Db,
  table: PgTable,
  where: SQL | undefined,
  limit: number,
): Promise<{ total: number; capped: boolean }> {
  const [row] = await countQuery(db, countOf(table, where, limit));
  const n = row?.n ?? 0;
  return n > limit ? { total: limit, capped: true } : { total: n, capped: false };
}

/** A statement of a count alone (a list's `total` expression). */
const countQuery = (db: Db, total: SQL) =>
  db.select({ n: sql<number>`${total}`.mapWith(Number) }).from(sql`(select 1) as one`);

/** Values of a list's `sql.placeholder(name)`s (`limit` and `offset` are the page's own). */
type Values = Record<string, unknown>;
type Page<T extends PgTable> = { rows: T["$inferSelect"][]; page: PageInfo };

/**
 * How many rows a list has, as a scalar subquery PostgreSQL runs once for the statement that reads its page: every
 * matching row, or at most `limit + 1` of them (an index scan of that many entries, however large the table).
 */
export function countOf(table: PgTable, where: SQL | undefined, limit?: number): SQL<number> {
  const matching = sql`select 1 from ${table} where ${where ?? sql`true`}`;
  return limit === undefined
    ? sql<number>`(select count(*)::int from (${matching}) matching)`
    : sql<number>`(select count(*)::int from (${matching} limit ${limit + 1}) matching)`;
}

/** The statement of a page: the rows, each with the list's count (`total`), `limit` and `offset` as placeholders. */
const pageQuery = (db: Db, table: PgTable, where: SQL | undefined, orderBy: (PgColumn | SQL)[], total: SQL) =>
  db
    .select({ ...getTableColumns(table), __total: sql<number>`${total}`.mapWith(Number) })
    .from(table)
    .where(where)
    .orderBy(...orderBy)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));

/**
 * One page of a table's rows and their count, in one statement (every paginated list and table uses this or
 * `preparedPages`): the rows matching `where`, in `orderBy` order (end it with a unique column so pages never overlap),
 * counted by `total` (default: every matching row; `countLimit`: at most that many, for tables that grow without
 * bound, whose last pages are then out of reach; or an expression of the caller's, such as a maintained tally).
 * `values` fills the placeholders of `where` and `total`. A page beyond the end is the last.
 */
export function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  query: {
    where?: SQL;
    orderBy: (PgColumn | SQL)[];
    page: unknown;
    perPage: number;
    countLimit?: number;
    total?: SQL;
    values?: Values;
  },
): Promise<Page<T>> {
  const total = query.total ?? countOf(table, query.where, query.countLimit);
  const read = pageQuery(db, table, query.where, query.orderBy, total);
  const count = countQuery(db, total);
  return pageAt<T>(
    (limits) => read.execute({ ...query.values, ...limits }),
    async () => (await count.execute(query.values))[0]?.n ?? 0,
    query.page,
    query.perPage,
    query.countLimit,
  );
}

/**
 * `pageOf` for a list read on every view whose shape never changes (`where` and `total` take their values as
 * `sql.placeholder(name)`): its statements are built once and prepared (server/db/prepared.ts), so only for a `where`
 * whose values the plan does not depend on. Returns the reader of one page for given values.
 */
export function preparedPages<T extends PgTable>(
  db: Db,
  table: T,
  query: { where?: SQL; orderBy: (PgColumn | SQL)[]; total?: SQL },
): (values: Values, page: unknown, perPage: number) => Promise<Page<T>> {
  const total = query.total ?? countOf(table, query.where);
  const read = preparedQuery(pageQuery(db, table, query.where, query.orderBy, total));
  const count = preparedQuery(countQuery(db, total));
  return (values, page, perPage) =>
    pageAt<T>(
      (limits) => read.execute({ ...values, ...limits }),
      async () => (await count.execute(values))[0]?.n ?? 0,
      page,
      perPage,
    );
}

/**
 * The page asked for, read with its count in one statement. Nothing at its offset means the list is empty or the
 * page lies beyond its end: then the list is counted alone and its last page read.
 */
async function pageAt<T extends PgTable>(
  read: (limits: { limit: number; offset: number }) => Promise<(Record<string, unknown> & { __total: number })[]>,
  count: () => Promise<number>,
  requested: unknown,
  perPage: number,
  countLimit?: number,
): Promise<Page<T>> {
  const info = (n: number) =>
    countLimit !== undefined && n > countLimit
      ? paginate(countLimit, requested, perPage, true)
      : paginate(n, requested, perPage);
  const at = async (offset: number) => {
    const found = await read({ limit: perPage, offset });
    const rows = found.map(({ __total: _, ...row }) => row) as T["$inferSelect"][];
    return { rows, total: found.length ? found[0]!.__total : null };
  };
  const wanted = paginate(Number.MAX_SAFE_INTEGER, requested, perPage);
  const first = await at(wanted.offset);
  if (first.total !== null) {
    const page = info(first.total);
    // Counted to a limit, a page past it is out of reach: the last reachable one.
    if (page.offset === wanted.offset) return { rows: first.rows, page };
  }
  const page = info(first.total ?? (await count()));
  return { rows: page.total === 0 ? [] : (await at(page.offset)).rows, page };
}
