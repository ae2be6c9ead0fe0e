import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { PageInfo } from "../../domain/pagination";
import type { Db } from "../db/client";
import { named, preparedQuery } from "../db/prepared";

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
  const inner = db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(limit + 1);
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inner.as("counted"));
  const n = row?.n ?? 0;
  return n > limit ? { total: limit, capped: true } : { total: n, capped: false };
}

/**
 * One page of a table's rows, counted and cut in SQL: the rows matching `where`, in `orderBy` order (end it with a
 * unique column so pages never overlap), and the page they are (every paginated list and table uses this).
 */
export async function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  query: {
    where?: SQL;
    orderBy: (PgColumn | SQL)[];
    page: unknown;
    perPage: number;
    /** Count at most this many rows (tables that grow without bound): the last pages are then out of reach. */
    countLimit?: number;
  },
): Promise<{ rows: T["$inferSelect"][]; page: PageInfo }> {
  const { total, capped } =
    query.countLimit === undefined
      ? { total: await countOf(db, table, query.where), capped: false }
      : await boundedCount(db, table, query.where, query.countLimit);
  const page = paginate(total, query.page, query.perPage, capped);
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(query.where)
    .orderBy(...query.orderBy)
    .limit(page.perPage)
    .offset(page.offset);
  return { rows: rows as T["$inferSelect"][], page };
}

/** Values of a prepared list's placeholders (`limit` and `offset` are the page's own). */
type Values = Record<string, unknown>;

/**
 * `pageOf` for a list read on every view whose shape never changes: `where` takes its values as
 * `sql.placeholder(name)`, and its count and its page are built once and prepared (server/db/prepared.ts), so only
 * for a `where` whose values the plan does not depend on. Returns the reader of one page for given values.
 */
export function preparedPages<T extends PgTable>(
  db: Db,
  table: T,
  query: { where: SQL; orderBy: (PgColumn | SQL)[] },
): (values: Values, page: unknown, perPage: number) => Promise<{ rows: T["$inferSelect"][]; page: PageInfo }> {
  const count = preparedQuery(countQuery(db, table, query.where));
  const read = preparedQuery(pageQuery(db, table, query.where, query.orderBy));
  return async (values, requested, perPage) => {
    const [row] = await count.execute(values);
    const page = paginate(row?.n ?? 0, requested, perPage);
    const rows = await read.execute({ ...values, limit: page.perPage, offset: page.offset });
    return { rows: rows as T["$inferSelect"][], page };
  };
}

const countQuery = (db: Db, table: PgTable, where: SQL | undefined) =>
  db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);

/** Rows of a page with their count (`count(*) over ()`), the page's limit and offset as placeholders. */
const pageQuery = (db: Db, table: PgTable, where: SQL | undefined, orderBy: (PgColumn | SQL)[]) =>
  db
    .select()
    .from(table)
    .where(where)
    .orderBy(...orderBy)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));

/** How many rows match (every one counted). */
async function countOf(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await countQuery(db, table, where);
  return row?.n ?? 0;
}

/** A short list's rows with their count (`count(*) over ()`), from `limit` and `offset` placeholders. */
const smallPageQuery = (db: Db, table: PgTable, where: SQL | undefined, orderBy: (PgColumn | SQL)[]) =>
  db
    .select({ ...getTableColumns(table), __total: sql<string>`count(*) over ()` })
    .from(table)
    .where(where)
    .orderBy(...orderBy)
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));

/**
 * One page of a short list (a customer's own orders): the rows and their count in one query (`count(*) over ()`),
 * which costs the matching rows once, so only for lists known to stay small. A page beyond the end is the last. Its
 * read is a prepared statement (server/db/prepared.ts): every value of a short list's filter picks few rows, so one
 * plan serves them all.
 */
export function smallPageOf<T extends PgTable>(
  db: Db,
  table: T,
  query: { where?: SQL; orderBy: (PgColumn | SQL)[]; page: unknown; perPage: number },
): Promise<{ rows: T["$inferSelect"][]; page: PageInfo }> {
  const read = smallPageQuery(db, table, query.where, query.orderBy);
  return smallPage<T>(
    (limits) => named(read, limits),
    () => countOf(db, table, query.where),
    query.page,
    query.perPage,
  );
}

/**
 * `smallPageOf` for a short list read on every view whose shape never changes: `where` takes its values as
 * `sql.placeholder(name)` and the read is built once. Returns the reader of one page for given values.
 */
export function preparedSmallPages<T extends PgTable>(
  db: Db,
  table: T,
  query: { where: SQL; orderBy: (PgColumn | SQL)[] },
): (values: Values, page: unknown, perPage: number) => Promise<{ rows: T["$inferSelect"][]; page: PageInfo }> {
  const read = preparedQuery(smallPageQuery(db, table, query.where, query.orderBy));
  const count = preparedQuery(countQuery(db, table, query.where));
  return (values, page, perPage) =>
    smallPage<T>(
      (limits) => read.execute({ ...values, ...limits }),
      async () => (await count.execute(values))[0]?.n ?? 0,
      page,
      perPage,
    );
}

async function smallPage<T extends PgTable>(
  read: (limits: { limit: number; offset: number }) => Promise<(Record<string, unknown> & { __total: string })[]>,
  count: () => Promise<number>,
  requested: unknown,
  perPage: number,
): Promise<{ rows: T["$inferSelect"][]; page: PageInfo }> {
  const at = async (offset: number) => {
    const found = await read({ limit: perPage, offset });
    const total = found.length ? Number(found[0]!.__total) : null;
    const rows = found.map(({ __total: _, ...row }) => row) as T["$inferSelect"][];
    return { rows, total };
  };
  const wanted = paginate(Number.MAX_SAFE_INTEGER, requested, perPage);
  const first = await at(wanted.offset);
  if (first.total !== null) return { rows: first.rows, page: paginate(first.total, requested, perPage) };
  // Nothing at that offset: the list is empty, or the page lies beyond its end (then the last page is shown).
  const total = await count();
  const page = paginate(total, requested, perPage);
  return { rows: total === 0 ? [] : (await at(page.offset)).rows, page };
}
