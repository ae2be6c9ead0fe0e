import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  applyMigrationsUpTo,
  appliedMigrationCount,
  currentMigration,
  migrations,
  pendingMigrations,
} from "#server/backup/schema.ts";
import { connect, type Database } from "#server/db/client.ts";
import { migrationsFolder, runMigrations } from "#server/db/migrate.ts";
import { createTestDatabase } from "../support/db";
import { withClient, withDatabase } from "../support/global-db";

/**
 * Issue 38: what the start (a backup before new migrations) and the backups (the schema a backup records, the schema a
 * restore builds) know of the migrations comes from their SQL files and drizzle's table, never from drizzle 0.x's
 * journal: here they read a copy of the folder without it and give the answers drizzle's own migrator gives.
 */
const { admin } = inject("testDb");
const bare = mkdtempSync(path.join(tmpdir(), "atelier-migrations-"));
for (const file of readdirSync(migrationsFolder()).filter((f) => f.endsWith(".sql"))) {
  copyFileSync(path.join(migrationsFolder(), file), path.join(bare, file));
}
const all = migrations(bare);

let migrated: Awaited<ReturnType<typeof createTestDatabase>>;
let empty: Database;
let emptyName: string;

beforeAll(async () => {
  migrated = await createTestDatabase();
  emptyName = `atelier_t_${inject("testDb").template.replace("atelier_template_", "")}_${randomBytes(4).toString("hex")}`;
  await withClient(admin, (c) => c.query(`create database ${emptyName}`));
  empty = connect(withDatabase(admin, emptyName) as never, { max: 2 });
});

afterAll(async () => {
  await migrated?.drop();
  await empty?.close();
  await withClient(admin, (c) => c.query(`drop database if exists ${emptyName} with (force)`));
});

describe("the migrations a database has had, without the journal", () => {
  it("a database drizzle migrated: every one applied, none pending, standing at the last", async () => {
    expect(await appliedMigrationCount(migrated.pool)).toBe(all.length);
    expect(await pendingMigrations(migrated.pool, bare)).toEqual([]);
    expect((await currentMigration(migrated.pool, bare))?.tag).toBe(all.at(-1)!.tag);
    // The hashes drizzle stored are those of the files.
    const { rows } = await migrated.pool.query<{ hash: string }>(
      `select hash from drizzle.__drizzle_migrations order by id`,
    );
    expect(rows.map((r) => r.hash)).toEqual(all.map((m) => m.hash));
  });

  it("an empty database: all pending, none current", async () => {
    expect(await pendingMigrations(empty.pool, bare)).toHaveLength(all.length);
    expect(await currentMigration(empty.pool, bare)).toBeUndefined();
  });

  it("a restore's schema up to an older migration: the last one pending, which drizzle's migrator then applies", async () => {
    const older = all.at(-2)!;
    const { rows } = await migrated.pool.query<{ at: string }>(
      `select created_at::text as at from drizzle.__drizzle_migrations order by id offset $1 limit 1`,
      [older.idx],
    );
    const client = await empty.pool.connect();
    try {
      await client.query("begin");
      await applyMigrationsUpTo(
        client,
        { migration: older.tag, migrationMillis: Number(rows[0]!.at), migrations: older.idx + 1 },
        bare,
      );
      await client.query("commit");
    } finally {
      client.release();
    }
    expect((await pendingMigrations(empty.pool, bare)).map((m) => m.tag)).toEqual([all.at(-1)!.tag]);
    expect((await currentMigration(empty.pool, bare))?.tag).toBe(older.tag);

    await runMigrations(empty);
    expect(await pendingMigrations(empty.pool, bare)).toEqual([]);
    const { rows: applied } = await empty.pool.query<{ hash: string }>(
      `select hash from drizzle.__drizzle_migrations order by id`,
    );
    expect(applied.map((r) => r.hash)).toEqual(all.map((m) => m.hash));
  });
});
