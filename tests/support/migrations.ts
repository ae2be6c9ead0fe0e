import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrationsFolder } from "../../server/db/migrate";
import { withClient, withDatabase } from "./global-db";

/** The statements of one committed migration, as drizzle splits them. */
export function statements(tag: string): string[] {
  return readFileSync(path.join(migrationsFolder(), `${tag}.sql`), "utf8")
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The committed migrations' tags, in order. */
function tags(): string[] {
  const journal = readFileSync(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8");
  return (JSON.parse(journal) as { entries: { tag: string }[] }).entries.map((e) => e.tag);
}

/**
 * A new database of the test server holding every migration before `tag` (in one transaction, as drizzle's migrator
 * applies them), for a test of what `tag` does to rows made before it: insert them, then run `statements(tag)`.
 */
export async function databaseBefore(
  adminUrl: pg.ClientConfig,
  tag: string,
): Promise<{ client: pg.Client; drop: () => Promise<void> }> {
  const all = tags();
  if (!all.includes(tag)) throw new Error(`no migration ${tag}`);
  const name = `atelier_m_${randomBytes(4).toString("hex")}`;
  await withClient(adminUrl, (c) => c.query(`create database ${name}`));
  const client = new pg.Client(withDatabase(adminUrl, name));
  await client.connect();
  await client.query("begin");
  for (const earlier of all.slice(0, all.indexOf(tag))) for (const s of statements(earlier)) await client.query(s);
  await client.query("commit");
  return {
    client,
    drop: async () => {
      await client.end();
      await withClient(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
