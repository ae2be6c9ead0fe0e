import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { describe, expect, it } from "vitest";
import { holdsMigrations, migrationsFolder } from "../db/migrate";
import { matchBackupSchema, migrations } from "./schema";

/**
 * Issue 38: the migrations are read from their SQL files, never from drizzle 0.x's journal (meta/_journal.json), which
 * drizzle 1.0 no longer writes. The journal is read here only as drizzle 0.x's own answer to compare with.
 */
const real = migrationsFolder();
const journal = (
  JSON.parse(readFileSync(path.join(real, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  }
).entries;
const sqlFiles = readdirSync(real).filter((f) => f.endsWith(".sql"));

/** A copy of the SQL files alone: no meta/ folder, no journal. */
function withoutJournal(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "atelier-migrations-"));
  for (const file of sqlFiles) copyFileSync(path.join(real, file), path.join(dir, file));
  return dir;
}

/** The folder as `drizzle-kit up` (drizzle 1.0) leaves it: `YYYYMMDDHHMMSS_name/migration.sql`, no meta/. */
function asDrizzle1(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "atelier-migrations-v1-"));
  for (const { tag, when } of journal) {
    const stamp = new Date(when).toISOString().replace(/\D/g, "").slice(0, 14);
    const folder = path.join(dir, `${stamp}_${tag.replace(/^\d+_/, "")}`);
    mkdirSync(folder);
    copyFileSync(path.join(real, `${tag}.sql`), path.join(folder, "migration.sql"));
    writeFileSync(path.join(folder, "snapshot.json"), "{}");
  }
  return dir;
}

describe("the committed migrations, read from their SQL files", () => {
  it("are drizzle 0.x's own list: the same order, hashes and statements as its journal gives", () => {
    const drizzle = readMigrationFiles({ migrationsFolder: real });
    const ours = migrations(real);
    expect(ours.map((m) => m.tag)).toEqual(journal.map((e) => e.tag));
    expect(ours.map((m) => m.hash)).toEqual(drizzle.map((m) => m.hash));
    expect(ours.map((m) => m.statements)).toEqual(drizzle.map((m) => m.sql));
    expect(ours.map((m) => m.idx)).toEqual(ours.map((_, i) => i));
  });

  it("read the same without the journal, and ignore a journal that says otherwise", () => {
    const expected = migrations(real);
    const bare = withoutJournal();
    expect(migrations(bare)).toEqual(expected);
    // A journal listing other migrations in another order: not read.
    mkdirSync(path.join(bare, "meta"));
    writeFileSync(
      path.join(bare, "meta", "_journal.json"),
      JSON.stringify({ entries: [{ idx: 0, tag: "9999_elsewhere", when: 1, breakpoints: true }] }),
    );
    expect(migrations(bare)).toEqual(expected);
  });

  it("read drizzle 1.0's folders: the same SQL in the same order, each with the second its folder names", () => {
    const expected = migrations(real);
    const v1 = migrations(asDrizzle1());
    expect(v1.map((m) => m.hash)).toEqual(expected.map((m) => m.hash));
    expect(v1.map((m) => m.statements)).toEqual(expected.map((m) => m.statements));
    expect(v1.map((m) => m.tag.replace(/^\d{14}_/, ""))).toEqual(expected.map((m) => m.tag.replace(/^\d+_/, "")));
    expect(v1.map((m) => m.millis)).toEqual(journal.map((e) => Math.floor(e.when / 1000) * 1000));
  });

  it("are found by their files, in either layout: the migrations folder needs no journal", () => {
    expect(holdsMigrations(withoutJournal())).toBe(true);
    expect(holdsMigrations(asDrizzle1())).toBe(true);
    const meta = mkdtempSync(path.join(tmpdir(), "atelier-migrations-meta-"));
    mkdirSync(path.join(meta, "meta"));
    copyFileSync(path.join(real, "meta", "_journal.json"), path.join(meta, "meta", "_journal.json"));
    expect(holdsMigrations(meta)).toBe(false);
  });

  it("refuse a folder half converted from one layout to the other, saying what to do", () => {
    const half = asDrizzle1();
    copyFileSync(path.join(real, sqlFiles[0]!), path.join(half, sqlFiles[0]!));
    expect(() => migrations(half)).toThrow(/both drizzle 0\.x files .* and drizzle 1\.0 folders .*drizzle-kit up/);
  });
});

describe("a backup's schema against the committed migrations", () => {
  const all = migrations(real);
  const last = all.at(-1)!;
  const schema = (migration: string, count: number) => ({ migration, migrationMillis: 1, migrations: count });

  it("is known at its place and name, in either layout and without the journal", () => {
    for (const folder of [real, withoutJournal(), asDrizzle1()]) {
      expect(matchBackupSchema(schema(last.tag, all.length), folder)).toMatchObject({
        kind: "known",
        migration: { idx: all.length - 1 },
      });
      expect(matchBackupSchema(schema(all[3]!.tag, 4), folder)).toMatchObject({ kind: "known", migration: { idx: 3 } });
    }
  });

  it("is newer with more migrations than this app has, and unknown under another name at that place", () => {
    const bare = withoutJournal();
    expect(matchBackupSchema(schema("0099_from_the_future", all.length + 1), bare)).toEqual({
      kind: "newer",
      newest: migrations(bare).at(-1),
    });
    expect(matchBackupSchema(schema(all[2]!.tag, 4), bare)).toEqual({ kind: "unknown" });
    expect(matchBackupSchema(schema("0003_someone_elses", 4), bare)).toEqual({ kind: "unknown" });
  });
});
