import { createReadStream } from "node:fs";
import { Transform } from "node:stream";
import { parse, type CsvError } from "csv-parse";
import { AppError } from "#server/lib/errors.ts";
import { IMPORT_MESSAGES } from "./model";

/** Counts bytes as they pass; past `limit` the stream fails (the rest is never read). */
export function bounded(limit: number): Transform {
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
export function text(cell: Buffer | string): string | null {
  if (typeof cell === "string") return cell.includes("\uFFFD") ? null : cell;
  try {
    return utf8.decode(cell);
  } catch {
    return null;
  }
}

/** The CSV reader of an import: raw bytes per cell (each decoded on its own), a bad record skipped with its error. */
export const reader = (onSkip: (error: CsvError | undefined) => void) =>
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
export function csvProblem(error: CsvError | undefined): string {
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

/** The header of a stored file: its first record as text (null: not UTF-8 or not CSV). */
export async function headerOf(file: string): Promise<string[] | "notUtf8" | "notCsv" | "empty"> {
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
