import { createHash } from "node:crypto";
import { fillPlaceholders, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client";

const dialect = new PgDialect();

/** A statement's name: the same text always gets the same name (node-postgres prepares each name once per connection). */
export const statementName = (text: string) =>
  `s_${createHash("sha256").update(text).digest("base64url").slice(0, 24)}`;

/**
 * Runs `query` as a named prepared statement: each connection parses and plans it once, and later runs skip both
 * (for the small reads on every back-office page, planning cost several times their execution: 0.78 ms against
 * 0.54 ms for a deep page's start). Statements of different shapes get different names, so any query may go through
 * here; but PostgreSQL may keep one generic plan for a statement after five runs, so only statements whose best plan
 * does not depend on their values belong here (reads of the small tally tables), never a scan of orders.
 */
export function preparedRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  return statementRows<T>(db, statement(query));
}

/** A statement compiled from drizzle's SQL: its text, the name `preparedRows` runs it under, and its parameters. */
export interface Statement {
  readonly name: string;
  readonly text: string;
  readonly params: unknown[];
}

/**
 * Compiles `query` once: a statement read on every view is compiled when its service is made, with its values as
 * `sql.placeholder(name)`, and each run only fills them in (compiling a query costs more than PostgreSQL's run of a
 * prepared one). The rule of `preparedRows` holds.
 */
export function statement(query: SQL): Statement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { name: statementName(text), text, params };
}

/** Runs a compiled statement under its name, its placeholders filled from `values`. */
export async function statementRows<T extends Record<string, unknown>>(
  db: Db,
  compiled: Statement,
  values: Record<string, unknown> = {},
): Promise<T[]> {
  const { name, text, params } = compiled;
  const result = await db.$client.query<T>({ name, text, values: fillPlaceholders(params, values) });
  return result.rows;
}

/** A drizzle select (or any query that can be prepared), as `named` takes it. */
export interface Preparable<R> extends PromiseLike<R> {
  getSQL(): SQL;
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/**
 * Runs a drizzle query as a named prepared statement, with drizzle's own mapping of its rows: the builder's way to
 * what `preparedRows` does for SQL text. The same rule holds: only a query whose best plan is the same for every value
 * it is given (a customer's own orders by their id, a list in its index's order), never a filter whose values pick
 * very different numbers of rows.
 */
export function named<R>(query: Preparable<R>, values?: Record<string, unknown>): Promise<R> {
  return query.prepare(statementName(dialect.sqlToQuery(query.getSQL()).sql)).execute(values);
}

/**
 * A drizzle query built once, with its values as `sql.placeholder(name)`, and prepared under the name of its text:
 * `execute({ name: value })` then runs it with drizzle's row mapping and nothing left to build. For the reads on every
 * view whose shape never changes (`named` builds its query on each call, twice: once for the name, once to run it).
 */
export function preparedQuery<P>(query: { toSQL(): { sql: string }; prepare(name: string): P }): P {
  return query.prepare(statementName(query.toSQL().sql));
}
