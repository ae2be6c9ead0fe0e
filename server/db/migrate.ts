import { fileURLToPath } from "node:url";
import path from "node:path";
import { readdirSync } from "node:fs";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { Database } from "./client";

/** Any constant shared by every instance of this app: the advisory lock that serialises migrations. */
const MIGRATION_LOCK = 7_417_001;

/**
 * The committed migrations' folder: the first `drizzle/` that holds migrations, known by their SQL files as either
 * drizzle lays them out (0.x: `0043_imports.sql`; 1.0: `20261128101500_imports/migration.sql`), never by drizzle
 * 0.x's journal, which 1.0 no longer writes (docs/decisions/080).
 */
export function migrationsFolder(): string {
  // Source tree: server/db/migrate.ts → ../../drizzle. Built bundle: build/server/main.js → ../../drizzle.
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    path.resolve(here, "../../drizzle"),
    path.resolve(here, "../drizzle"),
    path.resolve("drizzle"),
  ]) {
    if (holdsMigrations(candidate)) return candidate;
  }
  throw new Error("The migrations folder (drizzle/) was not found.");
}

/** Whether a folder holds migrations in either layout (its SQL files; never drizzle 0.x's journal). */
export function holdsMigrations(folder: string): boolean {
  try {
    return readdirSync(folder, { withFileTypes: true }).some((entry) =>
      entry.isFile()
        ? /^\d+_.+\.sql$/.test(entry.name)
        : entry.isDirectory() && readdirSync(path.join(folder, entry.name)).includes("migration.sql"),
    );
  } catch {
    return false;
  }
}

/**
 * Applies the committed migrations once, under an advisory lock, so that several instances starting at once
 * do not race; drizzle runs the pending migrations in one transaction. `beforeApply` runs inside the lock, before them:
 * the host that migrates backs up there (server/backup/before-migration.ts), once, while the others wait.
 */
export async function runMigrations(
  database: Database,
  options: { beforeApply?: () => Promise<void> } = {},
): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await options.beforeApply?.();
      await migrate(database.db, { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
