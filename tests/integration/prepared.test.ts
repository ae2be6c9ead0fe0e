import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect } from "../../server/db/client";
import { preparedRows, statementName } from "../../server/db/prepared";
import { orderMonthCounts } from "../../server/db/schema";
import { createOrderTallies } from "../../server/services/order-tallies";
import { createTestDatabase } from "../support/db";
import { withDatabase } from "../support/global-db";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** A pool of one connection to the test database, so that the statements it holds can be listed. */
const oneConnection = () => connect(withDatabase(inject("testDb").admin, database.name) as never, { max: 1 });

describe("prepared statements (server/db/prepared.ts)", () => {
  it("run a statement under a name made from its text, prepared once per connection and reused", async () => {
    const one = oneConnection();
    try {
      const query = (type: string) =>
        sql`select count(*)::int as n from ${orderMonthCounts} where ${orderMonthCounts.paymentStatus} = ${type}`;
      expect(await preparedRows(one.db, query("Paid"))).toEqual([{ n: 0 }]);
      expect(await preparedRows(one.db, query("UnPaid"))).toEqual([{ n: 0 }]);
      const held = await one.pool.query<{ name: string; statement: string }>(
        "select name, statement from pg_prepared_statements",
      );
      expect(held.rows).toHaveLength(1); // the same text with other values: the same statement
      expect(held.rows[0]!.statement).toContain('"order_month_counts"');
      expect(held.rows[0]!.name).toBe(statementName(held.rows[0]!.statement));
    } finally {
      await one.close();
    }
  });

  it("hold the tally reads of every list and deep page (a few shapes, whatever the values)", async () => {
    const one = oneConnection();
    try {
      const tallies = createOrderTallies(one.db, "UTC");
      for (const payment of ["Paid", "UnPaid", undefined] as const) {
        await tallies.count({ payment });
        await tallies.pageStart({ payment }, 5_000, false);
      }
      await tallies.totalSales();
      await tallies.salesByMonth(new Date());
      const held = await one.pool.query<{ statement: string }>("select statement from pg_prepared_statements");
      // count and page start with and without a status filter, the total and the chart.
      expect(held.rows).toHaveLength(6);
    } finally {
      await one.close();
    }
  });
});
