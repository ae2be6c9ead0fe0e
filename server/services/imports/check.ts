import { createReadStream, existsSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { MAX_IMPORT_ROWS, readRow, type RowAction } from "#domain/imports.ts";
import type { Db } from "#server/db/client.ts";
import { importRows, imports, adminUsers } from "#server/db/schema.ts";
import { csvProblem, reader, text } from "./csv";
import { IMPORT_BATCH_ROWS, IMPORT_MESSAGES, fileOf, row, type ImportsDeps, type Row } from "./model";

type Verdict = typeof importRows.$inferInsert;

/** Reads the file and stores each row's verdict, then decides create, update or skip in SQL. */
export async function check(deps: ImportsDeps, id: string): Promise<void> {
  const { db, now } = deps;
  const imp = await row(deps, id);
  if (imp.state !== "checking") return;
  if (!existsSync(fileOf(deps, id))) {
    await db
      .update(imports)
      .set({ state: "failed", error: IMPORT_MESSAGES.fileErased, finishedAt: now() })
      .where(eq(imports.id, id));
    return;
  }
  await db.delete(importRows).where(eq(importRows.importId, id));
  const { number, problem } = await storeVerdicts(deps, id, imp);
  if (problem) {
    await db.delete(importRows).where(eq(importRows.importId, id));
    await db.update(imports).set({ state: "failed", error: problem, finishedAt: now() }).where(eq(imports.id, id));
    return;
  }
  await settleVerdicts(deps, id, imp, number);
}

/**
 * The dry run's reading: each record of the file, in committed batches, as a row refused with its reason or one to
 * create; `number` is the rows counted, `problem` what stopped the reading (too many rows).
 */
async function storeVerdicts(
  deps: ImportsDeps,
  id: string,
  imp: Row,
): Promise<{ number: number; problem: string | null }> {
  const at = deps.now();
  let number = 0;
  let batch: Verdict[] = [];
  const flush = async () => {
    const rows = batch;
    batch = [];
    await insertVerdicts(deps.db, id, rows);
  };
  const skipped: string[] = [];
  const parser = reader((error) => skipped.push(csvProblem(error)));
  const source = createReadStream(fileOf(deps, id));
  source.pipe(parser);
  let header = true;
  let problem: string | null = null;
  try {
    for await (const record of parser as AsyncIterable<(Buffer | string)[]>) {
      // A record skipped for its quotes counts as a row, refused, where it stood.
      for (const reason of skipped.splice(0))
        batch.push({ importId: id, rowNumber: ++number, action: "refuse", reason });
      if (header) {
        header = false;
        continue;
      }
      if (++number > MAX_IMPORT_ROWS) {
        problem = IMPORT_MESSAGES.tooManyRows;
        break;
      }
      batch.push(verdictOf(deps, imp, { importId: id, rowNumber: number }, record, at));
      if (batch.length >= IMPORT_BATCH_ROWS) await flush();
    }
    for (const reason of skipped.splice(0)) batch.push({ importId: id, rowNumber: ++number, action: "refuse", reason });
    await flush();
  } finally {
    source.destroy();
    parser.destroy();
  }
  return { number, problem };
}

/** One data row's verdict: refused (not UTF-8, cells past the header's columns, or what readRow says), or to create. */
function verdictOf(
  deps: Pick<ImportsDeps, "timeZone">,
  imp: Row,
  base: { importId: string; rowNumber: number },
  record: (Buffer | string)[],
  at: Date,
): Verdict {
  const columns = imp.headers.length;
  const cells = record.map(text);
  if (cells.some((c) => c === null)) return { ...base, action: "refuse", reason: "The row is not UTF-8 text." };
  if (cells.length > columns && cells.slice(columns).some((c) => c!.trim() !== ""))
    return {
      ...base,
      action: "refuse",
      reason: `The row has ${cells.length} cells; the header names ${columns} columns.`,
    };
  const verdict = readRow(cells as string[], imp.mapping, deps.timeZone, at);
  return verdict.ok
    ? { ...base, email: verdict.row.email, action: "create", data: verdict.row }
    : { ...base, action: "refuse", reason: verdict.reason };
}

/** One statement per batch, its columns as five arrays (not a parameter per cell). */
async function insertVerdicts(db: Db, id: string, rows: Verdict[]): Promise<void> {
  if (!rows.length) return;
  await db.execute(sql`
    insert into import_rows (import_id, row_number, email, action, reason, data)
    select ${id}::uuid, x.* from unnest(
      ${sql.param(rows.map((r) => r.rowNumber))}::int[],
      ${sql.param(rows.map((r) => r.email ?? null))}::text[],
      ${sql.param(rows.map((r) => r.action))}::text[],
      ${sql.param(rows.map((r) => r.reason ?? null))}::text[],
      ${sql.param(rows.map((r) => (r.data ? JSON.stringify(r.data) : null)))}::jsonb[]
    ) as x(row_number, email, action, reason, data)`);
}

/** The verdicts SQL decides (duplicates, staff, existing customers), then the import's counts: checked. */
async function settleVerdicts(deps: ImportsDeps, id: string, imp: Row, number: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // A second row with an address already in the file: refused, naming the first.
    await tx.execute(sql`
      update import_rows r set action = 'refuse',
        reason = 'The email address is on row ' || d.first || ' already.', data = null
      from (select row_number, min(row_number) over (partition by email) as first
            from import_rows where import_id = ${id} and action <> 'refuse') d
      where r.import_id = ${id} and r.row_number = d.row_number and d.row_number <> d.first`);
    // A staff member's address is no customer (customers.ts leaves staff out).
    await tx.execute(sql`
      update import_rows r set action = 'refuse', data = null,
        reason = 'This is a staff member''s address: staff are not imported as customers.'
      from ${adminUsers} a
      where r.import_id = ${id} and r.action = 'create' and lower(a.user_email) = r.email`);
    // An existing customer: updated where the file brings something (a later membership end, a consent, a name for
    // a blank one), else skipped.
    await tx.execute(sql`
      update import_rows r set action = case when
          ((r.data->>'membershipEnds') is not null
            and (t.membership_ends is null or t.membership_ends < (r.data->>'membershipEnds')::timestamptz))
          or (r.data->>'newsletter' = 'confirmed' and (s.state is null or s.state = 'pending'))
          or (r.data->>'newsletter' = 'unconfirmed' and ${imp.sendOptIn} and s.state is null)
          or (trim(u.name) = '' and r.data->>'name' <> '')
        then 'update' else 'skip' end
      from "user" u
      left join customer_totals t on t.user_id = u.id
      left join subscribers s on lower(s.subemail) = lower(u.email)
      where r.import_id = ${id} and r.action = 'create' and lower(u.email) = r.email`);
    const counts = await tx.execute<{ action: RowAction; n: number }>(sql`
      select action, count(*)::int as n from import_rows where import_id = ${id} group by action`);
    const n = (a: RowAction) => counts.rows.find((c) => c.action === a)?.n ?? 0;
    await tx
      .update(imports)
      .set({
        state: "checked",
        rowsTotal: number,
        created: n("create"),
        updated: n("update"),
        skipped: n("skip"),
        refused: n("refuse"),
        error: null,
        checkedAt: deps.now(),
      })
      .where(eq(imports.id, id));
  });
}
