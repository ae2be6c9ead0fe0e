import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dayKey } from "#domain/dates.ts";
import { dayFacts, type Period, type ReportOrder } from "#domain/reports.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { startTestApp, type TestApp } from "../support/app";
import { signInAsAdmin } from "../support/accounts";
import { CookieJar } from "../support/session";
import { until } from "../support/wait";

/**
 * The reports (issue 26, part 4) against the real database: known orders give exact figures in the site's time zone;
 * the tallies of migration 0022 equal the pure rule (domain/reports.ts dayFacts) after any mix of inserts, updates and
 * deletes, concurrent ones on one customer included, and equal their own rebuild; the commands move them; the REST
 * calls answer the period's figures and refuse bad periods with a message per field.
 */
const TZ = "America/New_York";
const NOW = new Date("2026-11-25T15:00:00Z");
let app: TestApp;
let adminJar: CookieJar;

const q = <T extends object = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  app.db.pool.query<T & import("pg").QueryResultRow>(text, values).then((r) => r.rows);

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "reports@example.org", ADMIN_PASSWORD: "reports-pass-1", TZ },
    { now: () => NOW },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  adminJar = await signInAsAdmin(app);
});
afterAll(() => app?.close());

let serial = 0;
/** A customer made with SQL (the reports read orders only; an account is what orders point at). */
async function customer(name: string): Promise<string> {
  const id = `report-${name}-${++serial}`;
  await q(
    `insert into "user" (id, name, email, email_verified, created_at, updated_at)
     values ($1, $2, $1 || '@example.org', true, now(), now())`,
    [id, name],
  );
  return id;
}

interface Row {
  user: string;
  price: number;
  status?: "Paid" | "UnPaid" | "Refunded" | "Cancelled";
  /** When paid (and placed, unless `placed`): an ISO moment. */
  paid: string;
  placed?: string;
  /** Its membership window: starts (default: when paid) and how many days. */
  window?: { starts?: string; days: number };
  /** A PayPal subscription's later payment (orders.subscr_id, decision 046). */
  subscrId?: string;
  /** Placed with a discount code (decision 049): the price before it (`price` is what was paid). */
  before?: number;
}

/** A discount code for the orders made with SQL (an order with a price before names its code). */
let codeId: string | undefined;
async function discountCodeId(): Promise<string> {
  codeId ??= (
    await q<{ id: string }>(
      `insert into discount_codes (code, kind, value) values ('REPORTS', 'amount', 5) returning id`,
    )
  )[0]!.id;
  return codeId;
}

/** An order inserted with SQL, as the commands would have stored it (windows included). */
async function order(row: Row): Promise<string> {
  const starts = row.window ? new Date(row.window.starts ?? row.paid) : null;
  const valid = starts && row.window ? new Date(starts.getTime() + row.window.days * 86_400_000) : null;
  const [r] = await q<{ id: string }>(
    `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
       customer_address, customer_country, payment_status, order_status, order_date, paid_at, membership_starts,
       membership_valid, created_at, updated_at, subscr_id, price_before, discount_amount, discount_code,
       discount_code_id, discount_period)
     values ('RT-' || $1, $2, 'Basic', $3, 30, 'x@example.org', 'X', '1 Road', 'UK', $4, $5, '01/01/2026', $6, $7, $8,
             $9, $9, $10, $11::numeric, coalesce($11::numeric - $3::numeric, 0), case when $11::numeric is null then null else 'REPORTS' end, $12,
             case when $11::numeric is null then null else 'first' end)
     returning id`,
    [
      ++serial,
      row.user,
      row.price,
      row.status ?? "Paid",
      row.window ? "Delivered" : "Pending",
      (row.status ?? "Paid") === "UnPaid" ? null : row.paid,
      starts,
      valid,
      row.placed ?? row.paid,
      row.subscrId ?? null,
      row.before ?? null,
      row.before === undefined ? null : await discountCodeId(),
    ],
  );
  return r!.id;
}

const period = (from: string, to: string): Period => {
  const p = app.services.reports.period({ from, to });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p.data;
};

describe("known orders give exact figures", () => {
  beforeAll(async () => {
    await q(`delete from credit_notes; delete from orders`);
    const ann = await customer("ann");
    const ben = await customer("ben");
    const cy = await customer("cy");
    const dee = await customer("dee");
    // Ann pays in January, renews early in February (laid end to end), and does not renew after 2026-03-11.
    await order({ user: ann, price: 29, paid: "2026-01-10T17:00:00Z", window: { days: 30 } });
    await order({
      user: ann,
      price: 29,
      paid: "2026-02-01T17:00:00Z",
      window: { starts: "2026-02-09T17:00:00Z", days: 30 },
    });
    // Ben is given 30 days in February, then pays 13 days after they end (renewed), and stops after 2026-04-19.
    await order({ user: ben, price: 0, paid: "2026-02-05T17:00:00Z", window: { days: 30 } });
    await order({ user: ben, price: 59, paid: "2026-03-20T17:00:00Z", window: { days: 30 } });
    // Cy pays at 22:30 in New York on 2026-02-28, which is 1 March in UTC: February's, in the site's zone.
    await order({ user: cy, price: 99, paid: "2026-03-01T03:30:00Z" });
    await order({ user: cy, price: 99, paid: "2026-11-10T17:00:00Z", window: { days: 30 } });
    // Dee: refunded, unpaid and cancelled orders count nowhere.
    await order({ user: dee, price: 59, status: "Refunded", paid: "2026-04-02T17:00:00Z" });
    await order({ user: dee, price: 59, status: "UnPaid", paid: "2026-04-03T17:00:00Z" });
    await order({ user: dee, price: 59, status: "Cancelled", paid: "2026-04-04T17:00:00Z" });
  });

  it("by month, from January to today", async () => {
    const r = await app.services.reports.of(period("2026-01-01", "2026-11-30"));
    expect(r.period).toEqual({ from: "2026-01-01", to: "2026-11-25", unit: "month" });
    const by = (key: string) => r.rows.find((x) => x.key === key)!;
    expect(r.rows).toHaveLength(11);
    expect([by("2026-01-01"), by("2026-02-01"), by("2026-03-01"), by("2026-04-01"), by("2026-11-01")]).toMatchObject([
      { revenue: 29, paidOrders: 1, givenOrders: 0, newCustomers: 1, renewals: 0, activeMembers: 1, ended: 0 },
      { revenue: 128, paidOrders: 2, givenOrders: 1, newCustomers: 1, renewals: 1, activeMembers: 2, ended: 0 },
      {
        revenue: 59,
        paidOrders: 1,
        newCustomers: 1,
        renewals: 0,
        activeMembers: 1,
        ended: 2,
        renewed: 1,
        notRenewed: 1,
        waiting: 0,
        churnRate: 0.5,
      },
      { revenue: 0, paidOrders: 0, activeMembers: 0, ended: 1, renewed: 0, notRenewed: 1, churnRate: 1 },
      { revenue: 99, paidOrders: 1, newCustomers: 0, renewals: 1, activeMembers: 1, ended: 0 },
    ]);
    expect(r.totals).toMatchObject({
      revenue: 315,
      paidOrders: 5,
      givenOrders: 1,
      newCustomers: 3,
      renewals: 2,
      ended: 3,
      renewed: 1,
      notRenewed: 2,
      activeAtStart: 0,
      activeAtEnd: 1,
    });
    expect(r.totals.churnRate).toBeCloseTo(2 / 3);
    // Revenue per paying customer: January 29/1, February (29 + 99)/2, March 59/1, November 99/1.
    expect(r.months.filter((m) => m.payers).map((m) => [m.month, m.revenue, m.payers, m.perPayer])).toEqual([
      ["2026-01-01", 29, 1, 29],
      ["2026-02-01", 128, 2, 64],
      ["2026-03-01", 59, 1, 59],
      ["2026-11-01", 99, 1, 99],
    ]);
    expect(r.totals.revenuePerPayer).toBe(63);
  });

  it("day by day, with the members active before the period and the period's edges in the site's zone", async () => {
    const r = await app.services.reports.of(period("2026-02-28", "2026-03-12"));
    expect(r.period.unit).toBe("day");
    expect(r.rows).toHaveLength(13);
    expect(r.totals.activeAtStart).toBe(2);
    const by = (key: string) => r.rows.find((x) => x.key === key)!;
    expect(by("2026-02-28")).toMatchObject({
      revenue: 99,
      paidOrders: 1,
      newCustomers: 1,
      renewals: 0,
      activeMembers: 2,
    });
    expect(by("2026-03-01")).toMatchObject({ revenue: 0, activeMembers: 2 });
    expect(by("2026-03-07")).toMatchObject({ ended: 1, renewed: 1, activeMembers: 1 });
    expect(by("2026-03-11")).toMatchObject({ ended: 1, renewed: 0, notRenewed: 1, activeMembers: 0 });
  });

  it("counts an end of the last 30 days as one that may still renew", async () => {
    const dee = await customer("eve");
    const id = await order({ user: dee, price: 29, paid: "2026-10-16T17:00:00Z", window: { days: 30 } });
    const r = await app.services.reports.of(period("2026-11-01", "2026-11-25"));
    expect(r.totals).toMatchObject({ ended: 1, renewed: 0, notRenewed: 0, waiting: 1, churnRate: null });
    await q(`delete from credit_notes where order_id = $1`, [id]);
    await q(`delete from orders where id = $1`, [id]);
  });
});

describe("the tallies", () => {
  beforeEach(() => q(`delete from credit_notes; delete from orders`));

  /** The tallies as stored (rows that are not all zeros). */
  async function stored() {
    const days = await q<Record<string, string | number>>(
      `select day::text, revenue::float8 as revenue, paid_orders, given_orders, first_orders, window_starts, window_ends,
              memberships_ended, memberships_renewed, subscription_renewals,
              subscription_revenue::float8 as subscription_revenue, discounted_orders, discounts::float8 as discounts
       from report_days
       where revenue <> 0 or paid_orders <> 0 or given_orders <> 0 or first_orders <> 0 or window_starts <> 0
          or window_ends <> 0 or memberships_ended <> 0 or memberships_renewed <> 0 or subscription_renewals <> 0
          or subscription_revenue <> 0 or discounted_orders <> 0 or discounts <> 0
       order by day`,
    );
    const months = await q(`select month::text, payers from report_months where payers <> 0 order by month`);
    return { days, months };
  }

  /** The same from every order, by the pure rule (the site's days computed here). */
  async function expected() {
    const rows = await q<{
      id: string;
      user_id: string;
      payment_status: string;
      package_price: string;
      paid_at: Date | null;
      created_at: Date;
      membership_starts: Date | null;
      membership_valid: Date | null;
      subscr_id: string | null;
      price_before: string | null;
      erased: boolean;
    }>(`select id, o.user_id, payment_status, package_price, paid_at, created_at, membership_starts, membership_valid,
               subscr_id, price_before, coalesce(t.erased, false) as erased
        from orders o left join customer_totals t on t.user_id = o.user_id`);
    const orders = rows.map((o): ReportOrder => {
      const paidAt = (o.paid_at ?? o.created_at).getTime();
      return {
        id: o.id,
        userId: o.user_id,
        paid: o.payment_status === "Paid",
        price: Number(o.package_price),
        renewal: o.subscr_id !== null,
        priceBefore: o.price_before === null ? undefined : Number(o.price_before),
        erased: o.erased,
        paidDay: dayKey(new Date(paidAt), TZ),
        paidAt,
        createdAt: o.created_at.getTime(),
        window:
          o.membership_starts && o.membership_valid
            ? {
                starts: o.membership_starts.getTime(),
                valid: o.membership_valid.getTime(),
                startDay: dayKey(o.membership_starts, TZ),
                endDay: dayKey(o.membership_valid, TZ),
              }
            : undefined,
      };
    });
    const { days, payers } = dayFacts(orders);
    return {
      days: [...days]
        .filter(([, f]) => Object.values(f).some((v) => v !== 0))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([day, f]) => ({
          day,
          revenue: f.revenue,
          paid_orders: f.paidOrders,
          given_orders: f.givenOrders,
          first_orders: f.firstOrders,
          window_starts: f.windowStarts,
          window_ends: f.windowEnds,
          memberships_ended: f.membershipsEnded,
          memberships_renewed: f.membershipsRenewed,
          subscription_renewals: f.subscriptionRenewals,
          subscription_revenue: f.subscriptionRevenue,
          discounted_orders: f.discountedOrders,
          discounts: f.discounts,
        })),
      months: [...payers].sort(([a], [b]) => (a < b ? -1 : 1)).map(([month, n]) => ({ month, payers: n })),
    };
  }

  it("equal the rule and their rebuild after any mix of inserts, updates, deletes and erasures", async () => {
    const users = [await customer("p1"), await customer("p2"), await customer("p3")];
    const step = fc.oneof(
      // Inserts weigh more, so that later steps (an erasure among them) often find windows.
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant("insert" as const),
          user: fc.integer({ min: 0, max: 2 }),
          price: fc.constantFrom(0, 29, 59.5),
          status: fc.constantFrom("Paid" as const, "Paid" as const, "UnPaid" as const, "Refunded" as const),
          day: fc.integer({ min: 0, max: 300 }),
          hour: fc.integer({ min: 0, max: 23 }),
          days: fc.option(fc.constantFrom(30, 90), { nil: undefined }),
          delay: fc.integer({ min: 0, max: 40 }),
          renewal: fc.boolean(),
          /** Placed with a discount code that took this much off (an order with a price only). */
          off: fc.option(fc.constantFrom(5, 7.25), { nil: undefined }),
        }),
      },
      // A code applied to an order afterwards: only price_before and the discount change, not what was paid.
      fc.record({ kind: fc.constant("code" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("refund" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), days: fc.integer({ min: -40, max: 40 }) }),
      fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("customer" as const), user: fc.integer({ min: 0, max: 2 }) }),
      // An erasure's mark (decision 068) set, or taken off, in the customer's figures.
      fc.record({ kind: fc.constant("erased" as const), user: fc.integer({ min: 0, max: 2 }), erased: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        await q(`delete from credit_notes; delete from orders`);
        await q(`update customer_totals set erased = false where erased`);
        for (const s of steps) {
          const ids = (await q<{ id: string }>(`select id from orders order by id`)).map((r) => r.id);
          const pick = (n: number) => ids[n % Math.max(1, ids.length)];
          if (s.kind === "insert") {
            const paid = new Date(Date.UTC(2026, 0, 1 + s.day, s.hour)).toISOString();
            const starts = new Date(Date.parse(paid) + s.delay * 86_400_000).toISOString();
            await order({
              user: users[s.user]!,
              price: s.price,
              status: s.status,
              paid,
              window: s.status === "Paid" && s.days ? { starts, days: s.days } : undefined,
              subscrId: s.renewal ? `I-REPORT${s.user}` : undefined,
              before: s.off !== undefined && s.price > 0 ? s.price + s.off : undefined,
            });
          } else if (s.kind === "erased")
            await q(
              `insert into customer_totals (user_id, erased) values ($1, $2)
               on conflict (user_id) do update set erased = excluded.erased`,
              [users[s.user], s.erased],
            );
          else if (!ids.length) continue;
          else if (s.kind === "refund")
            await q(
              `update orders set payment_status = 'Refunded', membership_starts = null, membership_valid = null
               where id = $1`,
              [pick(s.pick)],
            );
          else if (s.kind === "move")
            // Every window of the order's customer moved at once, in one statement (as a recompute stores them).
            await q(
              `update orders set membership_starts = membership_starts + make_interval(days => $2),
                                 membership_valid = membership_valid + make_interval(days => $2)
               where user_id = (select user_id from orders where id = $1) and membership_starts is not null`,
              [pick(s.pick), s.days],
            );
          else if (s.kind === "code")
            await q(
              // The picked one of the orders with a price and no code yet (the paid ones are what it changes).
              `update orders set price_before = package_price + 3, discount_amount = 3, discount_code = 'REPORTS',
                                 discount_code_id = $2, discount_period = 'first'
               where id = (select id from orders where price_before is null and package_price > 0
                           order by payment_status <> 'Paid', id
                           offset $1 % greatest(1, (select count(*) from orders where price_before is null
                                                    and package_price > 0 and payment_status = 'Paid'))
                           limit 1)`,
              [s.pick, await discountCodeId()],
            );
          else if (s.kind === "delete") {
            // A refunded order's credit notes go with it (they would otherwise keep it).
            const id = pick(s.pick);
            await q(`delete from credit_notes where order_id = $1`, [id]);
            await q(`delete from orders where id = $1`, [id]);
          } else {
            await q(`delete from credit_notes where order_id in (select id from orders where user_id = $1)`, [
              users[s.user],
            ]);
            await q(`delete from orders where user_id = $1`, [users[s.user]]);
          }
        }
        const now = await stored();
        expect(now).toEqual(await expected());
        await q(`select report_tallies_rebuild($1)`, [TZ]);
        expect(await stored()).toEqual(now);
      }),
      {
        numRuns: Number(process.env.FC_DB_RUNS ?? 25),
        // Always tried: a window of a customer erased before it, and one erased after (then un-marked).
        examples: [
          [
            [
              { kind: "erased", user: 0, erased: true },
              {
                kind: "insert",
                user: 0,
                price: 29,
                status: "Paid",
                day: 3,
                hour: 5,
                days: 30,
                delay: 0,
                renewal: false,
                off: undefined,
              },
              {
                kind: "insert",
                user: 1,
                price: 29,
                status: "Paid",
                day: 9,
                hour: 5,
                days: 90,
                delay: 2,
                renewal: false,
                off: undefined,
              },
              { kind: "erased", user: 1, erased: true },
              { kind: "move", pick: 1, days: 4 },
              { kind: "erased", user: 1, erased: false },
            ],
          ],
        ],
      },
    );
  });

  it("count a subscription's renewals apart from orders placed by hand; a refund of a renewal takes it back", async () => {
    const sue = await customer("subscriber");
    await order({ user: sue, price: 29, paid: "2026-09-01T12:00:00Z", window: { days: 30 } });
    const renewal = await order({
      user: sue,
      price: 29,
      paid: "2026-10-01T12:00:00Z",
      window: { starts: "2026-10-01T12:00:00Z", days: 30 },
      subscrId: "I-REPORTSUE",
    });
    const tom = await customer("by-hand");
    await order({ user: tom, price: 59, paid: "2026-10-02T12:00:00Z" });
    await order({ user: tom, price: 59, paid: "2026-10-20T12:00:00Z" });
    const october = () => app.services.reports.of(period("2026-10-01", "2026-10-31"));
    expect((await october()).totals).toMatchObject({
      revenue: 147,
      paidOrders: 3,
      subscriptionRenewals: 1,
      subscriptionRevenue: 29,
      manualOrders: 2,
      manualRevenue: 118,
      newCustomers: 1,
      renewals: 2,
    });
    const csv = app.services.reports.reportTable("orders-paid", await october());
    expect(csv.header).toEqual([
      "Day",
      "Orders paid",
      "Subscription renewals",
      "Orders placed by hand",
      "Given by the agency",
    ]);
    expect(csv.rows.find((r) => r[0] === "2026-10-01")).toEqual(["2026-10-01", 1, 1, 0, 0]);
    expect(await stored()).toEqual(await expected());
    // Refunded (on the order screen, as the commands store it): out of the subscription renewals and the revenue.
    await q(
      `update orders set payment_status = 'Refunded', membership_starts = null, membership_valid = null where id = $1`,
      [renewal],
    );
    expect((await october()).totals).toMatchObject({
      revenue: 118,
      paidOrders: 2,
      subscriptionRenewals: 0,
      subscriptionRevenue: 0,
      manualOrders: 2,
    });
    expect(await stored()).toEqual(await expected());
    await q(`select report_tallies_rebuild($1)`, [TZ]);
    expect(await stored()).toEqual(await expected());
  });

  it("count a paid order placed with a discount code and what it took off; its refund takes both back", async () => {
    /** The discounts of paid orders in a period, summed straight from the orders (the reports read the tallies). */
    const direct = async (from: string, to: string) =>
      (
        await q<{ n: number; off: number }>(
          `select count(*)::int as n, coalesce(sum(price_before - package_price), 0)::float8 as off
           from orders
           where payment_status = 'Paid' and price_before is not null
             and (coalesce(paid_at, created_at) at time zone $1)::date between $2::date and $3::date`,
          [TZ, from, to],
        )
      )[0]!;
    // Earlier discounted orders (one refunded, one unpaid) beside the one placed, paid and refunded through the app.
    const old = await customer("old-saver");
    await order({ user: old, price: 21.75, before: 29, paid: "2026-11-02T12:00:00Z", window: { days: 30 } });
    await order({ user: old, price: 50, before: 59, paid: "2026-11-03T12:00:00Z", status: "Refunded" });
    await order({ user: old, price: 50, before: 59, paid: "2026-11-04T12:00:00Z", status: "UnPaid" });

    const code = await app.request("/api/discount-codes", {
      method: "POST",
      json: { code: "SAVE20", kind: "percent", value: 20 },
      jar: adminJar,
    });
    expect(code.status, await code.clone().text()).toBe(201);
    const jar = new CookieJar();
    await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email: "saver@example.org", password: "quiet-harbour-71", name: "Saver", acceptTerms: true },
      jar,
    });
    const pkg = ((await (await app.request("/api/pricings")).json()) as { _id: string; packagePrice: number }[])[0]!;
    const placed = await app.request("/api/new-order", {
      method: "POST",
      json: {
        packageId: pkg._id,
        customerName: "Saver",
        customerAddress: "1 Road",
        customerCountry: "UK",
        discountCode: "save20",
      },
      jar,
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const { insertedId } = (await placed.json()) as { insertedId: string };
    const off = Math.round(pkg.packagePrice * 20) / 100;
    const paid = Math.round((pkg.packagePrice - off) * 100) / 100;
    const setPayment = async (paymentStatus: string) => {
      const res = await app.request(`/api/order/${insertedId}`, {
        method: "PUT",
        json: { paymentStatus },
        jar: adminJar,
      });
      expect(res.status, await res.clone().text()).toBe(200);
    };
    const today = dayKey(NOW, TZ);
    const november = () => app.services.reports.of(period("2026-11-01", today));

    // Placed, not paid yet: its discount is not given (the 1 is the order of Nov 2).
    expect((await november()).totals).toMatchObject({ discountedOrders: 1, discounts: 7.25 });
    await setPayment("Paid");
    const r = await november();
    expect(r.totals).toMatchObject({ discountedOrders: 2, discounts: 7.25 + off, revenue: 21.75 + paid });
    expect(r.rows.find((x) => x.key === today)).toMatchObject({ discountedOrders: 1, discounts: off, revenue: paid });
    expect(await direct("2026-11-01", today)).toEqual({ n: 2, off: 7.25 + off });
    // The CSV and the REST call: the two new columns at the end.
    const table = app.services.reports.reportTable("revenue", r);
    expect(table.header.slice(-2)).toEqual(["Orders with a discount code", "Discounts given (USD)"]);
    expect(table.rows.find((x) => x[0] === today)!.slice(-2)).toEqual([1, off.toFixed(2)]);
    const api = await app.request(`/api/reports/revenue?from=${today}&to=${today}`, { jar: adminJar });
    expect(((await api.json()) as { rows: unknown[][] }).rows).toEqual([
      [today, paid.toFixed(2), "0.00", paid.toFixed(2), 1, off.toFixed(2)],
    ]);
    expect(await stored()).toEqual(await expected());

    await setPayment("Refunded");
    expect((await november()).totals).toMatchObject({ discountedOrders: 1, discounts: 7.25, revenue: 21.75 });
    expect(await direct("2026-11-01", today)).toEqual({ n: 1, off: 7.25 });
    expect(await stored()).toEqual(await expected());
    await q(`select report_tallies_rebuild($1)`, [TZ]);
    expect(await stored()).toEqual(await expected());
  });

  it("stay right when two transactions change one customer's orders at once", async () => {
    const ann = await customer("concurrent");
    const first = await order({ user: ann, price: 29, paid: "2026-05-01T12:00:00Z", window: { days: 30 } });
    const second = await order({
      user: ann,
      price: 29,
      paid: "2026-05-20T12:00:00Z",
      window: { starts: "2026-05-31T12:00:00Z", days: 30 },
    });
    const a = await app.db.pool.connect();
    const b = await app.db.pool.connect();
    try {
      await a.query("begin");
      await b.query("begin");
      const bPid = (await b.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
      // Each alone would count the other order as it was: the first refund makes the second the first paid order.
      await a.query(
        `update orders set payment_status = 'Refunded', membership_starts = null, membership_valid = null
                     where id = $1`,
        [first],
      );
      const late = b.query(
        `update orders set payment_status = 'Refunded', membership_starts = null,
                            membership_valid = null where id = $1`,
        [second],
      );
      // The second refund is under way: waiting on the first's locks (or through already).
      let settled = false;
      void late.then(
        () => (settled = true),
        () => (settled = true),
      );
      await until("the second refund under way", async () => {
        if (settled) return true;
        const { rows } = await app.db.pool.query(
          "select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'",
          [bPid],
        );
        return rows.length > 0;
      });
      await a.query("commit");
      await late;
      await b.query("commit");
    } finally {
      a.release();
      b.release();
    }
    expect(await stored()).toEqual(await expected());
    expect((await stored()).days).toEqual([]);
  });

  it("follow the order commands: a paid, delivered order and days given by the agency", async () => {
    const jar = new CookieJar();
    await app.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email: "buyer@example.org", password: "quiet-harbour-71", name: "Buyer", acceptTerms: true },
      jar,
    });
    const pkg = ((await (await app.request("/api/pricings")).json()) as { _id: string; packagePrice: number }[])[0]!;
    const placed = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: pkg._id, customerName: "Buyer", customerAddress: "1 Road", customerCountry: "UK" },
      jar,
    });
    expect(placed.status).toBe(201);
    const { insertedId } = (await placed.json()) as { insertedId: string };
    for (const [path, body] of [
      [`/api/order/${insertedId}`, { paymentStatus: "Paid" }],
      [`/api/order-status/${insertedId}`, { orderStatus: "Delivered" }],
    ] as const) {
      const res = await app.request(path, { method: "PUT", json: body, jar: adminJar });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const viewer = (await app.services.accounts.viewer(new Headers({ cookie: jar.header() })))!;
    const admin = (await app.services.accounts.viewer(new Headers({ cookie: adminJar.header() })))!;
    await app.services.orders.grant(viewer.id, { days: 10, reason: "A fix" }, admin);
    const today = dayKey(NOW, TZ);
    const r = await app.services.reports.of(period(today, today));
    expect(r.rows).toEqual([
      expect.objectContaining({
        key: today,
        revenue: pkg.packagePrice,
        paidOrders: 1,
        givenOrders: 1,
        newCustomers: 1,
        activeMembers: 1,
      }),
    ]);
    expect(await stored()).toEqual(await expected());
  });
});

describe("GET /api/reports/<name>", () => {
  it("answers the period, the report's columns and its rows", async () => {
    const res = await app.request("/api/reports/revenue?from=2026-11-01&to=2026-11-03", { jar: adminJar });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      report: "revenue",
      title: "Revenue",
      period: { from: "2026-11-01", to: "2026-11-03", unit: "day" },
      columns: [
        "Day",
        "Revenue (USD)",
        "Subscription renewals (USD)",
        "Orders placed by hand (USD)",
        "Orders with a discount code",
        "Discounts given (USD)",
      ],
      rows: [
        ["2026-11-01", "0.00", "0.00", "0.00", 0, "0.00"],
        ["2026-11-02", "0.00", "0.00", "0.00", 0, "0.00"],
        ["2026-11-03", "0.00", "0.00", "0.00", 0, "0.00"],
      ],
    });
    const churn = await app.request("/api/reports/churn?period=last-12-months", { jar: adminJar });
    expect(await churn.json()).toMatchObject({
      period: { from: "2025-12-01", to: "2026-11-25", unit: "month", preset: "last-12-months" },
      columns: ["Month", "Ended", "Renewed", "Not renewed", "May still renew", "Not renewed (%)"],
    });
  });

  it("refuses a bad period with a message per field, and anyone but staff who see reports", async () => {
    const cases: [string, string][] = [
      ["from=01/02/2026&to=2026-12-01", "From must be a date (YYYY-MM-DD)"],
      ["from=2026-13-01&to=2026-12-01", "From must be a real date"],
      ["from=2026-02-30&to=2026-03-01", "From must be a real date"],
      ["from=2026-03-01&to=2026-02-01", "To must be on or after From"],
      ["from=2020-01-01&to=2026-01-01", "A period can be at most 5 years long"],
      ["from=2026-01-01", "To is required"],
      ["period=forever", "Period must be this-month or last-12-months, or give From and To dates"],
      ["from=2026-01-01&from=2026-01-02&to=2026-02-01", "From must be a date (YYYY-MM-DD)"],
    ];
    for (const [query, message] of cases) {
      const res = await app.request(`/api/reports/revenue?${query}`, { jar: adminJar });
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: string }).error, query).toBe(message);
    }
    expect((await app.request("/api/reports/revenue")).status).toBe(401);
    expect((await app.request("/api/reports/unknown", { jar: adminJar })).status).toBe(404);
  });
});
