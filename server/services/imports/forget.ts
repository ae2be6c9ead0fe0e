import { createReadStream, existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Person } from "#domain/privacy.ts";
import { imports } from "#server/db/schema.ts";
import type { Tx } from "../jobs";
import { IMPORT_MESSAGES } from "./model";

/**
 * Forgets a person in the member imports (decision 086). A row of any of their addresses loses the address and what the
 * file said of them: one already imported keeps what it did (the import's figures stay true); one not yet imported is
 * refused, so that an import started later does not bring them back, and its import's figures are counted again. The
 * uploaded file that holds them (its rows say so, or, never checked, its text does) is deleted: an import reads its
 * file only to check it, and checking it again would read them back. A checked import still starts from its rows; one
 * never checked is failed with the reason.
 */
export async function forgetPerson(tx: Tx, person: Person, dir: string): Promise<void> {
  if (!person.emails.length) return;
  const emails = sql.param(person.emails);
  const { rows } = await tx.execute<{ import_id: string }>(sql`
    update import_rows r set email = null, data = null, reason = ${IMPORT_MESSAGES.erased},
      action = case when i.started_at is not null and r.row_number <= i.cursor then r.action else 'refuse' end
    from imports i
    where i.id = r.import_id
      and (r.email = any(${emails}::text[]) or lower(r.data->>'email') = any(${emails}::text[]))
    returning r.import_id`);
  const changed = [...new Set(rows.map((r) => r.import_id))];
  if (changed.length)
    await tx.execute(sql`
      update imports i set created = c.created, updated = c.updated, skipped = c.skipped, refused = c.refused
      from (select import_id,
              (count(*) filter (where action = 'create'))::int as created,
              (count(*) filter (where action = 'update'))::int as updated,
              (count(*) filter (where action = 'skip'))::int as skipped,
              (count(*) filter (where action = 'refuse'))::int as refused
            from import_rows where import_id = any(${sql.param(changed)}::uuid[]) group by import_id) c
      where i.id = c.import_id and i.state <> 'checking'`);
  // The files that hold them: those of the imports their rows were in, and of those never checked, by their text.
  const candidates = await tx
    .select({ id: imports.id, checkedAt: imports.checkedAt, state: imports.state })
    .from(imports)
    .where(or(isNull(imports.checkedAt), changed.length ? inArray(imports.id, changed) : undefined));
  for (const imp of candidates) {
    const file = path.join(dir, `${imp.id}.csv`);
    if (!changed.includes(imp.id) && !(await fileMentions(file, person.emails))) continue;
    await rm(file, { force: true });
    if (imp.checkedAt === null && imp.state !== "checking")
      await tx
        .update(imports)
        .set({ state: "failed", error: IMPORT_MESSAGES.fileErased })
        .where(eq(imports.id, imp.id));
  }
}

/** Whether a stored file's text holds any of `needles` (lower-cased), read as a stream whatever its size. */
async function fileMentions(file: string, needles: readonly string[]): Promise<boolean> {
  if (!existsSync(file)) return false;
  const overlap = Math.max(...needles.map((n) => n.length));
  let tail = "";
  for await (const chunk of createReadStream(file, { encoding: "utf8" })) {
    const text = tail + (chunk as string).toLowerCase();
    if (needles.some((n) => text.includes(n))) return true;
    tail = text.slice(-overlap);
  }
  return false;
}
