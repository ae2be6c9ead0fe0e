import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { databaseBefore, statements } from "../support/migrations";

/**
 * Migration 0014 on orders placed before it: numbers in the order they were placed, per year of the site's time zone,
 * each year's counter continuing from there; delivered orders' delivery taken as their payment; every customer queued
 * for the one recompute of their timeline (tests/integration/order-commands.test.ts runs that recompute).
 */
const { admin } = inject("testDb");
let client: pg.Client;
let drop: () => Promise<void>;

beforeAll(async () => ({ client, drop } = await databaseBefore(admin, "0014_order_numbers_and_timeline")));
afterAll(() => drop?.());

describe("migration 0014", () => {
  it("numbers existing orders in the order they were placed and queues their customers' timelines", async () => {
    await client.query(`update order_tally_zone set time_zone = 'America/New_York'`);
    await client.query(
      `insert into "user" (id, name, email) values ('u1', '', 'a@example.org'), ('u2', '', 'b@example.org')`,
    );
    const order = (user: string, createdAt: string, status: string, delivery: string, paidAt: string | null) =>
      client.query(
        `insert into orders (user_id, package_name, package_price, package_validity, customer_email, customer_name,
           customer_address, customer_country, payment_status, order_status, order_date, paid_at, created_at, updated_at)
         values ($1, 'Basic', 29, 30, 'x@example.org', 'X', 'Road', 'UK', $3, $4, '01/01/2026', $5, $2, $2)
         returning id`,
        [user, createdAt, status, delivery, paidAt],
      );
    // 2026-01-01 03:00 UTC is still 2025 in New York.
    const a = await order("u1", "2026-01-01T03:00:00Z", "Paid", "Delivered", "2026-01-01T04:00:00Z");
    const b = await order("u2", "2025-06-01T12:00:00Z", "UnPaid", "Pending", null);
    const c = await order("u1", "2026-02-01T12:00:00Z", "Paid", "Pending", "2026-02-02T12:00:00Z");
    const d = await order("u2", "2026-03-01T12:00:00Z", "Cancelled", "Pending", null);
    await client.query("begin");
    for (const s of statements("0014_order_numbers_and_timeline")) await client.query(s);
    await client.query("commit");

    const rows = (await client.query(`select id, number, delivered_at from orders order by created_at`)).rows as {
      id: string;
      number: string;
      delivered_at: Date | null;
    }[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(b.rows[0].id)!.number).toBe("AN-2025-00001");
    expect(byId.get(a.rows[0].id)!.number).toBe("AN-2025-00002");
    expect(byId.get(c.rows[0].id)!.number).toBe("AN-2026-00001");
    expect(byId.get(d.rows[0].id)!.number).toBe("AN-2026-00002");
    expect(byId.get(a.rows[0].id)!.delivered_at).toEqual(new Date("2026-01-01T04:00:00Z"));
    expect(byId.get(c.rows[0].id)!.delivered_at).toBeNull();
    expect((await client.query(`select scope, last from number_sequences order by scope`)).rows).toEqual([
      { scope: "order:2025", last: 2 },
      { scope: "order:2026", last: 2 },
    ]);
    expect((await client.query(`select user_id from membership_recompute order by user_id`)).rows).toEqual([
      { user_id: "u1" },
      { user_id: "u2" },
    ]);
    // The number is required and unique from now on.
    await expect(
      client.query(`update orders set number = 'AN-2026-00001' where id = $1`, [d.rows[0].id]),
    ).rejects.toThrow(/orders_number_unique/);
  });
});
