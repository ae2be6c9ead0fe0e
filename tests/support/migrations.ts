import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrations } from "#server/backup/schema.ts";
import { withClient, withDatabase } from "./global-db";

/** The statements of one committed migration, as drizzle splits them. */
export function statements(tag: string): string[] {
  const migration = migrations().find((m) => m.tag === tag);
  if (!migration) throw new Error(`no migration ${tag}`);
  return migration.statements.map((s) => s.trim()).filter(Boolean);
}

/** The committed migrations' tags, in order. */
function tags(): string[] {
  return migrations().map((m) => m.tag);
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
