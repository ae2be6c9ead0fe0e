import { pipeline, Transform, type Readable } from "node:stream";
import type pg from "pg";
import QueryStream from "pg-query-stream";
import { shownEmail } from "#domain/customers.ts";
import { subscriberStates, type SubscriberState } from "#domain/vocabulary.ts";

/**
 * One export: its column headers and its rows, read from a database cursor as the reader asks for them (a batch at
 * a time, `highWaterMark` rows ahead), so that a million orders cost the memory of a few hundred.
 */
export interface ExportTable {
  header: string[];
  /** Object mode: each row an array of cells (strings, numbers or null), in the header's order. */
  rows: Readable;
}

export interface ExportsDeps {
  pool: pg.Pool;
  /** The site's time zone: every moment is written in it (TZ). */
  timeZone: string;
}

/** Rows fetched from PostgreSQL per round trip; the stream reads one batch ahead. */
export const EXPORT_BATCH_ROWS = 500;

/** A moment as a spreadsheet reads it, in the site's time zone: 2026-12-22 15:04:05. */
const moment = (column: string) => `to_char(${column} at time zone $1, 'YYYY-MM-DD HH24:MI:SS')`;

/**
 * The CSV exports of the back office (orders, subscribers, messages), each a cursor over one query. Every moment is
 * written in the site's time zone, whose name the header carries ("Placed At (Europe/London)").
 */
export function createExportsService({ pool, timeZone }: ExportsDeps) {
  const at = (title: string) => `${title} (${timeZone})`;
  return {
    /** Every order, newest first; the columns start with the number and the id, as the back office names them. */
    orders: (): Promise<ExportTable> =>
      table(
        pool,
        [
          "Order Number",
          "Order ID",
          "Order Date",
          "Customer Name",
          "Customer Email",
          "Address",
          "Country",
          "Package",
          "Price",
          "Currency",
          "VAT",
          "VAT Rate (%)",
          "VAT Treatment",
          "Validity (days)",
          "Payment Status",
          "Order Status",
          at("Placed At"),
          at("Paid At"),
          at("Delivered At"),
          at("Membership Starts"),
          at("Membership Valid Until"),
        ],
        `select number, id, order_date, customer_name, customer_email, customer_address, customer_country,
                package_name, to_char(package_price, 'FM9999999990.00'), currency,
                to_char(tax_cents / 100.0, 'FM9999999990.00'), trim_scale(tax_rate / 100.0)::text, tax_treatment,
                package_validity, payment_status,
                order_status, ${moment("created_at")}, ${moment("paid_at")}, ${moment("delivered_at")},
                ${moment("membership_starts")}, ${moment("membership_valid")}
         from orders order by created_at desc, id desc`,
        [timeZone],
        // An erased customer's placeholder is no address (decision 063).
        (row) => row.map((cell, i) => (i === 4 ? (shownEmail(String(cell)) ?? "") : cell)),
      ),

    /** Every address with its state and dates, newest signup first. */
    subscribers: (): Promise<ExportTable> =>
      table(
        pool,
        ["Email", "State", at("Subscribed At"), at("Confirmed At"), at("Unsubscribed At")],
        `select subemail, state, ${moment("subscribed_at")}, ${moment("confirmed_at")}, ${moment("unsubscribed_at")}
         from subscribers order by subscribed_at desc, subemail`,
        [timeZone],
        (row) => {
          row[1] = subscriberStates.label(row[1] as SubscriberState);
          return row;
        },
      ),

    /** Every contact message, newest first. */
    messages: (): Promise<ExportTable> =>
      table(
        pool,
        [at("Received At"), "Name", "Email", "Phone", "Subject", "Message", "Status"],
        `select ${moment("created_at")}, name, email, number, subject, message, message_status
         from messages order by created_at desc, id desc`,
        [timeZone],
      ),
  };
}

export type ExportsService = ReturnType<typeof createExportsService>;

/**
 * The rows of `text` from a cursor on a connection of their own. The connection goes back to the pool when the last
 * row is read; a reader that stops early (the download was cancelled) or an error discards it, since its cursor may
 * be half read.
 */
export async function table(
  pool: pg.Pool,
  header: string[],
  text: string,
  values: unknown[],
  map?: (row: unknown[]) => unknown[],
): Promise<ExportTable> {
  const client = await pool.connect();
  let released = false;
  const release = (discard: boolean) => {
    if (released) return;
    released = true;
    client.release(discard || undefined);
  };
  const cursor = client.query(new QueryStream(text, values, { batchSize: EXPORT_BATCH_ROWS, rowMode: "array" }));
  cursor.once("end", () => release(false));
  cursor.once("error", () => release(true));
  cursor.once("close", () => release(!cursor.readableEnded));
  if (!map) return { header, rows: cursor };
  // pipeline: an error on either side, or a reader that stops, ends both (and so the cursor).
  const mapped = new Transform({ objectMode: true, transform: (row: unknown[], _, done) => done(null, map(row)) });
  return { header, rows: pipeline(cursor, mapped, () => {}) };
}
