import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "#domain/membership.ts";
import { candidatesSql } from "#server/services/reminders.ts";
import { startTestApp, type TestApp } from "../support/app";

/**
 * The reminders' scan stays cheap with many orders: it reads the ends near now through the partial index
 * orders_membership_end_idx, never every order.
 */
const USERS = 10_000;
const ORDERS_PER_USER = 10;
let app: TestApp;
const now = new Date("2026-06-01T12:00:00Z");

beforeAll(async () => {
  app = await startTestApp({}, { now: () => now });
  await app.db.pool.query(
    `insert into "user" (id, name, email) select 'u' || g, '', 'u' || g || '@example.org' from generate_series(1, $1) g`,
    [USERS],
  );
  // Ten orders per customer, their ends spread over two years around now; most paid and delivered.
  await app.db.pool.query(
    `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
       customer_address, customer_country, payment_status, order_status, order_date, membership_valid)
     select 'AN-2026-' || g, 'u' || (1 + g % $1), 'Basic', 49, 30, 'u' || (1 + g % $1) || '@example.org', 'Customer', 'Street', 'UK',
       case when g % 7 = 0 then 'UnPaid' else 'Paid' end, case when g % 5 = 0 then 'Pending' else 'Delivered' end,
       '06/01/2026', $2::timestamptz + ((g * 7919) % 730 - 365) * interval '1 day'
     from generate_series(1, $3) g`,
    [USERS, now.toISOString(), USERS * ORDERS_PER_USER],
  );
  await app.db.pool.query("analyze orders");
}, 120_000);
afterAll(() => app?.close());

describe("the reminders' scan at 100,000 orders", () => {
  it("reads the week's ends through the partial index, not every order", async () => {
    const week = new Date(now.getTime() + 7 * DAY_MS);
    const result = await app.db.db.execute<{ "QUERY PLAN": unknown }>(
      sql`explain (analyze, format json) ${candidatesSql("membershipEndingSoon", now, week)}`,
    );
    const [explained] = result.rows[0]!["QUERY PLAN"] as [{ Plan: PlanNode; "Execution Time": number }];
    const nodes = walk(explained.Plan);
    expect(nodes.some((n) => n["Index Name"] === "orders_membership_end_idx")).toBe(true);
    expect(nodes.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "orders")).toEqual([]);
    console.log(`reminder candidates query: ${explained["Execution Time"].toFixed(1)} ms`);
    const started = performance.now();
    const counts = await app.services.reminders.scan();
    const ms = performance.now() - started;
    console.log(
      `reminders scan over ${USERS * ORDERS_PER_USER} orders: ${JSON.stringify(counts)} in ${ms.toFixed(0)} ms`,
    );
  });
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
const walk = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(walk)];
