import { sql } from "drizzle-orm";
import { JOBS_PAGE, JOBS_SCHEMA, toRow, type JobRow, type JobsContext, type JobTableRow } from "./model";

/** Whether a run of this recurring task waits or runs now. */
export async function isPending(ctx: JobsContext, name: string): Promise<boolean> {
  const { rows } = await ctx.db.execute<{ found: boolean }>(
    sql`select exists (select 1 from ${sql.identifier(JOBS_SCHEMA)}.job
      where name = ${name} and state::text in ('created', 'retry', 'active')) as found`,
  );
  return Boolean(rows[0]?.found);
}

/** Pending jobs (waiting, waiting to retry, or running), oldest first, then failed ones, newest first. */
export async function list(ctx: JobsContext): Promise<{ pending: JobRow[]; failed: JobRow[] }> {
  const rows = async (states: string[], order: "asc" | "desc") => {
    const result = await ctx.db.execute<JobTableRow>(sql`
      select id, name, state, retry_count, retry_limit, data, output, created_on, start_after, started_on,
        completed_on
      from ${sql.identifier(JOBS_SCHEMA)}.job
      where state::text in (${sql.join(
        states.map((s) => sql`${s}`),
        sql`, `,
      )})
      order by created_on ${sql.raw(order)}, id
      limit ${JOBS_PAGE}`);
    return result.rows.map((r) => toRow(r, ctx.recurring.get(r.name)?.title ?? ctx.workers.get(r.name)?.title));
  };
  return {
    pending: await rows(["created", "retry", "active"], "asc"),
    failed: await rows(["failed"], "desc"),
  };
}
