import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "#domain/membership.ts";
import { COUNT_CAP } from "#server/services/back-office.ts";
import { startTestApp, type TestApp } from "../support/app";

/**
 * The back office's figures (server/services/back-office.ts) on the real database: the navigation's counts and Today's,
 * each capped at COUNT_CAP, only those of the role's areas, memberships ending within 7 days from the customers'
 * kept ends, and the day's and month's sales in the site's time zone. Rows are written with SQL, as another writer
 * would: the triggers keep the tallies the figures read.
 */
const NOW = new Date("2026-11-25T12:00:00Z");
let app: TestApp;
const sql = async (query: string, values: unknown[] = []) => (await app.db.pool.query(query, values)).rows;

let n = 0;
/** A customer with one order; `paidAt` pays it, `ends` delivers it with a window ending then. */
async function order(name: string, price: number, options: { paidAt?: Date; ends?: Date; pending?: boolean } = {}) {
  n += 1;
  const id = `bo-user-${n}`;
  await sql(`insert into "user" (id, name, email) values ($1, $2, $3)`, [id, name, `${id}@example.org`]);
  const paid = options.paidAt !== undefined;
  await sql(
    `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
       customer_address, customer_country, order_date, payment_status, order_status, paid_at, delivered_at,
       membership_starts, membership_valid, created_at)
     values ($1, $2, 'Premium', $3, 30, $4, $5, 'Leeds', 'United Kingdom', '11/01/2026', $6, $7, $8, $9, $10, $11, $12)`,
    [
      `AN-2026-9${String(n).padStart(4, "0")}`,
      id,
      price,
      `${id}@example.org`,
      name,
      paid ? "Paid" : "UnPaid",
      options.ends ? "Delivered" : "Pending",
      options.paidAt ?? null,
      options.ends ? options.paidAt : null,
      options.ends ? new Date(options.ends.getTime() - 30 * DAY_MS) : null,
      options.ends ?? null,
      options.paidAt ?? NOW,
    ],
  );
}

beforeAll(async () => {
  app = await startTestApp({ TZ: "America/New_York" }, { now: () => NOW });
});
afterAll(() => app?.close());

describe("the navigation's counts", () => {
  it("unread messages in the inbox, capped at COUNT_CAP; archived ones do not count; each role its own", async () => {
    await sql(`insert into messages (name, email, subject, message, message_status)
               select 'V', 'v@example.org', 'Hello', 'Text', 'UnRead' from generate_series(1, ${COUNT_CAP + 5})`);
    await sql(`insert into messages (name, email, subject, message, message_status, archived_at)
               select 'V', 'v@example.org', 'Hello', 'Text', 'UnRead', now() from generate_series(1, 3)`);
    expect((await app.services.backOffice.navCounts("Admin")).unread).toEqual({ total: COUNT_CAP, capped: true });
    await sql(`update messages set message_status = 'Read'
               where id in (select id from messages where archived_at is null limit ${COUNT_CAP - 2})`);
    const editor = await app.services.backOffice.navCounts("Editor");
    expect(editor).toEqual({ toDeliver: undefined, unread: { total: 7, capped: false } });
  });
});

describe("Today", () => {
  it("memberships ending in the next 7 days, to deliver, and the sales of the site's day and month", async () => {
    const hours = (h: number) => new Date(NOW.getTime() + h * 3_600_000);
    await order("Ends in a day", 49, { paidAt: new Date("2026-10-28T12:00:00Z"), ends: hours(24) });
    await order("Ends in six days", 99, { paidAt: new Date("2026-10-30T12:00:00Z"), ends: hours(6 * 24) });
    await order("Ends in eight days", 99, { paidAt: new Date("2026-11-01T12:00:00Z"), ends: hours(8 * 24) });
    await order("Ended yesterday", 49, { paidAt: new Date("2026-10-20T12:00:00Z"), ends: hours(-24) });
    // Paid today in New York (07:00 there), and late on the 24th there (03:00 UTC on the 25th): yesterday's.
    await order("Paid this morning", 199, { paidAt: hours(-1) });
    await order("Paid last night", 99, { paidAt: new Date("2026-11-25T03:00:00Z") });
    await order("Not paid", 49);

    const today = await app.services.backOffice.today("Admin");
    expect(today.day).toBe("2026-11-25");
    expect(today.monthStart).toBe("2026-11-01");
    expect(today.endingSoon?.total).toBe(2);
    expect(today.endingSoon?.first.map((m) => m.customerName)).toEqual(["Ends in a day", "Ends in six days"]);
    expect(today.toDeliver).toEqual({ total: 2, capped: false });
    expect(today.failedJobs).toEqual({ total: 0, capped: false });
    expect(today.sales).toEqual({ today: 199, paidToday: 1, givenToday: 0, month: 99 + 199 + 99 });

    // An Editor's Today holds only what the role opens.
    const editor = await app.services.backOffice.today("Editor");
    expect(editor.unread).toBeDefined();
    expect([editor.toDeliver, editor.endingSoon, editor.failedJobs, editor.sales]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
