import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect } from "#server/db/client.ts";
import { named, preparedRows, statementName } from "#server/db/prepared.ts";
import { orderMonthCounts, subscribers } from "#server/db/schema.ts";
import { pageOf, preparedPages } from "#server/lib/paging.ts";
import type { Viewer } from "#server/services/accounts.ts";
import { createOrderQueries } from "#server/services/orders/queries.ts";
import { createOrderTallies } from "#server/services/orders/tallies.ts";
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
      const tallies = createOrderTallies({ db: one.db, timeZone: "UTC" });
      for (const payment of ["Paid", "UnPaid", undefined] as const) {
        await tallies.count({ payment });
        await tallies.pageStart({ payment }, 5_000, false);
      }
      await tallies.sales(new Date());
      const held = await one.pool.query<{ statement: string }>("select statement from pg_prepared_statements");
      // count and page start with and without a status filter, the total with the chart.
      expect(held.rows).toHaveLength(5);
    } finally {
      await one.close();
    }
  });

  it("hold one statement for every deep page of all orders (the desk's and GET /api/orders?page=), whatever the page", async () => {
    const one = oneConnection();
    try {
      const queries = createOrderQueries({ db: one.db, now: () => new Date(), timeZone: "UTC" });
      // list() reads a viewer's id and whether they are an administrator.
      const admin = { id: "admin", isAdmin: true } as Viewer;
      const deepOnes = async () =>
        (await one.pool.query<{ statement: string }>("select statement from pg_prepared_statements")).rows.filter((r) =>
          r.statement.includes("with bound as materialized"),
        );
      for (const page of [200, 5_000, 50_000]) await queries.list(admin, { page, perPage: 20 });
      expect(await deepOnes()).toHaveLength(1);
      // The page size is in its text (a placeholder there would have it planned on every run): one per page size.
      await queries.list(admin, { page: 500, perPage: 10 });
      expect(await deepOnes()).toHaveLength(2);
      // A status filter picks very different shares of the orders: its deep page is planned each time (after the
      // tallies' prepared read of its start), never held.
      await queries.list(admin, { page: 200, perPage: 20, filters: { payment: "Paid" } });
      expect(await deepOnes()).toHaveLength(2);
    } finally {
      await one.close();
    }
  });

  it("run a drizzle query under its name with drizzle's own row mapping (named), as the lists read on every view do", async () => {
    const one = oneConnection();
    try {
      await one.db.insert(subscribers).values([
        { subemail: "a@example.com", state: "confirmed", subscribedAt: new Date("2026-01-01T00:00:00Z") },
        { subemail: "b@example.com", state: "confirmed", subscribedAt: new Date("2026-01-02T00:00:00Z") },
        { subemail: "c@example.com", state: "pending" },
      ]);
      const byState = (state: "confirmed" | "pending") =>
        one.db
          .select({ email: subscribers.subemail, at: subscribers.subscribedAt })
          .from(subscribers)
          .where(eq(subscribers.state, state))
          .orderBy(desc(subscribers.subscribedAt));
      // drizzle's mapping: the selected keys, timestamps as Dates, exactly as the query run unprepared gives them.
      expect(await named(byState("confirmed"))).toEqual(await byState("confirmed"));
      expect((await named(byState("confirmed")))[0]).toEqual({ email: "b@example.com", at: expect.any(Date) });
      expect(await named(byState("pending"))).toHaveLength(1);
      const held = async () =>
        (await one.pool.query<{ statement: string }>("select statement from pg_prepared_statements")).rows;
      expect(await held()).toHaveLength(1);

      const list = { where: eq(subscribers.state, "confirmed"), orderBy: [desc(subscribers.subscribedAt)], page: 1 };
      const plain = await pageOf(one.db, subscribers, { ...list, perPage: 1 });
      expect(await held()).toHaveLength(1); // planned each time
      const inState = preparedPages(one.db, subscribers, {
        where: eq(subscribers.state, sql.placeholder("state")),
        orderBy: [desc(subscribers.subscribedAt)],
      });
      const prepared = await inState({ state: "confirmed" }, 1, 1);
      expect(prepared).toEqual(plain);
      expect(prepared.page).toMatchObject({ total: 2, pages: 2 });
      expect(await held()).toHaveLength(1 + 1); // its page (with its count); counted alone only past the end
      // Past the end (page 9 of a list of one): counted alone, its third statement; then other values and pages
      // reuse the three.
      expect((await inState({ state: "pending" }, 9, 1)).rows.map((r) => r.subemail)).toEqual(["c@example.com"]);
      expect((await inState({ state: "confirmed" }, 2, 1)).rows.map((r) => r.subemail)).toEqual(["a@example.com"]);
      expect((await inState({ state: "confirmed" }, 5, 1)).page).toMatchObject({ page: 2, total: 2 });
      expect(await held()).toHaveLength(1 + 2);
    } finally {
      await one.close();
    }
  });
});
