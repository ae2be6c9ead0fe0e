import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq } from "drizzle-orm";
import { IMPORT_FIELDS, MAX_IMPORT_BYTES, mappingFor, mappingProblems, proposeMapping } from "#domain/imports.ts";
import { parseWith } from "#domain/validation.ts";
import { imports } from "#server/db/schema.ts";
import { AppError, badRequest, conflict } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { bounded, headerOf } from "./csv";
import {
  IMPORT_MESSAGES,
  IMPORT_QUEUE,
  fileOf,
  importSettingsSchema,
  row,
  toRecord,
  type ImportRecord,
  type ImportsDeps,
} from "./model";

/**
 * Stores an uploaded file (streamed to DATA_DIR/imports, at most MAX_IMPORT_BYTES: past that it fails with 413 and
 * nothing is kept) and reads its header: the import, with the mapping its header proposes.
 */
export async function upload(deps: ImportsDeps, body: Readable, fileName: string, actor: Actor): Promise<ImportRecord> {
  await mkdir(deps.dir, { recursive: true });
  const id = randomUUID();
  const file = fileOf(deps, id);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, bounded(MAX_IMPORT_BYTES), counter, createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  const header = bytes === 0 ? "empty" : await headerOf(file);
  if (typeof header === "string") {
    await rm(file, { force: true });
    throw new AppError(400, IMPORT_MESSAGES[header], [{ field: "file", message: IMPORT_MESSAGES[header] }]);
  }
  const { preset, mapping } = proposeMapping(header);
  const [created] = await deps.db
    .insert(imports)
    .values({
      id,
      fileName: fileName.slice(0, 200) || "members.csv",
      bytes,
      headers: header,
      preset,
      mapping,
      createdBy: actor.id,
      createdAt: deps.now(),
    })
    .returning();
  return toRecord(created!);
}

/**
 * Sets the mapping and options and checks the file in the background (the dry run): allowed before the import
 * starts, and again after a check (a new mapping is checked again).
 */
export async function checkFile(deps: ImportsDeps, id: string, input: unknown): Promise<ImportRecord> {
  const imp = await row(deps, id);
  if (!["uploaded", "checked"].includes(imp.state) && !(imp.state === "failed" && imp.startedAt === null))
    throw conflict("This import has started: its columns can no longer be changed.");
  const settings = settingsOf(input, imp.headers);
  const [updated] = await deps.db.transaction(async (tx) => {
    const r = await tx
      .update(imports)
      .set({ ...settings, state: "checking", error: null, checkedAt: null })
      .where(eq(imports.id, id))
      .returning();
    await deps.jobs.send(IMPORT_QUEUE, { importId: id }, { singletonKey: `check-${id}`, tx });
    return r;
  });
  return toRecord(updated!);
}

/**
 * Starts the checked import in the background, in the activity log as the staff member's. Starting it again (or a
 * started one) changes nothing.
 */
export async function start(
  deps: ImportsDeps,
  id: string,
  actor: Actor,
): Promise<{ record: ImportRecord; started: boolean }> {
  const imp = await row(deps, id);
  if (imp.state === "importing" || imp.state === "done") return { record: toRecord(imp), started: false };
  if (imp.state !== "checked") throw conflict("Check the file first: its rows are imported as the check read them.");
  const [updated] = await audited(deps.db, actor, "customer-import", async (tx, audit) => {
    const r = await tx
      .update(imports)
      .set({ state: "importing", startedAt: deps.now() })
      .where(and(eq(imports.id, id), eq(imports.state, "checked")))
      .returning();
    if (!r.length) return r;
    await deps.jobs.send(IMPORT_QUEUE, { importId: id }, { singletonKey: `import-${id}`, tx });
    await audit.created(id, {
      fileName: imp.fileName,
      rows: imp.rowsTotal,
      newCustomers: imp.created,
      existingCustomers: imp.updated,
      refused: imp.refused,
    });
    return r;
  });
  return { record: toRecord(updated ?? (await row(deps, id))), started: Boolean(updated) };
}

/** The mapping and options asked for, over the preset's; refused (400) when the mapping cannot be used. */
function settingsOf(input: unknown, headers: string[]) {
  const parsed = parseWith(importSettingsSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { preset, sendOptIn } = parsed.data;
  let mapping = mappingFor(headers, preset);
  if (parsed.data.mapping) {
    mapping = { ...mapping };
    for (const field of IMPORT_FIELDS) {
      const given = parsed.data.mapping[field];
      if (given === undefined) continue;
      mapping[field] = given === null || given === "" ? null : Number(given);
    }
  }
  const problems = mappingProblems(mapping, headers.length);
  if (problems.length) throw badRequest(problems.map((message) => ({ field: "mapping", message })));
  return { preset, mapping, sendOptIn };
}
