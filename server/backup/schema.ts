import { readFileSync } from "node:fs";
import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type pg from "pg";
import { migrationsFolder } from "../db/migrate";

/** drizzle's record of the migrations applied (server/db/migrate.ts applies them through drizzle). */
const MIGRATIONS_TABLE = `"drizzle"."__drizzle_migrations"`;

export interface JournalEntry {
  idx: number;
  tag: string;
  /** drizzle's key for a migration: the journal's `when`, stored as `created_at` once applied. */
  when: number;
}

/** The committed migrations, in order (drizzle/meta/_journal.json). */
export function journal(): JournalEntry[] {
  const file = path.join(migrationsFolder(), "meta", "_journal.json");
  const { entries } = JSON.parse(readFileSync(file, "utf8")) as { entries: JournalEntry[] };
  return entries.map(({ idx, tag, when }) => ({ idx, tag, when }));
}

type Queryable = Pick<pg.ClientBase, "query">;

/** The last migration applied to a database (its `when`), or undefined when none was (no app schema there). */
export async function lastAppliedMigration(client: Queryable): Promise<number | undefined> {
  const exists = await client.query<{ found: boolean }>(`select to_regclass($1) is not null as found`, [
    MIGRATIONS_TABLE,
  ]);
  if (!exists.rows[0]?.found) return undefined;
  const { rows } = await client.query<{ at: string | null }>(
    `select max(created_at)::text as at from ${MIGRATIONS_TABLE}`,
  );
  return rows[0]?.at ? Number(rows[0].at) : undefined;
}

/** The committed migrations a database has not had yet (all of them for an empty database). */
export async function pendingMigrations(client: Queryable): Promise<JournalEntry[]> {
  const last = await lastAppliedMigration(client);
  return journal().filter((m) => last === undefined || m.when > last);
}

/**
 * Applies the committed migrations up to and including the one whose `when` is `upTo`, exactly as drizzle's migrator
 * does (the same statements, the same rows in its table), but inside the caller's transaction: a restore that fails
 * later leaves no schema behind. The later migrations run at the app's next start, as after any upgrade.
 */
export async function applyMigrationsUpTo(client: Queryable, upTo: number): Promise<void> {
  await client.query(`create schema if not exists "drizzle"`);
  await client.query(
    `create table if not exists ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
  );
  for (const migration of readMigrationFiles({ migrationsFolder: migrationsFolder() })) {
    if (migration.folderMillis > upTo) break;
    for (const statement of migration.sql) await client.query(statement);
    await client.query(`insert into ${MIGRATIONS_TABLE} (hash, created_at) values ($1, $2)`, [
      migration.hash,
      migration.folderMillis,
    ]);
  }
}
