import path from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import {
  IMPORT_PRESETS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  ignoredColumns,
  mappingProblems,
  type ImportMapping,
  type ImportPreset,
  type ImportState,
  type RowAction,
} from "#domain/imports.ts";
import type { Db } from "#server/db/client.ts";
import { imports } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { CustomersService } from "../customers";
import type { JobsService } from "../jobs";
import type { NewsletterService } from "../newsletter";

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

export type Row = typeof imports.$inferSelect;

export function toRecord(r: Row): ImportRecord {
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

/** Where an import's uploaded file is kept. */
export const fileOf = (deps: Pick<ImportsDeps, "dir">, id: string) => path.join(deps.dir, `${id}.csv`);

export async function row(deps: Pick<ImportsDeps, "db">, id: string): Promise<Row> {
  if (!isId(id)) throw notFound("Import not found");
  const [r] = await deps.db.select().from(imports).where(eq(imports.id, id));
  if (!r) throw notFound("Import not found");
  return r;
}
