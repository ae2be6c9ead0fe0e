import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { migrationsFolder } from "../db/migrate";

/** drizzle's record of the migrations applied (server/db/migrate.ts applies them through drizzle). */
const MIGRATIONS_TABLE = `"drizzle"."__drizzle_migrations"`;

/**
 * One committed migration, read from its SQL file alone (docs/decisions/080): never from drizzle's journal
 * (`meta/_journal.json`), which drizzle 1.0 no longer writes.
 */
export interface Migration {
  /** Its place in the folder's order, from 0. */
  idx: number;
  /** Its name: the file's (`0043_imports`, drizzle 0.x) or the folder's (`20261128101500_imports`, drizzle 1.0). */
  tag: string;
  /** The SHA-256 drizzle stores in its table for it: of the file's text (line ends made LF, as drizzle 0.x does). */
  hash: string;
  /** Its statements, split where drizzle splits them. */
  statements: string[];
  /** drizzle 1.0's `created_at` for it (the folder name's UTC second); drizzle 0.x keeps its own in the journal. */
  millis: number | undefined;
}

/** drizzle 0.x: `NNNN_name.sql` beside `meta/`. */
const FLAT_FILE = /^(\d+)_[^/]+\.sql$/;
/** drizzle 1.0: `YYYYMMDDHHMMSS_name/migration.sql`. */
const FOLDER = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})_/;

/**
 * The committed migrations in the order drizzle applies them: the SQL files of either layout, sorted by name (the
 * number or timestamp each name starts with). A folder holding both layouts at once is refused: it is half converted.
 */
export function migrations(folder: string = migrationsFolder()): Migration[] {
  const names = readdirSync(folder).sort();
  const flat = names.filter((n) => FLAT_FILE.test(n));
  const nested = names.filter((n) => {
    try {
      return statSync(path.join(folder, n, "migration.sql")).isFile();
    } catch {
      return false;
    }
  });
  if (flat.length && nested.length) {
    throw new Error(
      `The migrations folder ${folder} holds both drizzle 0.x files (${flat[0]}) and drizzle 1.0 folders ` +
        `(${nested[0]}/migration.sql): finish converting it (npx drizzle-kit up) before starting the app.`,
    );
  }
  if (nested.length) {
    return nested.map((name, idx) => {
      // drizzle 1.0 hashes and splits the file as it is.
      const text = readFileSync(path.join(folder, name, "migration.sql"), "utf8");
      const at = FOLDER.exec(name);
      const millis = at ? Date.UTC(+at[1]!, +at[2]! - 1, +at[3]!, +at[4]!, +at[5]!, +at[6]!) : undefined;
      return { idx, tag: name, hash: sha256(text), statements: text.split("--> statement-breakpoint"), millis };
    });
  }
  return flat.map((file, idx) => {
    const text = readFileSync(path.join(folder, file), "utf8").replace(/\r\n/g, "\n");
    return {
      idx,
      tag: file.slice(0, -".sql".length),
      hash: sha256(text),
      statements: text.split("--> statement-breakpoint"),
      millis: undefined,
    };
  });
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

type Queryable = Pick<pg.ClientBase, "query">;

/** The last migration applied to a database (its `created_at`), or undefined when none was (no app schema there). */
export async function lastAppliedMigration(client: Queryable): Promise<number | undefined> {
  if (!(await hasMigrationsTable(client))) return undefined;
  const { rows } = await client.query<{ at: string | null }>(
    `select max(created_at)::text as at from ${MIGRATIONS_TABLE}`,
  );
  return rows[0]?.at ? Number(rows[0].at) : undefined;
}

/**
 * How many migrations a database has had (0 for an empty one). drizzle applies them in the folder's order and keeps one
 * row for each, so they are the folder's first ones.
 */
export async function appliedMigrationCount(client: Queryable): Promise<number> {
  if (!(await hasMigrationsTable(client))) return 0;
  const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${MIGRATIONS_TABLE}`);
  return rows[0]?.n ?? 0;
}

async function hasMigrationsTable(client: Queryable): Promise<boolean> {
  const { rows } = await client.query<{ found: boolean }>(`select to_regclass($1) is not null as found`, [
    MIGRATIONS_TABLE,
  ]);
  return rows[0]?.found === true;
}

/** The committed migrations a database has not had yet (all of them for an empty database). */
export async function pendingMigrations(client: Queryable, folder?: string): Promise<Migration[]> {
  const applied = await appliedMigrationCount(client);
  return migrations(folder).slice(applied);
}

/** The committed migration a database stands at (its last applied), or undefined for an empty or a newer database. */
export async function currentMigration(client: Queryable, folder?: string): Promise<Migration | undefined> {
  const applied = await appliedMigrationCount(client);
  return applied ? migrations(folder)[applied - 1] : undefined;
}

/** What a backup's manifest says of its schema (server/backup/manifest.ts). */
export interface BackupSchema {
  /** The name of its last migration. */
  migration: string;
  /** That migration's `created_at` in the database backed up. */
  migrationMillis: number;
  /** How many migrations that database had. */
  migrations: number;
}

export type SchemaMatch =
  { kind: "known"; migration: Migration } | { kind: "newer"; newest: Migration } | { kind: "unknown" };

/**
 * Whether a backup's schema is one this app's migrations reach: its last migration is the folder's one at the same
 * place, under the same name (or, across drizzle's two layouts, `0043_imports` and `20261128101500_imports`, the same
 * name after the number). More migrations than the folder holds: a newer app's.
 */
export function matchBackupSchema(schema: BackupSchema, folder?: string): SchemaMatch {
  const known = migrations(folder);
  if (schema.migrations > known.length) return { kind: "newer", newest: known.at(-1)! };
  const migration = known[schema.migrations - 1];
  if (migration && sameMigration(migration.tag, schema.migration)) return { kind: "known", migration };
  return { kind: "unknown" };
}

const withoutNumber = (tag: string) => tag.replace(/^\d+_/, "");
const sameMigration = (a: string, b: string) => a === b || withoutNumber(a) === withoutNumber(b);

/**
 * Applies the committed migrations up to and including a backup's last one, as drizzle's migrator does (the same
 * statements, one row each in its table), but inside the caller's transaction: a restore that fails later leaves no
 * schema behind. The later migrations run at the app's next start, as after any upgrade.
 *
 * Each row's `created_at` is the one drizzle's migrator goes by: the backup's own for its last migration (drizzle 0.x
 * applies what is newer than the newest row), the folder name's second under drizzle 1.0. The earlier rows of a
 * drizzle 0.x folder get their place (0, 1, …): no migration's time, so drizzle 1.0's upgrade of the table matches
 * them to their files by hash.
 */
export async function applyMigrationsUpTo(client: Queryable, schema: BackupSchema, folder?: string): Promise<void> {
  const match = matchBackupSchema(schema, folder);
  if (match.kind !== "known") throw new Error(`Migration ${schema.migration} is not one of this app's migrations.`);
  await client.query(`create schema if not exists "drizzle"`);
  await client.query(
    `create table if not exists ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
  );
  const last = match.migration.idx;
  for (const migration of migrations(folder).slice(0, last + 1)) {
    for (const statement of migration.statements) await client.query(statement);
    const createdAt = migration.idx === last ? schema.migrationMillis : (migration.millis ?? migration.idx);
    await client.query(`insert into ${MIGRATIONS_TABLE} (hash, created_at) values ($1, $2)`, [
      migration.hash,
      createdAt,
    ]);
  }
}
