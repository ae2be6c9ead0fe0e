import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderFilters } from "#domain/order-filters.ts";
import { AppError } from "#server/lib/errors.ts";
import type { Viewer } from "#server/services/accounts.ts";
import { DIRECT_OFFSET } from "#server/services/orders/tallies.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { startTestApp, type TestApp } from "../support/app";
import { signInAsAdmin } from "../support/accounts";
import { CookieJar } from "../support/session";

/**
 * The maintained tallies (migration 0010, docs/decisions/026): they equal a fresh recount after any mix of changes,
 * concurrent ones included; deep pages equal plain OFFSET pages; keyset pages return every order exactly once; each
 * of the orders desk's queries uses an index.
 */
const TZ = "America/New_York";
let app: TestApp;
let pkg: { _id: string; packagePrice: number };
let admin: Viewer;
const customers: { jar: CookieJar; viewer: Viewer }[] = [];

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "tally@example.org", ADMIN_PASSWORD: "tally-pass-1", TZ });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  pkg = ((await (await app.request("/api/pricings")).json()) as (typeof pkg)[])[0]!;
  const adminJar = await signInAsAdmin(app);
  admin = (await app.services.accounts.viewer(new Headers({ cookie: adminJar.header() })))!;
  for (const email of ["ann@example.org", "ben@example.org", "cy@example.org"]) {
    const jar = new CookieJar();
    await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email, password: "quiet-harbour-71", name: "", acceptTerms: true },
      jar,
    });
    customers.push({ jar, viewer: (await app.services.accounts.viewer(new Headers({ cookie: jar.header() })))! });
  }
});
afterAll(() => app?.close());

const q = <T extends object = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  app.db.pool.query<T & import("pg").QueryResultRow>(text, values).then((r) => r.rows);

/** `n` orders inserted with SQL (as the bench does), spread over `days` days before now, statuses mixed. */
async function insertOrders(n: number, days: number, seed = 0) {
  await q(
    `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
       customer_address, customer_country, payment_status, order_status, order_date, membership_valid, paid_at,
       created_at, updated_at)
     select gen_random_uuid()::text, u.id, 'Basic', (array[29, 59.5, 99])[1 + g % 3], 30, u.email, 'Bulk ' || g, '1 Road', 'UK',
       case when g % 10 < 5 then 'Paid' when g % 10 = 9 then 'Cancelled' else 'UnPaid' end,
       case when g % 10 < 4 then 'Delivered' else 'Pending' end, '01/01/2026',
       null, case when g % 10 < 5 then t + interval '3 hours' end, t, t
     from generate_series(1, $1::int) g
     cross join lateral (select id, email from "user" where email like '%@example.org' and email <> 'tally@example.org'
                         order by email offset ((g + $3::int) % 3) limit 1) u
     -- Whole-second steps: many orders share a created_at (the id breaks the tie).
     cross join lateral (select date_trunc('second', now()) - make_interval(secs => floor(g::float8 * $2::int * 86400 / $1::int)) as t) x`,
    [n, days, seed],
  );
}

/** The tallies as stored, and as a fresh recount computes them from the orders (site time zone days and months). */
async function tallies() {
  const stored = {
    days: await q(
      `select day::text, payment_status, order_status, n from order_day_counts where n <> 0 order by 1, 2, 3`,
    ),
    monthCounts: await q(
      `select month::text, payment_status, order_status, n from order_month_counts where n <> 0 order by 1, 2, 3`,
    ),
    months: await q(
      `select month::text, amount::text, orders from order_sales_months where orders <> 0 or amount <> 0 order by 1`,
    ),
  };
  const recount = {
    days: await q(
      `select (created_at at time zone $1)::date::text as day, payment_status, order_status, count(*)::int as n
       from orders group by 1, 2, 3 order by 1, 2, 3`,
      [TZ],
    ),
    monthCounts: await q(
      `select date_trunc('month', created_at at time zone $1)::date::text as month, payment_status, order_status,
              count(*)::int as n
       from orders group by 1, 2, 3 order by 1, 2, 3`,
      [TZ],
    ),
    months: await q(
      `select date_trunc('month', coalesce(paid_at, created_at) at time zone $1)::date::text as month,
              sum(package_price)::numeric(14,2)::text as amount, count(*)::int as orders
       from orders where payment_status = 'Paid' group by 1 order by 1`,
      [TZ],
    ),
  };
  return { stored, recount };
}

describe("with a few thousand orders", () => {
  beforeAll(async () => {
    await insertOrders(4_000, 120);
    await q("analyze orders");
  });

  it("the tallies equal a fresh recount after a bulk insert with SQL", async () => {
    const { stored, recount } = await tallies();
    expect(stored).toEqual(recount);
    expect(stored.days.length).toBeGreaterThan(100);
  });

  it("total sales and the 12-month chart read the tallies, months in the site's time zone", async () => {
    const [{ total }] = (await q<{ total: string }>(
      `select coalesce(sum(package_price), 0)::numeric(14,2)::text as total from orders where payment_status = 'Paid'`,
    )) as [{ total: string }];
    expect((await app.services.orders.sales()).total).toBe(Number(total));
    // Paid on the 1st of this month at 02:00 UTC: still the previous month in New York.
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 2));
    const before = (await app.services.orders.sales()).months;
    expect(before).toHaveLength(12);
    await q(
      `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
         customer_address, customer_country, payment_status, order_status, order_date, paid_at, created_at, updated_at)
       values (gen_random_uuid()::text, $1, 'Basic', 1000, 30, 'ann@example.org', 'Edge', '1 Road', 'UK', 'Paid', 'Pending', '01/01/2026', $2, $2, $2)`,
      [customers[0]!.viewer.id, first],
    );
    const after = (await app.services.orders.sales()).months;
    const changed = after.filter((m, i) => m.total !== before[i]!.total);
    expect(changed).toHaveLength(1);
    expect(changed[0]!.month).toBe(before[10]!.month); // the month before this one
    expect(changed[0]!.total - before[10]!.total).toBeCloseTo(1000, 2);
    expect(after.at(-1)!.month).toBe(
      new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit" }).format(now),
    );
  });

  const offsetPage = async (filters: OrderFilters, where: string, page: number) => {
    const asc_ = filters.view === "to-deliver";
    const rows = await q<{ id: string }>(
      `select id from orders ${where ? `where ${where}` : ""}
       order by created_at ${asc_ ? "asc" : "desc"}, id ${asc_ ? "asc" : "desc"} limit 10 offset ${(page - 1) * 10}`,
    );
    return rows.map((r) => r.id);
  };

  it("a deep page (from its day's bucket) is the very page OFFSET gives, for every filter", async () => {
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: TZ }).format(new Date());
    const cases: [OrderFilters, string][] = [
      [{}, ""],
      [{ payment: "Paid" }, "payment_status = 'Paid'"],
      [{ status: "Delivered" }, "order_status = 'Delivered'"],
      [{ payment: "Cancelled", status: "Pending" }, "payment_status = 'Cancelled' and order_status = 'Pending'"],
      [{ payment: "Refunded", status: "Delivered" }, "payment_status = 'Refunded' and order_status = 'Delivered'"],
      [
        { view: "to-deliver", payment: "Paid", status: "Pending" },
        "payment_status = 'Paid' and order_status = 'Pending'",
      ],
      [
        { from: "2000-01-01", to: today, payment: "UnPaid" },
        `payment_status = 'UnPaid' and created_at >= '2000-01-01'::timestamp at time zone '${TZ}'`,
      ],
    ];
    // A text search (not tallied: one scan of the trigram index counts and cuts it).
    cases.push([{ q: "bulk 1" }, `lower(customer_name || ' ' || customer_email) like '%bulk 1%'`]);
    cases.push([
      { q: "ann@", view: "to-deliver", payment: "Paid", status: "Pending" },
      `customer_email like 'ann@%' and payment_status = 'Paid' and order_status = 'Pending'`,
    ]);
    for (const [filters, where] of cases) {
      const first = await app.services.orders.list(admin, { page: 1, perPage: 10, filters });
      const [{ n }] = (await q<{ n: number }>(
        `select count(*)::int as n from orders ${where ? `where ${where}` : ""}`,
      )) as [{ n: number }];
      expect(first.page.total, JSON.stringify(filters)).toBe(n);
      for (const page of [2, DIRECT_OFFSET / 10 + 2, 137, first.page.pages - 1, first.page.pages]) {
        if (page < 1 || page > first.page.pages) continue;
        const listed = await app.services.orders.list(admin, { page, perPage: 10, filters });
        expect(
          listed.orders.map((o) => o._id),
          `${JSON.stringify(filters)} page ${page}`,
        ).toEqual(await offsetPage(filters, where, page));
      }
      // Beyond the end (just past it, and deep past it): the last page, whether it lies near the start or deep.
      for (const page of [first.page.pages + 1, DIRECT_OFFSET, 1_000_000]) {
        if (page <= first.page.pages) continue;
        const listed = await app.services.orders.list(admin, { page, perPage: 10, filters });
        expect(listed.page, `${JSON.stringify(filters)} page ${page}`).toEqual(
          first.page.total
            ? { ...first.page, page: first.page.pages, offset: (first.page.pages - 1) * 10 }
            : first.page,
        );
        expect(listed.orders.map((o) => o._id)).toEqual(
          first.page.total ? await offsetPage(filters, where, first.page.pages) : [],
        );
      }
    }
  });

  it("a page of all orders costs one statement at any depth (its day found from the tallies in it); a filtered deep page two", async () => {
    const pool = app.db.pool as unknown as { query: (...args: unknown[]) => unknown };
    const original = pool.query;
    let statements = 0;
    pool.query = function (this: unknown, ...args: unknown[]) {
      statements++;
      return original.apply(this, args);
    } as typeof original;
    try {
      for (const [filters, page, expected] of [
        [{}, 1, 1],
        [{ payment: "Paid" }, 2, 1],
        [{}, DIRECT_OFFSET / 10 + 2, 1],
        [{}, 400, 1],
        [{ status: "Delivered" }, DIRECT_OFFSET / 10 + 2, 2],
        [{ from: "2000-01-01", to: "2100-01-01" }, DIRECT_OFFSET / 10 + 2, 2],
        // Beyond the end: nothing found there, so counted alone, then the last page read.
        [{}, 1_000_000, 3],
      ] as [OrderFilters, number, number][]) {
        statements = 0;
        const listed = await app.services.orders.list(admin, { page, perPage: 10, filters });
        if (page < 1_000_000) expect(listed.page.page, JSON.stringify(filters)).toBe(page); // within the list
        expect(statements, `${JSON.stringify(filters)} page ${page}`).toBe(expected);
      }
    } finally {
      pool.query = original;
    }
  });

  it("GET /api/orders?page= deep in the list costs the statements of a near page, and is the page OFFSET gives", async () => {
    const jar = new CookieJar();
    await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "tally@example.org", password: "tally-pass-1" },
      jar,
    });
    const pool = app.db.pool as unknown as { query: (...args: unknown[]) => unknown };
    const original = pool.query;
    // The statements that read orders or their tallies (the session's lookup is the same for every request).
    const seen: string[] = [];
    pool.query = function (this: unknown, ...args: unknown[]) {
      const config = args[0] as string | { text: string };
      const text = typeof config === "string" ? config : config.text;
      if (/"orders"|"order_(day|month)_counts"|"order_tally_zone"/.test(text)) seen.push(text);
      return original.apply(this, args);
    } as typeof original;
    const get = async (page: number) => {
      seen.length = 0;
      const res = await app.request(`/api/orders?limit=10&page=${page}`, { jar });
      expect(res.status).toBe(200);
      return { res, ids: ((await res.json()) as { _id: string }[]).map((o) => o._id), statements: seen.length };
    };
    try {
      await get(2); // the first request of a list checks the tallies' time zone once
      const near = await get(2);
      expect(near.statements).toBe(1);
      const pages = Number(near.res.headers.get("x-pages"));
      for (const page of [DIRECT_OFFSET / 10 + 2, 250, pages - 1, pages]) {
        const deep = await get(page);
        expect(deep.statements, `page ${page}`).toBe(near.statements);
        expect(deep.res.headers.get("x-page")).toBe(String(page));
        expect(deep.res.headers.get("x-total-count")).toBe(near.res.headers.get("x-total-count"));
        expect(deep.res.headers.has("x-next-cursor"), `page ${page}`).toBe(page < pages);
        expect(deep.ids, `page ${page}`).toEqual(await offsetPage({}, "", page));
      }
    } finally {
      pool.query = original;
    }
  });

  it("each query of each desk filter uses an index (no sequential scan of orders)", async () => {
    const seen: { text: string; values?: unknown[] }[] = [];
    const pool = app.db.pool as unknown as { query: (...args: unknown[]) => unknown };
    const original = pool.query;
    pool.query = function (this: unknown, ...args: unknown[]) {
      const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      seen.push(
        typeof config === "string" ? { text: config, values } : { text: config.text, values: config.values ?? values },
      );
      return original.apply(this, args);
    } as typeof original;
    const views: [OrderFilters, number][] = [
      [{}, 1],
      [{}, 300],
      [{ payment: "Paid" }, 1],
      [{ payment: "Refunded" }, 1],
      [{ payment: "Cancelled", status: "Pending" }, 30],
      [{ status: "Delivered" }, 150],
      [{ view: "to-deliver", payment: "Paid", status: "Pending" }, 1],
      [{ from: "2026-01-01", to: "2026-12-31" }, 1],
      [{ q: "bulk 123" }, 1],
      [{ q: "ann@", payment: "Paid" }, 1],
    ];
    try {
      for (const [filters, page] of views) {
        seen.length = 0;
        const listed = await app.services.orders.list(admin, { page, perPage: 10, filters });
        const onOrders = seen.filter((s) => /from "orders"/.test(s.text));
        // Every list reads its page with its count (an empty one finds nothing by the same index, then is counted).
        expect(onOrders.length, JSON.stringify(filters)).toBeGreaterThan(0);
        if (filters.payment === "Refunded") expect(listed.page.total).toBe(0);
        for (const query of onOrders) {
          // On a few thousand rows a sequential scan is the cheaper plan: forbid it to see which index serves the
          // query (no index would leave the scan in; on a million rows the planner picks these by itself).
          const client = await app.db.pool.connect();
          const [row] = await client
            .query("set enable_seqscan = off")
            .then(() => client.query(`explain (format json) ${query.text}`, query.values))
            .then((r) => r.rows as { "QUERY PLAN": unknown }[])
            .finally(() => client.query("reset enable_seqscan").finally(() => client.release()));
          const plan = JSON.stringify(row!["QUERY PLAN"]);
          expect(plan, `${JSON.stringify(filters)}: ${query.text}`).not.toMatch(
            /"Node Type":"Seq Scan"[^}]*"Relation Name":"orders"/,
          );
          expect(plan).toMatch(/"Index Name":"orders_/);
        }
      }
    } finally {
      pool.query = original;
    }
  });

  it("keyset pages (?after=) return every order exactly once, also while orders are placed between pages", async () => {
    const jar = new CookieJar();
    await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "tally@example.org", password: "tally-pass-1" },
      jar,
    });
    for (const [query, where] of [
      ["payment=Paid", "payment_status = 'Paid'"],
      ["view=to-deliver", "payment_status = 'Paid' and order_status = 'Pending'"],
    ] as const) {
      const before = (await q<{ id: string }>(`select id from orders where ${where}`)).map((r) => r.id);
      const seen: string[] = [];
      let url = `/api/orders?${query}&limit=97`;
      for (let i = 0; ; i++) {
        const res = await app.request(url, { jar });
        expect(res.status).toBe(200);
        seen.push(...((await res.json()) as { _id: string }[]).map((o) => o._id));
        // New paid orders arrive while the walk goes on.
        if (i % 3 === 0)
          await app.services.orders.setPaymentStatus((await newOrder())._id, { paymentStatus: "Paid" }, admin);
        const next = res.headers.get("x-next-cursor");
        if (!next) break;
        url = `/api/orders?${query}&limit=97&after=${next}`;
      }
      expect(new Set(seen).size, query).toBe(seen.length); // never twice
      const missing = before.filter((id) => !seen.includes(id));
      expect(missing, query).toEqual([]); // every order there when the walk began
    }
    const bad = await app.request("/api/orders?after=not-an-order", { jar });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "after" });
    // A customer's cursor walks their own orders only; someone else's order is no cursor for them.
    const [other] = await q<{ id: string }>(`select id from orders where user_id <> $1 limit 1`, [
      customers[0]!.viewer.id,
    ]);
    expect((await app.request(`/api/orders?after=${other!.id}`, { jar: customers[0]!.jar })).status).toBe(400);
    const own = await app.request("/api/orders?limit=5", { jar: customers[0]!.jar });
    const next = own.headers.get("x-next-cursor")!;
    const page2 = await app.request(`/api/orders?limit=5&after=${next}`, { jar: customers[0]!.jar });
    expect(page2.status).toBe(200);
    const ids = ((await page2.json()) as { customerEmail: string }[]).map((o) => o.customerEmail);
    expect(new Set(ids)).toEqual(new Set(["ann@example.org"]));
    expect((await app.request(`/api/orders?after=${next}`)).status).toBe(401);
  });
});

async function newOrder(who = customers[Math.floor(Math.random() * customers.length)]!) {
  const { order } = await app.services.orders.place(who.viewer, pkg._id, {
    customerName: "Mix",
    customerAddress: "1 Road",
    customerCountry: "UK",
  });
  return order;
}

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the tallies after a random mix of order changes", () => {
  it("equal a fresh recount, sequential and concurrent, whoever writes (services, payment listener, SQL)", async () => {
    const rnd = random(20261122);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const ids = async () =>
      (await q<{ id: string }>(`select id from orders order by random() limit 50`)).map((r) => r.id);
    const ops: (() => Promise<unknown>)[] = [
      () => newOrder(pick(customers)),
      async () => {
        const c = pick(customers);
        const [o] = await q<{ id: string }>(
          `select id from orders where user_id = $1 and payment_status = 'UnPaid' limit 1`,
          [c.viewer.id],
        );
        if (o) await app.services.orders.cancel(c.viewer, o.id);
      },
      async () =>
        app.services.orders.setPaymentStatus(
          pick(await ids()),
          { paymentStatus: pick(["Paid", "UnPaid", "Refunded", "Cancelled"] as const) },
          admin,
        ),
      async () =>
        app.services.orders.setOrderStatus(
          pick(await ids()),
          { orderStatus: pick(["Pending", "Delivered"] as const) },
          admin,
        ),
      async () => {
        const id = pick(await ids());
        await app.services.orders.pay(id, PAYPAL_ACTOR, `T-${id}`);
      },
      async () => app.services.orders.refund(pick(await ids()), PAYPAL_ACTOR),
      // Writers that bypass the services: the triggers keep the tallies right all the same.
      () => insertOrders(1 + Math.floor(rnd() * 40), 400, Math.floor(rnd() * 3)),
      async () =>
        q(`update orders set created_at = created_at - interval '40 days' where id = any($1)`, [
          (await ids()).slice(0, 5),
        ]),
      async () =>
        q(
          `update orders set paid_at = paid_at + interval '20 days', package_price = package_price + 1 where id = any($1)`,
          [(await ids()).slice(0, 5)],
        ),
      async () => q(`delete from orders where id = any($1)`, [(await ids()).slice(0, 3)]),
    ];
    const run = async (op: () => Promise<unknown>) => {
      try {
        await op();
      } catch (error) {
        // A change the rules refuse (cancelling a paid order, a txn id used twice) changes nothing; the raw SQL writers
        // here bypass the customer lock the commands take, so one of them and a command may deadlock on the same
        // orders, and PostgreSQL rolls one back whole (the commands alone never do: decision 032).
        const text = `${String(error)} ${String((error as { cause?: unknown }).cause ?? "")}`;
        if (!(error instanceof AppError) && !/duplicate key|deadlock detected/.test(text)) throw error;
      }
    };
    for (let i = 0; i < 60; i++) await run(pick(ops));
    expect((await tallies()).stored).toEqual((await tallies()).recount);
    // Several transactions at once, many on the same day's and month's rows.
    for (let round = 0; round < 8; round++) {
      await Promise.all(Array.from({ length: 8 }, () => run(pick(ops))));
    }
    const { stored, recount } = await tallies();
    expect(stored).toEqual(recount);
  });

  it("concurrent payments of orders placed the same day lose no update of the shared rows", async () => {
    const placed = await Promise.all(Array.from({ length: 20 }, () => newOrder()));
    const total = (await app.services.orders.sales()).total;
    await Promise.all(placed.map((o) => app.services.orders.setPaymentStatus(o._id, { paymentStatus: "Paid" }, admin)));
    expect((await app.services.orders.sales()).total).toBeCloseTo(total + 20 * pkg.packagePrice, 2);
    const { stored, recount } = await tallies();
    expect(stored).toEqual(recount);
  });

  it("truncating orders empties the tallies", async () => {
    await q(`truncate orders cascade`);
    const { stored } = await tallies();
    expect(stored).toEqual({ days: [], monthCounts: [], months: [] });
    expect((await app.services.orders.sales()).total).toBe(0);
  });
});

describe("deep pages where many orders share their creation instant", () => {
  it("are the very pages OFFSET gives, whichever row of a shared instant a page starts at", async () => {
    // 3,000 orders, seven to a minute (the id breaks the tie), over about two days: every page deep in a list starts
    // somewhere inside a group of orders created at the same instant, or at its first.
    await q(
      `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
         customer_address, customer_country, payment_status, order_status, order_date, created_at, updated_at)
       select gen_random_uuid()::text, u.id, 'Basic', 29, 30, u.email, 'Tie ' || g, '1 Road', 'UK',
         case when g % 4 = 0 then 'UnPaid' else 'Paid' end, case when g % 5 = 0 then 'Delivered' else 'Pending' end,
         '01/01/2026', t, t
       from generate_series(1, 3000) g
       cross join lateral (select id, email from "user" where email like '%@example.org' and email <> 'tally@example.org'
                           order by email offset (g % 3) limit 1) u
       cross join lateral (select date_trunc('minute', now()) - make_interval(mins => g / 7) as t) x`,
    );
    await q("analyze orders");
    const cases: [OrderFilters, string][] = [
      [{}, ""],
      [{ payment: "Paid" }, "payment_status = 'Paid'"],
      [
        { view: "to-deliver", payment: "Paid", status: "Pending" },
        "payment_status = 'Paid' and order_status = 'Pending'",
      ],
    ];
    for (const [filters, where] of cases) {
      const asc = filters.view === "to-deliver";
      for (const perPage of [10, 7, 3]) {
        const first = await app.services.orders.list(admin, { page: 1, perPage, filters });
        let deep = 0;
        for (let page = Math.floor(DIRECT_OFFSET / perPage) + 2; page <= first.page.pages; page += 13, deep++) {
          const listed = await app.services.orders.list(admin, { page, perPage, filters });
          const expected = await q<{ id: string }>(
            `select id from orders ${where ? `where ${where}` : ""}
             order by created_at ${asc ? "asc" : "desc"}, id ${asc ? "asc" : "desc"}
             limit ${perPage} offset ${(page - 1) * perPage}`,
          );
          expect(
            listed.orders.map((o) => o._id),
            `${JSON.stringify(filters)} page ${page} of ${perPage}`,
          ).toEqual(expected.map((r) => r.id));
        }
        expect(deep, `${JSON.stringify(filters)}: deep pages checked`).toBeGreaterThan(5);
      }
    }
  });
});
