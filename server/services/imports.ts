import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parse, type CsvError } from "csv-parse";
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import {
  IMPORT_FIELDS,
  IMPORT_PRESETS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  ROW_ACTIONS,
  ignoredColumns,
  importedWindow,
  mappingFor,
  mappingProblems,
  proposeMapping,
  readRow,
  type ImportMapping,
  type ImportPreset,
  type ImportRow,
  type ImportState,
  type RowAction,
} from "#domain/imports.ts";
import type { PageInfo } from "#domain/pagination.ts";
import type { Person } from "#domain/privacy.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { adminUsers, importRows, imports } from "../db/schema";
import { AppError, badRequest, conflict, isAppError, isId, notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { paginate } from "../lib/paging";
import { audited, type Actor } from "./activity";
import type { CustomersService } from "./customers";
import type { JobsService, Tx } from "./jobs";
import type { NewsletterService } from "./newsletter";

/** The queue of the dry runs and the imports (one job per step of one import). */
export const IMPORT_QUEUE = "member-import";
/** Rows written or imported per committed batch. */
export const IMPORT_BATCH_ROWS = 500;
/** The reason of every membership an import gives (the grant's reason, on the order). */
export const IMPORTED_REASON = "Imported";

export const IMPORT_MESSAGES = {
  tooLarge: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it and import each part.`,
  noFile: "Choose a CSV file to import.",
  empty: "The file is empty: it has no header row.",
  notUtf8: "The file is not UTF-8 text. Save it as CSV UTF-8 and upload it again.",
  notCsv: "The first line of the file could not be read as CSV column headings.",
  erased: "This person's data was erased at their request: the row is not imported.",
  fileErased:
    "The uploaded file was removed because a person in it asked for their data to be erased. Upload the file again without them.",
  tooManyRows: `The file has more than ${String(MAX_IMPORT_ROWS).replace(/\B(?=(\d{3})+$)/g, ",")} rows. Split it and import each part.`,
} as const;

/** The mapping and options staff choose (the screen's form, or a REST body). */
export const importSettingsSchema = z.object({
  preset: z.enum(IMPORT_PRESETS, { error: "Choose a known export or another file" }),
  mapping: z
    .record(z.string(), z.union([z.number().int(), z.null(), z.literal(""), z.string().regex(/^\d{1,4}$/)]))
    .optional(),
  sendOptIn: z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")])
    .optional()
    .transform((v) => v === true || v === "on" || v === "true"),
});

export interface ImportRecord {
  id: string;
  fileName: string;
  bytes: number;
  headers: string[];
  preset: ImportPreset;
  mapping: ImportMapping;
  /** Columns no field reads: ignored (each named once, not per row). */
  ignored: string[];
  /** What keeps the mapping from being used (empty: it can be). */
  problems: string[];
  sendOptIn: boolean;
  state: ImportState;
  rowsTotal: number;
  cursor: number;
  counts: Record<RowAction, number>;
  error: string | null;
  createdAt: string;
  checkedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ImportRowRecord {
  row: number;
  email: string | null;
  action: RowAction;
  reason: string | null;
  name: string | null;
  membershipEnds: string | null;
  newsletter: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type Row = typeof imports.$inferSelect;

function toRecord(r: Row): ImportRecord {
  return {
    id: r.id,
    fileName: r.fileName,
    bytes: r.bytes,
    headers: r.headers,
    preset: r.preset,
    mapping: r.mapping,
    ignored: ignoredColumns(r.headers, r.mapping),
    problems: mappingProblems(r.mapping, r.headers.length),
    sendOptIn: r.sendOptIn,
    state: r.state,
    rowsTotal: r.rowsTotal,
    cursor: r.cursor,
    counts: { create: r.created, update: r.updated, skip: r.skipped, refuse: r.refused },
    error: r.error,
    createdAt: r.createdAt.toISOString(),
    checkedAt: iso(r.checkedAt),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
  };
}

/** Counts bytes as they pass; past `limit` the stream fails (the rest is never read). */
function bounded(limit: number): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _, done) {
      bytes += chunk.length;
      if (bytes > limit) return done(new AppError(413, IMPORT_MESSAGES.tooLarge));
      done(null, chunk);
    },
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A cell read as UTF-8; null when its bytes are not. After a byte-order mark csv-parse decodes the file itself, with
 * U+FFFD for bytes that are not UTF-8: such a cell is refused alike.
 */
function text(cell: Buffer | string): string | null {
  if (typeof cell === "string") return cell.includes("\uFFFD") ? null : cell;
  try {
    return utf8.decode(cell);
  } catch {
    return null;
  }
}

/** The CSV reader of an import: raw bytes per cell (each decoded on its own), a bad record skipped with its error. */
const reader = (onSkip: (error: CsvError | undefined) => void) =>
  parse({
    bom: true,
    encoding: null,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      onSkip(error);
      return undefined;
    },
  });

/** Why csv-parse could not read a record, in a sentence. */
function csvProblem(error: CsvError | undefined): string {
  switch (error?.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return "A quote opened in this row is never closed: the rest of the file could not be read.";
    case "INVALID_OPENING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return "A quote in this row is out of place (a field's quotes must surround it whole).";
    default:
      return "This row could not be read as CSV.";
  }
}

export interface ImportsDeps {
  db: Db;
  customers: Pick<CustomersService, "importMany" | "grant">;
  newsletter: Pick<NewsletterService, "importMany">;
  jobs: Pick<JobsService, "worker" | "send">;
  logger: Logger;
  now: () => Date;
  timeZone: string;
  /** Where uploaded files are kept: DATA_DIR/imports. */
  dir: string;
}

/**
 * Member imports (issue 37 part 3, decision 079): a CSV file uploaded to DATA_DIR/imports (streamed, at most
 * MAX_IMPORT_BYTES), its columns mapped to ours (a preset or by hand), a dry run that reads the file once and stores
 * each row's verdict (create, update, skip, refuse with the reason), then the import itself in the background, in
 * committed batches from a cursor: customers through the customers service, memberships through its grant, subscribers
 * through the newsletter service. Each step is idempotent, so a job killed half-way runs again from its cursor and a
 * second import of the same file changes nothing. The only writer of imports and import_rows.
 */
export function createImportsService({ db, customers, newsletter, jobs, logger, now, timeZone, dir }: ImportsDeps) {
  const fileOf = (id: string) => path.join(dir, `${id}.csv`);

  async function row(id: string): Promise<Row> {
    if (!isId(id)) throw notFound("Import not found");
    const [r] = await db.select().from(imports).where(eq(imports.id, id));
    if (!r) throw notFound("Import not found");
    return r;
  }

  /** The header of a stored file: its first record as text (null: not UTF-8 or not CSV). */
  async function headerOf(file: string): Promise<string[] | "notUtf8" | "notCsv" | "empty"> {
    const parser = reader(() => {});
    const source = createReadStream(file);
    source.pipe(parser);
    try {
      for await (const record of parser as AsyncIterable<(Buffer | string)[]>) {
        const cells = record.map(text);
        if (cells.some((c) => c === null)) return "notUtf8";
        return cells as string[];
      }
      return "empty";
    } catch {
      return "notCsv";
    } finally {
      source.destroy();
      parser.destroy();
    }
  }

  /** Reads the file and stores each row's verdict, then decides create, update or skip in SQL. */
  async function check(id: string): Promise<void> {
    const imp = await row(id);
    if (imp.state !== "checking") return;
    if (!existsSync(fileOf(id))) {
      await db
        .update(imports)
        .set({ state: "failed", error: IMPORT_MESSAGES.fileErased, finishedAt: now() })
        .where(eq(imports.id, id));
      return;
    }
    await db.delete(importRows).where(eq(importRows.importId, id));
    const at = now();
    let number = 0;
    let batch: (typeof importRows.$inferInsert)[] = [];
    // One statement per batch, its columns as five arrays (not a parameter per cell).
    const flush = async () => {
      if (!batch.length) return;
      const rows = batch;
      batch = [];
      await db.execute(sql`
        insert into import_rows (import_id, row_number, email, action, reason, data)
        select ${id}::uuid, x.* from unnest(
          ${sql.param(rows.map((r) => r.rowNumber))}::int[],
          ${sql.param(rows.map((r) => r.email ?? null))}::text[],
          ${sql.param(rows.map((r) => r.action))}::text[],
          ${sql.param(rows.map((r) => r.reason ?? null))}::text[],
          ${sql.param(rows.map((r) => (r.data ? JSON.stringify(r.data) : null)))}::jsonb[]
        ) as x(row_number, email, action, reason, data)`);
    };
    const skipped: string[] = [];
    const parser = reader((error) => skipped.push(csvProblem(error)));
    const source = createReadStream(fileOf(id));
    source.pipe(parser);
    let header = true;
    let problem: string | null = null;
    const columns = imp.headers.length;
    try {
      for await (const record of parser as AsyncIterable<(Buffer | string)[]>) {
        // A record skipped for its quotes counts as a row, refused, where it stood.
        for (const reason of skipped.splice(0))
          batch.push({ importId: id, rowNumber: ++number, action: "refuse", reason });
        if (header) {
          header = false;
          continue;
        }
        if (++number > MAX_IMPORT_ROWS) {
          problem = IMPORT_MESSAGES.tooManyRows;
          break;
        }
        const cells = record.map(text);
        const base = { importId: id, rowNumber: number };
        if (cells.some((c) => c === null)) {
          batch.push({ ...base, action: "refuse", reason: "The row is not UTF-8 text." });
        } else if (cells.length > columns && cells.slice(columns).some((c) => c!.trim() !== "")) {
          batch.push({
            ...base,
            action: "refuse",
            reason: `The row has ${cells.length} cells; the header names ${columns} columns.`,
          });
        } else {
          const verdict = readRow(cells as string[], imp.mapping, timeZone, at);
          batch.push(
            verdict.ok
              ? { ...base, email: verdict.row.email, action: "create", data: verdict.row }
              : { ...base, action: "refuse", reason: verdict.reason },
          );
        }
        if (batch.length >= IMPORT_BATCH_ROWS) await flush();
      }
      for (const reason of skipped.splice(0))
        batch.push({ importId: id, rowNumber: ++number, action: "refuse", reason });
      await flush();
    } finally {
      source.destroy();
      parser.destroy();
    }
    if (problem) {
      await db.delete(importRows).where(eq(importRows.importId, id));
      await db.update(imports).set({ state: "failed", error: problem, finishedAt: now() }).where(eq(imports.id, id));
      return;
    }
    await db.transaction(async (tx) => {
      // A second row with an address already in the file: refused, naming the first.
      await tx.execute(sql`
        update import_rows r set action = 'refuse',
          reason = 'The email address is on row ' || d.first || ' already.', data = null
        from (select row_number, min(row_number) over (partition by email) as first
              from import_rows where import_id = ${id} and action <> 'refuse') d
        where r.import_id = ${id} and r.row_number = d.row_number and d.row_number <> d.first`);
      // A staff member's address is no customer (customers.ts leaves staff out).
      await tx.execute(sql`
        update import_rows r set action = 'refuse', data = null,
          reason = 'This is a staff member''s address: staff are not imported as customers.'
        from ${adminUsers} a
        where r.import_id = ${id} and r.action = 'create' and lower(a.user_email) = r.email`);
      // An existing customer: updated where the file brings something (a later membership end, a consent, a name for
      // a blank one), else skipped.
      await tx.execute(sql`
        update import_rows r set action = case when
            ((r.data->>'membershipEnds') is not null
              and (t.membership_ends is null or t.membership_ends < (r.data->>'membershipEnds')::timestamptz))
            or (r.data->>'newsletter' = 'confirmed' and (s.state is null or s.state = 'pending'))
            or (r.data->>'newsletter' = 'unconfirmed' and ${imp.sendOptIn} and s.state is null)
            or (trim(u.name) = '' and r.data->>'name' <> '')
          then 'update' else 'skip' end
        from "user" u
        left join customer_totals t on t.user_id = u.id
        left join subscribers s on lower(s.subemail) = lower(u.email)
        where r.import_id = ${id} and r.action = 'create' and lower(u.email) = r.email`);
      const counts = await tx.execute<{ action: RowAction; n: number }>(sql`
        select action, count(*)::int as n from import_rows where import_id = ${id} group by action`);
      const n = (a: RowAction) => counts.rows.find((c) => c.action === a)?.n ?? 0;
      await tx
        .update(imports)
        .set({
          state: "checked",
          rowsTotal: number,
          created: n("create"),
          updated: n("update"),
          skipped: n("skip"),
          refused: n("refuse"),
          error: null,
          checkedAt: now(),
        })
        .where(eq(imports.id, id));
    });
  }

  /** Imports the checked rows from the cursor on, a committed batch at a time. */
  async function run(id: string): Promise<void> {
    const imp = await row(id);
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
  async function runJob(data: unknown): Promise<void> {
    const id = String((data as { importId?: unknown } | null)?.importId ?? "");
    const imp = await row(id).catch(() => null);
    if (!imp) return;
    try {
      if (imp.state === "checking") await check(id);
      else if (imp.state === "importing") await run(id);
    } catch (error) {
      logger.error({ importId: id, error }, "member import step failed");
      throw error;
    }
  }

  jobs.worker(IMPORT_QUEUE, runJob, { title: "Member import: the file checked or imported", expireInSeconds: 60 * 60 });

  const settingsOf = (input: unknown, headers: string[]) => {
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
  };

  return {
    runJob,
    check,
    run,

    /**
     * Stores an uploaded file (streamed to DATA_DIR/imports, at most MAX_IMPORT_BYTES: past that it fails with 413 and
     * nothing is kept) and reads its header: the import, with the mapping its header proposes.
     */
    async upload(body: Readable, fileName: string, actor: Actor): Promise<ImportRecord> {
      await mkdir(dir, { recursive: true });
      const id = randomUUID();
      const file = fileOf(id);
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
      const [created] = await db
        .insert(imports)
        .values({
          id,
          fileName: fileName.slice(0, 200) || "members.csv",
          bytes,
          headers: header,
          preset,
          mapping,
          createdBy: actor.id,
          createdAt: now(),
        })
        .returning();
      return toRecord(created!);
    },

    /** One import with its counts and progress. */
    async get(id: string): Promise<ImportRecord> {
      return toRecord(await row(id));
    },

    /** The imports, newest first, one page. */
    async list(pageAsked: unknown, perPage: number): Promise<{ imports: ImportRecord[]; page: PageInfo }> {
      const [{ n }] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from imports`)).rows as [
        { n: number },
      ];
      const page = paginate(n, pageAsked, perPage);
      const rows = await db
        .select()
        .from(imports)
        .orderBy(desc(imports.createdAt), desc(imports.id))
        .limit(perPage)
        .offset(page.offset);
      return { imports: rows.map(toRecord), page };
    },

    /** The dry run's rows, one page, of one action or all, in the file's order. */
    async rows(
      id: string,
      action: unknown,
      pageAsked: unknown,
      perPage: number,
    ): Promise<{ rows: ImportRowRecord[]; page: PageInfo }> {
      const imp = await row(id);
      const only = typeof action === "string" && (ROW_ACTIONS as readonly string[]).includes(action) ? action : null;
      const where = only
        ? and(eq(importRows.importId, id), eq(importRows.action, only as RowAction))
        : eq(importRows.importId, id);
      const total = only
        ? { create: imp.created, update: imp.updated, skip: imp.skipped, refuse: imp.refused }[only as RowAction]
        : imp.created + imp.updated + imp.skipped + imp.refused;
      const page = paginate(total, pageAsked, perPage);
      const rows = await db
        .select()
        .from(importRows)
        .where(where)
        .orderBy(asc(importRows.rowNumber))
        .limit(perPage)
        .offset(page.offset);
      return {
        rows: rows.map((r) => ({
          row: r.rowNumber,
          email: r.email,
          action: r.action,
          reason: r.reason ?? (r.data?.notes.length ? r.data.notes.join(" ") : null),
          name: r.data?.name ?? null,
          membershipEnds: r.data?.membershipEnds ?? null,
          newsletter: r.data?.newsletter ?? null,
        })),
        page,
      };
    },

    /**
     * Sets the mapping and options and checks the file in the background (the dry run): allowed before the import
     * starts, and again after a check (a new mapping is checked again).
     */
    async checkFile(id: string, input: unknown): Promise<ImportRecord> {
      const imp = await row(id);
      if (!["uploaded", "checked"].includes(imp.state) && !(imp.state === "failed" && imp.startedAt === null))
        throw conflict("This import has started: its columns can no longer be changed.");
      const settings = settingsOf(input, imp.headers);
      const [updated] = await db.transaction(async (tx) => {
        const r = await tx
          .update(imports)
          .set({ ...settings, state: "checking", error: null, checkedAt: null })
          .where(eq(imports.id, id))
          .returning();
        await jobs.send(IMPORT_QUEUE, { importId: id }, { singletonKey: `check-${id}`, tx });
        return r;
      });
      return toRecord(updated!);
    },

    /**
     * Starts the checked import in the background, in the activity log as the staff member's. Starting it again (or a
     * started one) changes nothing.
     */
    async start(id: string, actor: Actor): Promise<{ record: ImportRecord; started: boolean }> {
      const imp = await row(id);
      if (imp.state === "importing" || imp.state === "done") return { record: toRecord(imp), started: false };
      if (imp.state !== "checked")
        throw conflict("Check the file first: its rows are imported as the check read them.");
      const [updated] = await audited(db, actor, "customer-import", async (tx, audit) => {
        const r = await tx
          .update(imports)
          .set({ state: "importing", startedAt: now() })
          .where(and(eq(imports.id, id), eq(imports.state, "checked")))
          .returning();
        if (!r.length) return r;
        await jobs.send(IMPORT_QUEUE, { importId: id }, { singletonKey: `import-${id}`, tx });
        await audit.created(id, {
          fileName: imp.fileName,
          rows: imp.rowsTotal,
          newCustomers: imp.created,
          existingCustomers: imp.updated,
          refused: imp.refused,
        });
        return r;
      });
      return { record: toRecord(updated ?? (await row(id))), started: Boolean(updated) };
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;

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
