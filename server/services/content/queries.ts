import { and, eq } from "drizzle-orm";
import { contentEntries } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import { sectionOr404, toRecord, type ContentRecord, type Live } from "./model.ts";

export async function get({ db }: Live, type: string, id: string): Promise<ContentRecord> {
  sectionOr404(type);
  if (!isId(id)) throw notFound();
  const [row] = await db
    .select({ id: contentEntries.id, data: contentEntries.data })
    .from(contentEntries)
    .where(and(eq(contentEntries.type, type), eq(contentEntries.id, id)));
  if (!row) throw notFound();
  return toRecord(row);
}

/** Whether any content exists (an empty database gets the demo content). */
export async function isEmpty({ db }: Live): Promise<boolean> {
  const rows = await db.select({ id: contentEntries.id }).from(contentEntries).limit(1);
  return rows.length === 0;
}
