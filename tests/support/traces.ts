import { expect } from "vitest";
import type pg from "pg";

/**
 * Where any of `needles` still appears (case-insensitive): every text, varchar and JSON column of every table in the
 * app's schema and the job queue's, one query per column, as `"schema"."table"."column": n`. The sweep of
 * tests/integration/privacy.test.ts, for the other erasure tests (decision 086).
 */
export async function tracesOf(pool: pg.Pool, needles: string[]): Promise<string[]> {
  const { rows: columns } = await pool.query(
    `select table_schema, table_name, column_name from information_schema.columns
     where table_schema in ('public', 'pgboss') and data_type in ('text', 'character varying', 'jsonb', 'json')
       and table_name in (select table_name from information_schema.tables
                          where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE')`,
  );
  const found: string[] = [];
  for (const c of columns) {
    const column = `"${c.table_schema}"."${c.table_name}"."${c.column_name}"`;
    const { rows } = await pool.query(
      `select count(*)::int as n from "${c.table_schema}"."${c.table_name}"
       where exists (select 1 from unnest($1::text[]) as needle where position(lower(needle) in lower("${c.column_name}"::text)) > 0)`,
      [needles],
    );
    if (rows[0].n) found.push(`${column}: ${rows[0].n}`);
  }
  expect(columns.length).toBeGreaterThan(50);
  return found;
}
