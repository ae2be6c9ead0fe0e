import { and, asc, eq, gt, sql } from "drizzle-orm";
import { importedWindow, type ImportRow } from "#domain/imports.ts";
import { importRows, imports } from "#server/db/schema.ts";
import { isAppError } from "#server/lib/errors.ts";
import type { Actor } from "../activity";
import { check } from "./check";
import { IMPORT_BATCH_ROWS, IMPORTED_REASON, row, type ImportsDeps } from "./model";

/** Imports the checked rows from the cursor on, a committed batch at a time. */
export async function run(deps: ImportsDeps, id: string): Promise<void> {
  const { db, customers, newsletter, logger, now } = deps;
  const imp = await row(deps, id);
  if (imp.state !== "importing") return;
  const actor: Actor = { id: imp.createdBy, email: "" };
  const [by] = await db
    .execute<{ email: string }>(sql`select email from "user" where id = ${imp.createdBy}`)
    .then((r) => r.rows);
  actor.email = by?.email ?? "";
  let cursor = imp.cursor;
  for (;;) {
    const rows = await db
      .select()
      .from(importRows)
      .where(and(eq(importRows.importId, id), gt(importRows.rowNumber, cursor)))
      .orderBy(asc(importRows.rowNumber))
      .limit(IMPORT_BATCH_ROWS);
    if (!rows.length) break;
    const acted = rows.filter((r) => (r.action === "create" || r.action === "update") && r.data);
    const data = acted.map((r) => r.data!);
    const { ids } = await customers.importMany(data);
    for (const r of acted) {
      const d = r.data!;
      const userId = ids.get(d.email);
      if (!d.membershipEnds || !userId) continue;
      const endsAt = new Date(d.membershipEnds);
      const { days } = importedWindow(endsAt, now());
      try {
        await customers.grant(userId, { days, reason: IMPORTED_REASON }, actor, `import-${endsAt.getTime()}`, {
          endsAt,
          packageName: d.membershipPackage,
        });
      } catch (error) {
        if (!isAppError(error)) throw error;
        await db
          .update(importRows)
          .set({ reason: `The membership could not be given: ${error.message}` })
          .where(and(eq(importRows.importId, id), eq(importRows.rowNumber, r.rowNumber)));
      }
    }
    const consents = data
      .filter((d): d is ImportRow & { newsletter: "confirmed" | "unconfirmed" } => d.newsletter !== "none")
      .map((d) => ({ email: d.email, consent: d.newsletter }));
    await newsletter.importMany(consents, imp.sendOptIn);
    cursor = rows[rows.length - 1]!.rowNumber;
    await db.update(imports).set({ cursor }).where(eq(imports.id, id));
  }
  await db.update(imports).set({ state: "done", finishedAt: now() }).where(eq(imports.id, id));
  logger.info({ importId: id, rows: imp.rowsTotal }, "member import done");
}

/** One job: the dry run or the import, as the import's state says. */
export async function runJob(deps: ImportsDeps, data: unknown): Promise<void> {
  const id = String((data as { importId?: unknown } | null)?.importId ?? "");
  const imp = await row(deps, id).catch(() => null);
  if (!imp) return;
  try {
    if (imp.state === "checking") await check(deps, id);
    else if (imp.state === "importing") await run(deps, id);
  } catch (error) {
    deps.logger.error({ importId: id, error }, "member import step failed");
    throw error;
  }
}
