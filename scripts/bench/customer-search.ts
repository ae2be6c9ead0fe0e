/**
 * `npm run bench:customer-search`: the customers list's search (issue 33, item 9; decision 063) on a shop with
 * BENCH_ORDERS orders (default 1,000,000) of BENCH_CUSTOMERS customers (default 20,000), measured (not part of
 * `npm test`): the customers service's own queries are captured and shown with EXPLAIN (ANALYZE, BUFFERS), for a name
 * only an order carries (a rare one, a common one), a piece of an email, an order number and an invoice number, and
 * the orders desk's search by invoice number. Also the time of the service call, best of three.
 */
import { rmSync } from "node:fs";
import pg from "pg";
import { connect } from "#server/db/client.ts";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { runMigrations } from "#server/db/migrate.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createCustomersService } from "#server/services/customers.ts";
import { insertBenchOrders, makeScratch } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);

const scratch = makeScratch("customer-search-");
const pgServer = await startEmbeddedPostgres(scratch.dir, silentLogger);
try {
  const admin = new pg.Client(pgServer.connection);
  await admin.connect();
  await admin.query("create database bench");
  await admin.end();
  const database = connect({ ...pgServer.connection, database: "bench" });
  await runMigrations(database);
  const client = await database.pool.connect();
  let started = Date.now();
  await insertBenchOrders(client as unknown as pg.Client, { orders: ORDERS, customers: CUSTOMERS });
  // Three orders of one customer carry a name her account does not (Ingrid Solberg, item 9), one with an invoice.
  await client.query(`update "user" set name = '' where id = 'bench-17'`);
  await client.query(
    `update orders set customer_name = 'Ingrid Solberg', invoice_number = case when number = (select min(number) from orders where user_id = 'bench-17') then 'INV-2026-00042' end
     where id in (select id from orders where user_id = 'bench-17' order by created_at desc limit 3)`,
  );
  await client.query("vacuum (analyze)");
  client.release();
  console.log(`inserted ${ORDERS} orders of ${CUSTOMERS} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // The service's queries, as it sends them.
  const captured: { text: string; values: unknown[] }[] = [];
  const query = database.pool.query.bind(database.pool) as (...args: unknown[]) => Promise<unknown>;
  (database.pool as unknown as { query: unknown }).query = (config: unknown, values?: unknown) => {
    if (config && typeof config === "object" && "text" in config)
      captured.push({
        text: String(config.text),
        values: (config as { values?: unknown[] }).values ?? (values as unknown[]) ?? [],
      });
    else if (typeof config === "string") captured.push({ text: config, values: (values as unknown[]) ?? [] });
    return query(config, values);
  };
  const customers = createCustomersService({
    db: database.db,
    pool: database.pool,
    orders: {
      grant: async () => ({}) as never,
      payOutside: async () => ({}) as never,
      sell: async () => ({}) as never,
    },
    mails: { queue: async () => false },
    now: () => new Date(),
    timeZone: "Europe/London",
  });

  const { rows: some } = await database.pool.query<{ number: string }>(
    `select number from orders where user_id = 'bench-9' limit 1`,
  );
  for (const q of ["Solberg", "Customer 1234", "customer777@", some[0]!.number, "inv-2026-00042"]) {
    let best = Infinity;
    let found = 0;
    for (let i = 0; i < 3; i++) {
      captured.length = 0;
      started = performance.now();
      const result = await customers.list({ q, sort: "joined" }, { perPage: 25 });
      best = Math.min(best, performance.now() - started);
      found = result.customers.length;
    }
    console.log(`\n## q=${JSON.stringify(q)}: ${found} on the page, best of 3: ${best.toFixed(1)} ms`);
    const page = captured.find((c) => /order by/i.test(c.text) && /limit/i.test(c.text) && !/count\(/i.test(c.text));
    if (page) {
      const plan = await database.pool.query(`explain (analyze, buffers, costs off) ${page.text}`, page.values);
      console.log(plan.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n"));
    }
  }
  // The orders desk: an invoice number finds its order by the unique index.
  const desk = await database.pool.query(
    `explain (analyze, costs off) select id from orders
     where invoice_number = 'INV-2026-00042' or lower(customer_name || ' ' || customer_email || ' ' || number) like '%inv-2026-00042%'
     order by created_at desc, id desc limit 20`,
  );
  console.log(`\n## the desk, q=INV-2026-00042\n${desk.rows.map((r) => r["QUERY PLAN"]).join("\n")}`);
  await database.close();
} finally {
  await pgServer.stop();
  rmSync(scratch.dir, { recursive: true, force: true });
}
