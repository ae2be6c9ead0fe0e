import { pipeline, Readable } from "node:stream";
import { stringify, type Options } from "csv-stringify";

/**
 * RFC 4180 CSV as spreadsheets read it: a UTF-8 byte-order mark (accents read right), a header row, CRLF rows, a field
 * quoted when it holds a comma, a quote or a line break (quotes doubled), and a cell that a spreadsheet would run as a
 * formula (starting with = + - @, a tab or a carriage return, or their full-width forms) prefixed with a quote mark,
 * so exported data cannot execute; numbers stay numbers, negative ones too.
 */
export const CSV_OPTIONS = {
  bom: true,
  header: true,
  record_delimiter: "\r\n",
  // Without it, a field holding a bare \n or \r (a message's lines) would not be quoted once the delimiter is CRLF.
  quote_record_delimiter: true,
  escape_formulas: true,
  cast: { date: (d: Date) => d.toISOString(), boolean: (b: boolean) => (b ? "true" : "false") },
} satisfies Options;

/** A table to write: its header and its rows (arrays of cells, in the header's order) as an object-mode stream. */
export interface CsvTable {
  header: string[];
  rows: Readable;
}

/**
 * The bytes of `table` as CSV, written as its rows come: a reader that stops early, or a failing read, ends the rows
 * too (and so the database cursor behind them).
 */
export function csvStream(table: CsvTable): Readable {
  return pipeline(table.rows, stringify({ ...CSV_OPTIONS, columns: table.header }), () => {});
}

/** A CSV download of `table` saved as `filename`, never cached, its body streamed. */
export function csvResponse(table: CsvTable, filename: string): Response {
  return new Response(Readable.toWeb(csvStream(table)) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}
