import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvStream } from "#app/lib/csv.server.ts";
import { createExportsService } from "#server/services/exports.ts";
import { createTestDatabase } from "../support/db";
import { holdsFor } from "../support/wait";

/**
 * Issue 24, part 5: the CSV exports stream from a database cursor through csv-stringify. What is guarded is the
 * mechanism, never a speed: bytes flow while the cursor is still open, a reader that pauses holds the cursor where it
 * is (nothing is read ahead into memory), one that stops closes it and gives the connection back.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const ZONE = "America/New_York";
/** Enough rows that a whole read would be many batches and many chunks of CSV. */
const MANY = 30_000;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(`insert into "user" (id, name, email) values ('u1', '', 'u1@example.org')`);
});
afterAll(() => database?.drop());

const exportsOf = () => createExportsService({ pool: database.pool, timeZone: ZONE });
const text = async (stream: Readable) => (await buffer(stream)).toString("utf8");

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks), the byte-order mark dropped. */
function parse(csv: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  const s = csv.replace(/^\uFEFF/, "");
  const endField = () => {
    record.push(field);
    field = "";
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\r" && s[i + 1] === "\n") {
      endField();
      records.push(record);
      record = [];
      i++;
    } else field += c;
  }
  return records;
}

/** Whether another session could lock the orders table now: not while an open cursor reads it. */
async function ordersLockedByReader(): Promise<boolean> {
  const client = await database.pool.connect();
  try {
    await client.query("begin");
    await client.query("lock table orders in access exclusive mode nowait");
    await client.query("rollback");
    return false;
  } catch (error) {
    await client.query("rollback");
    if ((error as { code?: string }).code === "55P03") return true;
    throw error;
  } finally {
    client.release();
  }
}

describe("what the exports write", () => {
  it("orders: the header, every cell quoted or neutralised as a spreadsheet needs, moments in the site's zone", async () => {
    await database.pool.query(
      `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
         customer_address, customer_country, payment_status, order_status, order_date, paid_at, delivered_at,
         membership_starts, membership_valid, created_at, updated_at)
       values ('AN-2026-00001', 'u1', 'Premium', 99, 365, 'ana@example.org', '=HYPERLINK("http://x","Ana")',
         E'1 Road, Flat "B"\\nLeeds', '@Country', 'Paid', 'Delivered', '01/01/2026', '2026-01-01T03:30:00Z',
         '2026-01-02T12:00:00Z', '2026-01-02T12:00:00Z', '2027-01-02T12:00:00Z', '2026-01-01T03:00:00Z',
         '2026-01-01T03:00:00Z')`,
    );
    const rows = parse(await text(csvStream(await exportsOf().orders())));
    expect(rows[0]).toEqual([
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
      `Placed At (${ZONE})`,
      `Paid At (${ZONE})`,
      `Delivered At (${ZONE})`,
      `Membership Starts (${ZONE})`,
      `Membership Valid Until (${ZONE})`,
    ]);
    expect(rows).toHaveLength(2);
    const [number, id, ...rest] = rows[1]!;
    expect(number).toBe("AN-2026-00001");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest).toEqual([
      "01/01/2026",
      `'=HYPERLINK("http://x","Ana")`,
      "ana@example.org",
      '1 Road, Flat "B"\nLeeds',
      "'@Country",
      "Premium",
      "99.00",
      "USD",
      "0.00",
      "0",
      "not-registered",
      "365",
      "Paid",
      "Delivered",
      // 03:00 UTC on Jan 1 is still Dec 31 in New York.
      "2025-12-31 22:00:00",
      "2025-12-31 22:30:00",
      "2026-01-02 07:00:00",
      "2026-01-02 07:00:00",
      "2027-01-02 07:00:00",
    ]);
    await database.pool.query("delete from orders");
  });

  it("subscribers and messages: labels, empty moments, line breaks and formulas in a message", async () => {
    await database.pool.query(
      `insert into subscribers (subemail, state, subscribed_at, confirmed_at)
       values ('a@example.org', 'confirmed', '2026-06-01T12:00:00Z', '2026-06-01T12:05:00Z'),
              ('b@example.org', 'pending', '2026-06-02T12:00:00Z', null)`,
    );
    await database.pool.query(
      `insert into messages (name, email, number, subject, message, created_at)
       values ('-Bob', 'bob@example.org', '+44 20 7946 0000', 'Hi, there', E'line one\\r\\nline "two"', '2026-07-04T16:00:00Z')`,
    );
    const service = exportsOf();
    expect(parse(await text(csvStream(await service.subscribers())))).toEqual([
      ["Email", "State", `Subscribed At (${ZONE})`, `Confirmed At (${ZONE})`, `Unsubscribed At (${ZONE})`],
      ["b@example.org", "Pending", "2026-06-02 08:00:00", "", ""],
      ["a@example.org", "Confirmed", "2026-06-01 08:00:00", "2026-06-01 08:05:00", ""],
    ]);
    expect(parse(await text(csvStream(await service.messages())))).toEqual([
      [`Received At (${ZONE})`, "Name", "Email", "Phone", "Subject", "Message", "Status"],
      [
        "2026-07-04 12:00:00",
        "'-Bob",
        "bob@example.org",
        "'+44 20 7946 0000",
        "Hi, there",
        'line one\r\nline "two"',
        "UnRead",
      ],
    ]);
  });
});

describe("the orders export streams from a cursor", () => {
  beforeAll(async () => {
    await database.pool.query(
      `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
         customer_address, customer_country, order_date, created_at, updated_at)
       select 'AN-2026-' || lpad(g::text, 5, '0'), 'u1', 'Basic', 29, 30, 'u1@example.org', 'Customer ' || g,
         g || ' Road', 'UK', '01/01/2026', now() - g * interval '1 minute', now()
       from generate_series(1, $1::int) g`,
      [MANY],
    );
  });

  it("sends its first bytes while the cursor is open, and a paused reader holds it there", async () => {
    const csv = csvStream(await exportsOf().orders());
    const reader = csv[Symbol.asyncIterator]();
    const first = String((await reader.next()).value);
    expect(first.startsWith("\uFEFFOrder Number,Order ID,")).toBe(true);
    const rowsSoFar = first.split("\r\n").length - 2;
    expect(rowsSoFar).toBeLessThan(MANY);
    expect(await ordersLockedByReader()).toBe(true);
    // Nobody reads for a while: the cursor stays where it is instead of reading the rest into memory.
    await holdsFor("the cursor open while nobody reads", 1_000, ordersLockedByReader);
    let rows = rowsSoFar;
    let tail = first.slice(first.lastIndexOf("\r\n") + 2);
    for (let next = await reader.next(); !next.done; next = await reader.next()) {
      const chunk = tail + String(next.value);
      rows += chunk.split("\r\n").length - 1;
      tail = chunk.slice(chunk.lastIndexOf("\r\n") + 2);
    }
    expect(rows).toBe(MANY);
    // The cursor's transaction ends as the stream ends: its commit may land a moment after the last chunk is read.
    await expect.poll(() => ordersLockedByReader(), { timeout: 5_000 }).toBe(false);
    await expect.poll(() => database.pool.totalCount - database.pool.idleCount, { timeout: 5_000 }).toBe(0);
  });

  it("closes the cursor and gives the connection back when the reader stops half-way", async () => {
    const table = await exportsOf().orders();
    const csv = csvStream(table);
    let chunks = 0;
    for await (const chunk of csv) {
      expect(String(chunk).length).toBeGreaterThan(0);
      if (++chunks === 3) break; // the download was cancelled
    }
    await new Promise<void>((resolve) => (table.rows.closed ? resolve() : table.rows.once("close", resolve)));
    await expect.poll(() => ordersLockedByReader()).toBe(false);
    expect(database.pool.totalCount - database.pool.idleCount).toBe(0);
    // The pool still works (the half-read connection was discarded, not reused).
    const { rows } = await database.pool.query<{ n: number }>("select count(*)::int as n from orders");
    expect(rows[0]!.n).toBe(MANY);
  });
});
