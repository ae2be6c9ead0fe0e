import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { connect, type Database } from "#server/db/client.ts";
import { withClient, withDatabase } from "./global-db";

/** A fresh database for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<Database & { name: string; drop(): Promise<void> }> {
  const { admin, template } = inject("testDb");
  const ppid = template.replace("atelier_template_", "");
  const name = `atelier_t_${ppid}_${randomBytes(4).toString("hex")}`;
  await withClient(admin, (c) => c.query(`create database ${name} template ${template}`));
  const database = connect(withDatabase(admin, name) as never, { max: 5 });
  return {
    ...database,
    name,
    async drop() {
      await database.close();
      await withClient(admin, (c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
