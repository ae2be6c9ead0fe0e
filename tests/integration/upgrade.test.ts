import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, inject, it } from "vitest";
import { readManifest } from "#server/backup/read.ts";
import { applyMigrationsUpTo, migrations, pendingMigrations } from "#server/backup/schema.ts";
import { loadConfig } from "#server/config.ts";
import { connect } from "#server/db/client.ts";
import { openDatabase } from "#server/db/open.ts";
import { createLogger } from "#server/lib/logger.ts";
import { withClient, withDatabase } from "../support/global-db";
import { databaseUrl } from "../support/server";

/**
 * Issue 38, part 2: a start on DATABASE_URL (here the test run's server, Debian's PostgreSQL in CI's second pass) backs
 * up before it applies new migrations, as the embedded default always did: once, by the host that migrates, however
 * many start at once; and not at all with BACKUP_BEFORE_MIGRATION=false.
 */
const { admin, template } = inject("testDb");
const work = mkdtempSync(path.join(tmpdir(), "atelier-upgrade-"));
const made: string[] = [];
afterAll(async () => {
  await withClient(admin, async (c) => {
    for (const name of made) await c.query(`drop database if exists ${name} with (force)`);
  });
  rmSync(work, { recursive: true, force: true });
});

/** The schema of every migration but the last, with drizzle's created_at for it as the migrated template holds it. */
async function schemaOfTheLastRelease() {
  const older = migrations().at(-2)!;
  const at = await withClient(withDatabase(admin, template), (c) =>
    c.query<{ at: string }>(
      `select created_at::text as at from drizzle.__drizzle_migrations order by id offset $1 limit 1`,
      [older.idx],
    ),
  );
  return { migration: older.tag, migrationMillis: Number(at.rows[0]!.at), migrations: older.idx + 1 };
}

/** A database as the previous release left it: every migration but the last, and a customer. */
async function databaseOfTheLastRelease(): Promise<string> {
  const name = `atelier_u_${randomBytes(4).toString("hex")}`;
  await withClient(admin, (c) => c.query(`create database ${name}`));
  made.push(name);
  const database = connect(withDatabase(admin, name) as never, { max: 1 });
  try {
    const client = await database.pool.connect();
    try {
      await client.query("begin");
      await applyMigrationsUpTo(client, await schemaOfTheLastRelease());
      await client.query("commit");
    } finally {
      client.release();
    }
    await database.pool.query(
      `insert into "user" (id, name, email, email_verified, created_at, updated_at)
       values ('u1', 'Old Timer', 'old@example.org', true, now(), now())`,
    );
  } finally {
    await database.close();
  }
  return name;
}

/** One host's start on DATABASE_URL (the app's own openDatabase), its log lines kept. */
async function startHost(name: string, backups: string, env: Record<string, string> = {}) {
  let text = "";
  const destination = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const logger = createLogger("info", { format: "json", destination });
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(work, "data-")),
    DATABASE_URL: databaseUrl(admin as never, name),
    BACKUP_DIR: backups,
    AUTH_SECRET: "x".repeat(40),
    DATABASE_POOL_SIZE: "2",
    ...env,
  });
  const opened = await openDatabase(config, logger);
  const pending = await pendingMigrations(opened.database.pool);
  await opened.close();
  const lines = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string; migrations?: string[] });
  return { embedded: opened.embedded, pending, lines };
}

describe("the backup before new migrations on DATABASE_URL", { timeout: 120_000 }, () => {
  it("two hosts starting at once: the one that migrates backs up first, once; the other finds nothing to do", async () => {
    const name = await databaseOfTheLastRelease();
    const backups = path.join(work, "two-hosts");
    const hosts = await Promise.all([startHost(name, backups), startHost(name, backups)]);
    const last = migrations().at(-1)!;
    for (const host of hosts) {
      expect(host.embedded).toBe(false);
      expect(host.pending).toEqual([]);
    }
    const backedUp = hosts.filter((h) => h.lines.some((l) => l.msg === "backing up before applying new migrations"));
    expect(backedUp).toHaveLength(1);
    expect(backedUp[0]!.lines.find((l) => l.migrations)?.migrations).toEqual([last.tag]);
    const files = readdirSync(backups).filter((f) => !f.startsWith("."));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/-before-migration\.tar$/);
    // The archive holds the database as the last release left it: its schema and its customer.
    const manifest = await readManifest(path.join(backups, files[0]!));
    expect(manifest.reason).toBe("before-migration");
    expect(manifest.schema.migration).toBe(migrations().at(-2)!.tag);
    expect(manifest.tables.find((t) => t.name === "user")?.rows).toBe(1);

    // A later start on the migrated database backs up nothing.
    const again = await startHost(name, backups);
    expect(again.lines.map((l) => l.msg)).not.toContain("backing up before applying new migrations");
    expect(readdirSync(backups).filter((f) => !f.startsWith("."))).toHaveLength(1);
  });

  it("BACKUP_BEFORE_MIGRATION=false migrates without a backup, and says so", async () => {
    const name = await databaseOfTheLastRelease();
    const backups = path.join(work, "skipped");
    const host = await startHost(name, backups, { BACKUP_BEFORE_MIGRATION: "false" });
    expect(host.pending).toEqual([]);
    expect(host.lines.map((l) => l.msg)).toContain(
      "BACKUP_BEFORE_MIGRATION=false: applying new migrations without a backup first",
    );
    expect(existsSync(backups) ? readdirSync(backups) : []).toEqual([]);
  });
});
