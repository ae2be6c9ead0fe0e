import { pipeline, Readable, Transform } from "node:stream";
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

/** Bytes handed on at a time: csv-stringify writes a chunk per row, and each chunk costs the response a write. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The bytes of `table` as CSV, written as its rows come, in chunks of about 64 KB: a reader that stops early, or a
 * failing read, ends the rows too (and so the database cursor behind them).
 */
export function csvStream(table: CsvTable): Readable {
  return pipeline(table.rows, stringify({ ...CSV_OPTIONS, columns: table.header }), chunks(CHUNK_BYTES), () => {});
}

/** Gathers small writes into chunks of at least `size` bytes (the last one smaller). */
function chunks(size: number): Transform {
  let held: Buffer[] = [];
  let bytes = 0;
  const take = () => {
    const chunk = Buffer.concat(held, bytes);
    held = [];
    bytes = 0;
    return chunk;
  };
  return new Transform({
    transform(chunk: Buffer, _, done) {
      held.push(chunk);
      bytes += chunk.length;
      done(null, bytes >= size ? take() : undefined);
    },
    flush(done) {
      done(null, bytes ? take() : undefined);
    },
  });
}

/** A CSV download of `table` saved as `filename`, never cached, its body streamed. */
export function csvResponse(table: CsvTable, filename: string): Response {
  return new Response(releasingChunks(Readable.toWeb(csvStream(table)) as ReadableStream<Uint8Array>), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * `body`, whose readers forget each chunk once the next is asked for. @react-router/node 7.18 writes a response body
 * with writeReadableStreamToWritable, which races every read against one promise that lives as long as the response
 * (remix-run/react-router#15247, fixed in React Router 8 by #15500): each read's result, and so its chunk, stays
 * reachable until the response ends. A million orders' CSV (227 MB) was held whole by the end, +390 MB of RSS; with
 * this, what a download holds stays flat. By the next read the previous chunk has been written, so nothing else needs it.
 */
export function releasingChunks<T>(body: ReadableStream<T>): ReadableStream<T> {
  const getReader = body.getReader.bind(body) as () => ReadableStreamDefaultReader<T>;
  const releasing = () => {
    const reader = getReader();
    let last: { value?: T } | undefined;
    return {
      async read() {
        if (last) delete last.value;
        const result = await reader.read();
        last = result;
        return result;
      },
      cancel: (reason?: unknown) => reader.cancel(reason),
      releaseLock: () => reader.releaseLock(),
      get closed() {
        return reader.closed;
      },
    };
  };
  Object.defineProperty(body, "getReader", { value: releasing, configurable: true });
  return body;
}
