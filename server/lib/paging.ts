import type { SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { PageInfo } from "../../domain/pagination";
import type { Db } from "../db/client";

/** Page arithmetic (pages are 1-based; a missing or bad ?page= is the first, one beyond the end the last). */
export function paginate(total: number, requested: unknown, perPage: number): PageInfo {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const n =
    typeof requested === "string" ? Number.parseInt(requested, 10) : typeof requested === "number" ? requested : 1;
  const page = Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), pages) : 1;
  return { page, pages, perPage, total, offset: (page - 1) * perPage };
}

/**
 * One page of a table's rows, counted and cut in SQL: the rows matching `where`, in `orderBy` order (end it with a
 * unique column so pages never overlap), and the page they are (every paginated list and table uses this).
 */
export async function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  query: { where?: SQL; orderBy: (PgColumn | SQL)[]; page: unknown; perPage: number },
): Promise<{ rows: T["$inferSelect"][]; page: PageInfo }> {
  const page = paginate(await db.$count(table, query.where), query.page, query.perPage);
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(query.where)
    .orderBy(...query.orderBy)
    .limit(page.perPage)
    .offset(page.offset);
  return { rows: rows as T["$inferSelect"][], page };
}
