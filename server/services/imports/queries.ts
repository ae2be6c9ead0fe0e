import { and, asc, desc, eq, sql } from "drizzle-orm";
import { ROW_ACTIONS, type RowAction } from "#domain/imports.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { importRows, imports } from "#server/db/schema.ts";
import { paginate } from "#server/lib/paging.ts";
import { row, toRecord, type ImportRecord, type ImportRowRecord, type ImportsDeps } from "./model";

/** One import with its counts and progress. */
export async function get(deps: ImportsDeps, id: string): Promise<ImportRecord> {
  return toRecord(await row(deps, id));
}

/** The imports, newest first, one page. */
export async function list(
  deps: ImportsDeps,
  pageAsked: unknown,
  perPage: number,
): Promise<{ imports: ImportRecord[]; page: PageInfo }> {
  const [{ n }] = (await deps.db.execute<{ n: number }>(sql`select count(*)::int as n from imports`)).rows as [
    { n: number },
  ];
  const page = paginate(n, pageAsked, perPage);
  const rows = await deps.db
    .select()
    .from(imports)
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(perPage)
    .offset(page.offset);
  return { imports: rows.map(toRecord), page };
}

/** The dry run's rows, one page, of one action or all, in the file's order. */
export async function rows(
  deps: ImportsDeps,
  id: string,
  action: unknown,
  pageAsked: unknown,
  perPage: number,
): Promise<{ rows: ImportRowRecord[]; page: PageInfo }> {
  const imp = await row(deps, id);
  const only = typeof action === "string" && (ROW_ACTIONS as readonly string[]).includes(action) ? action : null;
  const where = only
    ? and(eq(importRows.importId, id), eq(importRows.action, only as RowAction))
    : eq(importRows.importId, id);
  const total = only
    ? { create: imp.created, update: imp.updated, skip: imp.skipped, refuse: imp.refused }[only as RowAction]
    : imp.created + imp.updated + imp.skipped + imp.refused;
  const page = paginate(total, pageAsked, perPage);
  const rows = await deps.db
    .select()
    .from(importRows)
    .where(where)
    .orderBy(asc(importRows.rowNumber))
    .limit(perPage)
    .offset(page.offset);
  return {
    rows: rows.map((r) => ({
      row: r.rowNumber,
      email: r.email,
      action: r.action,
      reason: r.reason ?? (r.data?.notes.length ? r.data.notes.join(" ") : null),
      name: r.data?.name ?? null,
      membershipEnds: r.data?.membershipEnds ?? null,
      newsletter: r.data?.newsletter ?? null,
    })),
    page,
  };
}
