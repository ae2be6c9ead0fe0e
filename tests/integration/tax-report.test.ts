import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namedPeriod, type TaxReport } from "#domain/tax-report.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { createOrderTallies } from "#server/services/orders/tallies.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * The tax report (issue 35, part 6) against the real database: the tallies of migration 0038 count each invoice on its
 * day of the site's zone and each credit note on its own, by currency, country, treatment and rate; they equal a fresh
 * count after any mix of writes to orders and credit notes, and follow a change of the site's zone; the REST call, the
 * CSV and the page answer staff who see reports and refuse everyone else. Credit notes are inserted with SQL (their
 * writer is another part of the issue).
 */
const TZ = "America/New_York";
const NOW = new Date("2026-11-25T15:00:00Z");
let app: TestApp;
let adminJar: CookieJar;

const q = <T extends object = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  app.db.pool.query<T & import("pg").QueryResultRow>(text, values).then((r) => r.rows);

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "tax@example.org", ADMIN_PASSWORD: "tax-report-pass-1", TZ },
    { now: () => NOW, pages: true },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  adminJar = await signInAsAdmin(app);
}, 120_000);
afterAll(() => app?.close());

let serial = 0;
/** A customer made with SQL (the tallies read orders only; an account is what orders point at). */
async function customer(): Promise<string> {
  const id = `tax-${++serial}`;
  await q(
    `insert into "user" (id, name, email, email_verified, created_at, updated_at)
     values ($1, 'T', $1 || '@example.org', true, now(), now())`,
    [id],
  );
  return id;
}

interface Sale {
  user: string;
  /** The gross price (what PayPal charged) and its VAT in cents. */
  gross: number;
  tax?: number;
  rate?: number;
  currency?: "GBP" | "EUR" | "USD";
  treatment?: "not-registered" | "domestic" | "oss" | "reverse-charge" | "outside-scope";
  taxCountry?: string | null;
  buyer?: string | null;
  /** When invoiced (an ISO moment); absent: an order never paid. */
  invoiced?: string;
  status?: "Paid" | "UnPaid" | "Refunded";
}

/** An order inserted with SQL, as the commands would have stored it. */
async function sale(s: Sale): Promise<string> {
  const n = ++serial;
  const [r] = await q<{ id: string }>(
    `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
       customer_address, customer_country, payment_status, order_date, paid_at, invoice_number, invoiced_at, currency,
       tax_cents, tax_rate, tax_country, tax_treatment, customer_country_code)
     values ('TX-' || $1, $2, 'Basic', $3::numeric / 100, 30, 'x@example.org', 'X', '1 Road', 'Somewhere', $4,
             '01/01/2026', $5, case when $5::timestamptz is null then null else 'INV-T-' || $1 end, $5, $6, $7, $8, $9,
             $10, $11)
     returning id`,
    [
      n,
      s.user,
      s.gross,
      s.status ?? (s.invoiced ? "Paid" : "UnPaid"),
      s.invoiced ?? null,
      s.currency ?? "GBP",
      s.tax ?? 0,
      s.rate ?? 0,
      s.taxCountry ?? null,
      s.treatment ?? "domestic",
      s.buyer === undefined ? "GB" : s.buyer,
    ],
  );
  return r!.id;
}

/** A credit note inserted with SQL, as its writer would. */
async function creditNote(orderId: string, gross: number, tax: number, issued: string, rate = 2000) {
  const [r] = await q<{ id: string }>(
    `insert into credit_notes (number, order_id, currency, gross_cents, tax_cents, tax_rate, issued_at)
     select 'CN-T-' || $1, id, currency, $2, $3, $4, $5 from orders where id = $6 returning id`,
    [++serial, gross, tax, rate, issued, orderId],
  );
  return r!.id;
}

type TallyRow = Record<string, string | number>;

/** The tallies as stored (rows of zeros left out: a fact taken back leaves its row). */
const stored = () =>
  q<TallyRow>(
    `select day::text, currency, country, treatment, rate, sales, net_cents::int, tax_cents::int, refunds,
            refunded_net_cents::int, refunded_tax_cents::int
     from tax_days
     where (sales, net_cents, tax_cents, refunds, refunded_net_cents, refunded_tax_cents) <> (0, 0, 0, 0, 0, 0)
     order by 1, 2, 3, 4, 5`,
  );

/** The same, counted afresh from orders and credit notes by the rule written out once more, in the given zone. */
const expected = (zone = TZ) =>
  q<TallyRow>(
    `with facts as (
       select (invoiced_at at time zone $1)::date as day, currency, coalesce(tax_country, customer_country_code, '') as
              country, tax_treatment as treatment, tax_rate as rate, 1 as sale,
              round(package_price * 100) - tax_cents as net, tax_cents as tax, 0 as refund, 0 as rnet, 0 as rtax
       from orders where invoiced_at is not null
       union all
       select (c.issued_at at time zone $1)::date, c.currency, coalesce(o.tax_country, o.customer_country_code, ''),
              o.tax_treatment, c.tax_rate, 0, 0, 0, 1, c.gross_cents - c.tax_cents, c.tax_cents
       from credit_notes c join orders o on o.id = c.order_id)
     select day::text, currency, country, treatment, rate, sum(sale)::int as sales, sum(net)::int as net_cents,
            sum(tax)::int as tax_cents, sum(refund)::int as refunds, sum(rnet)::int as refunded_net_cents,
            sum(rtax)::int as refunded_tax_cents
     from facts group by 1, 2, 3, 4, 5
     having (sum(sale), sum(net), sum(tax), sum(refund), sum(rnet), sum(rtax)) <> (0, 0, 0, 0, 0, 0)
     order by 1, 2, 3, 4, 5`,
    [zone],
  );

const lineOf = (report: TaxReport, currency: string, country: string, treatment: string) =>
  report.currencies
    .find((c) => c.currency === currency)
    ?.lines.find((l) => l.country === country && l.treatment === treatment);

describe("known sales and credit notes give exact figures", () => {
  beforeAll(async () => {
    await q(`delete from credit_notes`);
    await q(`delete from orders`);
    const [uk, fr, de, biz, us, late, lost] = (await Promise.all(Array.from({ length: 7 }, customer))) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // A UK consumer: £60 with £10 VAT, refunded in part in November (£12 with £2 VAT).
    const ukSale = await sale({
      user: uk,
      gross: 6000,
      tax: 1000,
      rate: 2000,
      taxCountry: "GB",
      invoiced: "2026-10-05T12:00:00Z",
      status: "Refunded",
    });
    await creditNote(ukSale, 1200, 200, "2026-11-02T12:00:00Z");
    // A French consumer (OSS, 20%) and a German one (OSS, 19%).
    await sale({
      user: fr,
      gross: 6000,
      tax: 1000,
      rate: 2000,
      treatment: "oss",
      taxCountry: "FR",
      buyer: "FR",
      invoiced: "2026-10-06T12:00:00Z",
    });
    await sale({
      user: de,
      gross: 5950,
      tax: 950,
      rate: 1900,
      treatment: "oss",
      taxCountry: "DE",
      buyer: "DE",
      invoiced: "2026-10-07T12:00:00Z",
    });
    // A German business (reverse charge, no VAT, no tax country: the buyer's country) and an American (outside).
    await sale({ user: biz, gross: 5000, treatment: "reverse-charge", buyer: "DE", invoiced: "2026-10-08T12:00:00Z" });
    await sale({ user: us, gross: 5000, treatment: "outside-scope", buyer: "US", invoiced: "2026-10-09T12:00:00Z" });
    // Invoiced at 22:30 in New York on 31 October: 1 November in UTC, October's in the site's zone. Its buyer typed a
    // country the list does not know (no code): taxed at home, so its country is the tax country.
    await sale({
      user: late,
      gross: 1200,
      tax: 200,
      rate: 2000,
      taxCountry: "GB",
      buyer: null,
      invoiced: "2026-11-01T02:30:00Z",
    });
    // Invoiced, then set back to UnPaid by the studio: the invoice stands (decision 038), so does the sale.
    const back = await sale({
      user: lost,
      gross: 2400,
      tax: 400,
      rate: 2000,
      taxCountry: "GB",
      invoiced: "2026-10-10T12:00:00Z",
    });
    await q(`update orders set payment_status = 'UnPaid', paid_at = null where id = $1`, [back]);
    // Never paid: no invoice, no sale.
    await sale({ user: lost, gross: 9900, tax: 1650, rate: 2000, taxCountry: "GB" });
  });

  it("October: every sale on its invoice's day in the site's zone, per country, treatment and rate", async () => {
    const report = await app.services.taxReport.of(namedPeriod("2026-10"));
    expect(report.currencies.map((c) => c.currency)).toEqual(["GBP"]);
    const gbp = report.currencies[0]!;
    expect(gbp.lines.map((l) => [l.countryName, l.treatment, l.rate, l.sales, l.netCents, l.taxCents])).toEqual([
      ["France", "oss", 2000, 1, 5000, 1000],
      ["Germany", "oss", 1900, 1, 5000, 950],
      ["Germany", "reverse-charge", 0, 1, 5000, 0],
      ["United Kingdom", "domestic", 2000, 3, 5000 + 1000 + 2000, 1000 + 200 + 400],
      ["United States", "outside-scope", 0, 1, 5000, 0],
    ]);
    expect(gbp.total).toMatchObject({ sales: 7, netCents: 28000, taxCents: 3550, refunds: 0 });
    expect(gbp.oss.map((l) => [l.country, l.rate, l.netCents, l.taxCents])).toEqual([
      ["FR", 2000, 5000, 1000],
      ["DE", 1900, 5000, 950],
    ]);
    expect(gbp.treatments.map((t) => t.treatment)).toEqual(["domestic", "oss", "reverse-charge", "outside-scope"]);
  });

  it("November: the credit note on its own day, under its order's country and treatment", async () => {
    const report = await app.services.taxReport.of(namedPeriod("2026-11"));
    expect(lineOf(report, "GBP", "GB", "domestic")).toMatchObject({
      sales: 0,
      netCents: 0,
      refunds: 1,
      refundedNetCents: 1000,
      refundedTaxCents: 200,
    });
    expect(report.currencies[0]!.lines).toHaveLength(1);
    // The quarter holds both months.
    const q4 = await app.services.taxReport.of(namedPeriod("2026-Q4"));
    expect(q4.currencies[0]!.total).toMatchObject({ sales: 7, taxCents: 3550, refunds: 1, refundedTaxCents: 200 });
    expect(await stored()).toEqual(await expected());
  });

  it("each currency apart, never summed together", async () => {
    const eur = await customer();
    await sale({
      user: eur,
      gross: 1210,
      tax: 210,
      rate: 2100,
      currency: "EUR",
      treatment: "oss",
      taxCountry: "ES",
      buyer: "ES",
      invoiced: "2026-10-20T12:00:00Z",
    });
    const report = await app.services.taxReport.of(namedPeriod("2026-10"));
    expect(report.currencies.map((c) => [c.currency, c.total.netCents])).toEqual([
      ["GBP", 28000],
      ["EUR", 1000],
    ]);
  });
});

describe("the tallies", () => {
  it("equal a fresh count after any mix of writes to orders and credit notes, and their own rebuild", async () => {
    const users = await Promise.all(Array.from({ length: 4 }, customer));
    const countries = [
      { treatment: "domestic", taxCountry: "GB", buyer: "GB", rate: 2000 },
      { treatment: "oss", taxCountry: "FR", buyer: "FR", rate: 2000 },
      { treatment: "oss", taxCountry: "GR", buyer: "GR", rate: 2400 },
      { treatment: "reverse-charge", taxCountry: null, buyer: "IT", rate: 0 },
      { treatment: "outside-scope", taxCountry: null, buyer: null, rate: 0 },
      // The same treatment, another buyer's country: only customer_country_code moves.
      { treatment: "outside-scope", taxCountry: null, buyer: "US", rate: 0 },
    ] as const;
    const moment = fc
      .integer({ min: 0, max: 90 * 24 })
      .map((h) => new Date(Date.UTC(2026, 8, 1) + h * 3_600_000).toISOString());
    const action = fc.oneof(
      fc.record({
        kind: fc.constant("insert" as const),
        user: fc.nat(3),
        how: fc.nat(countries.length - 1),
        gross: fc.integer({ min: 100, max: 20_000 }),
        invoiced: fc.option(moment, { nil: undefined }),
      }),
      fc.record({ kind: fc.constant("invoice" as const), pick: fc.nat(), at: moment }),
      fc.record({ kind: fc.constant("move" as const), pick: fc.nat(), how: fc.nat(countries.length - 1) }),
      fc.record({ kind: fc.constant("unpay" as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant("refund" as const),
        pick: fc.nat(),
        share: fc.integer({ min: 1, max: 100 }),
        at: moment,
      }),
      fc.record({ kind: fc.constant("redate" as const), pick: fc.nat(), at: moment }),
      fc.record({ kind: fc.constant("unrefund" as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 12 }), async (actions) => {
        for (const a of actions) {
          const ids = (await q<{ id: string }>(`select id from orders order by id`)).map((r) => r.id);
          const notes = (await q<{ id: string }>(`select id from credit_notes order by id`)).map((r) => r.id);
          const one = (pick: number, from: string[]) => (from.length ? from[pick % from.length]! : undefined);
          if (a.kind === "insert") {
            const c = countries[a.how]!;
            const tax = c.rate ? Math.round((a.gross * c.rate) / (10_000 + c.rate)) : 0;
            await sale({ user: users[a.user]!, gross: a.gross, tax, ...c, invoiced: a.invoiced });
          } else if (a.kind === "invoice") {
            const id = one(a.pick, ids);
            if (id) await q(`update orders set invoiced_at = $2, payment_status = 'Paid' where id = $1`, [id, a.at]);
          } else if (a.kind === "move") {
            // Not something the commands do to an invoiced order, but any writer's statement must keep the tallies.
            const c = countries[a.how]!;
            const id = one(a.pick, ids);
            if (id)
              await q(
                `update orders set tax_treatment = $2, tax_country = $3, customer_country_code = $4, tax_rate = $5,
                   tax_cents = case when $5 = 0 then 0 else tax_cents end where id = $1`,
                [id, c.treatment, c.taxCountry, c.buyer, c.rate],
              );
          } else if (a.kind === "unpay") {
            const id = one(a.pick, ids);
            if (id) await q(`update orders set payment_status = 'UnPaid' where id = $1`, [id]);
          } else if (a.kind === "delete") {
            const id = one(a.pick, ids);
            if (id)
              await q(
                `delete from orders where id = $1 and not exists (select 1 from credit_notes where order_id = $1)`,
                [id],
              );
          } else if (a.kind === "refund") {
            const id = one(a.pick, ids);
            if (id)
              await q(
                `insert into credit_notes (number, order_id, currency, gross_cents, tax_cents, tax_rate, issued_at)
                 select 'CN-R-' || $4, id, currency, greatest(1, round(package_price * $2)),
                        least(greatest(1, round(package_price * $2)), round(tax_cents * $2 / 100)), tax_rate, $3
                 from orders where id = $1`,
                [id, a.share, a.at, ++serial],
              );
          } else if (a.kind === "redate") {
            const id = one(a.pick, notes);
            if (id) await q(`update credit_notes set issued_at = $2 where id = $1`, [id, a.at]);
          } else {
            const id = one(a.pick, notes);
            if (id) await q(`delete from credit_notes where id = $1`, [id]);
          }
        }
        // Many orders in one statement too: a bulk update that changes nothing reported, and one that does.
        await q(`update orders set updated_at = now()`);
        await q(`update orders set package_price = package_price + 1 where invoiced_at is not null and tax_cents = 0`);
        expect(await stored()).toEqual(await expected());
      }),
      { numRuns: 15 },
    );
    const before = await stored();
    await q(`select tax_tallies_rebuild($1)`, [TZ]);
    expect(await stored()).toEqual(before);
  }, 120_000);

  it("follow a change of the site's time zone, with the other tallies", async () => {
    await q(`delete from credit_notes`);
    await q(`delete from orders`);
    const u = await customer();
    // 02:30 UTC on 1 November: 31 October in New York, 1 November in Tokyo.
    const id = await sale({
      user: u,
      gross: 1200,
      tax: 200,
      rate: 2000,
      taxCountry: "GB",
      invoiced: "2026-11-01T02:30:00Z",
    });
    await creditNote(id, 600, 100, "2026-12-01T01:00:00Z");
    const days = async () => (await stored()).map((r) => [r.day, r.sales, r.refunds]);
    expect(await days()).toEqual([
      ["2026-10-31", 1, 0],
      ["2026-11-30", 0, 1],
    ]);
    await createOrderTallies({ db: app.db.db, timeZone: "Asia/Tokyo" }).ensureZone();
    expect(await days()).toEqual([
      ["2026-11-01", 1, 0],
      ["2026-12-01", 0, 1],
    ]);
    expect(await stored()).toEqual(await expected("Asia/Tokyo"));
    // The triggers count in the zone now stored: a new sale falls on Tokyo's day.
    await sale({ user: u, gross: 100, taxCountry: "GB", invoiced: "2026-11-01T20:00:00Z", tax: 0, rate: 0 });
    expect(await stored()).toEqual(await expected("Asia/Tokyo"));
    await createOrderTallies({ db: app.db.db, timeZone: TZ }).ensureZone();
    expect(await stored()).toEqual(await expected());
  });

  it("follow the order commands: an order placed and paid is a sale on its invoice's day", async () => {
    const jar = await signUp(app, "buyer@example.org");
    const pkg = ((await (await app.request("/api/pricings")).json()) as { _id: string; packagePrice: number }[])[0]!;
    const placed = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: pkg._id, customerName: "Buyer", customerAddress: "1 Road", customerCountry: "UK" },
      jar,
    });
    expect(placed.status).toBe(201);
    const { insertedId } = (await placed.json()) as { insertedId: string };
    const paid = await app.request(`/api/order/${insertedId}`, {
      method: "PUT",
      json: { paymentStatus: "Paid" },
      jar: adminJar,
    });
    expect(paid.status, await paid.clone().text()).toBe(200);
    const report = await app.services.taxReport.of(namedPeriod("2026-11"));
    // A fresh install: USD, not registered for VAT, the buyer's country as its code.
    expect(lineOf(report, "USD", "GB", "not-registered")).toMatchObject({
      sales: 1,
      netCents: Math.round(pkg.packagePrice * 100),
      taxCents: 0,
    });
    expect(await stored()).toEqual(await expected());
  });
});

describe("GET /api/reports/tax, the CSV and the page", () => {
  it("answer the period's report, its columns and rows", async () => {
    const res = await app.request("/api/reports/tax?period=2026-11", { jar: adminJar });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      report: "tax",
      period: { kind: "month", from: "2026-11-01", to: "2026-11-30", value: "2026-11", label: "Nov 2026" },
      columns: expect.arrayContaining(["Country", "Net sales", "VAT charged", "VAT refunded"]),
    });
    expect(body.rows).toContainEqual(
      expect.arrayContaining(["USD", "GB", "United Kingdom", "No VAT (not registered)"]),
    );
    const custom = await app.request("/api/reports/tax?from=2026-10-01&to=2026-10-31", { jar: adminJar });
    expect(await custom.json()).toMatchObject({ period: { kind: "custom", from: "2026-10-01", to: "2026-10-31" } });
    const none = await app.request("/api/reports/tax", { jar: adminJar });
    expect(await none.json()).toMatchObject({ period: { kind: "quarter", value: "2026-Q4" } });
  });

  it("refuse a bad period with a clear message", async () => {
    const cases: [string, string][] = [
      ["period=2026-13", "Period must be a month (2026-11) or a quarter (2026-Q4), or give From and To dates"],
      [
        "period=2026-Q4&period=2026-Q3",
        "Period must be a month (2026-11) or a quarter (2026-Q4), or give From and To dates",
      ],
      ["from=2026-02-30&to=2026-03-01", "From must be a real date"],
      ["from=2026-03-01&to=2026-02-01", "To must be on or after From"],
      ["from=2020-01-01&to=2026-01-01", "A period can be at most 5 years long"],
      ["from=2026-01-01", "To is required"],
    ];
    for (const [query, message] of cases) {
      const res = await app.request(`/api/reports/tax?${query}`, { jar: adminJar });
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { error: string }).error, query).toBe(message);
    }
  });

  it("answer staff who see reports and refuse every other role", async () => {
    const customerJar = await signUp(app, "tax-customer@example.org");
    const editorJar = await signUpStaff(app, app.db.pool, "tax-editor@example.org", "Editor");
    const staffAdminJar = await signUpStaff(app, app.db.pool, "tax-admin@example.org", "Admin");
    const roles: [string, CookieJar | undefined, number][] = [
      ["visitor", undefined, 401],
      ["customer", customerJar, 403],
      ["editor", editorJar, 403],
      ["admin", staffAdminJar, 200],
    ];
    for (const [role, jar, status] of roles) {
      const res = await app.request("/api/reports/tax?period=2026-Q4", { jar });
      expect(res.status, role).toBe(status);
      await res.arrayBuffer();
      // The CSV and the page: staff who see reports only (others are sent to sign in, or refused).
      for (const path of ["/reports/tax.csv?period=2026-Q4", "/reports/tax?period=2026-Q4"]) {
        const page = await app.request(path, { jar });
        expect(page.status === 200, `${path} as ${role}: ${page.status}`).toBe(status === 200);
        await page.arrayBuffer();
      }
    }
  }, 60_000);

  it("the CSV: its header and one row per line, amounts as decimals of the row's currency", async () => {
    const res = await app.request("/reports/tax.csv?period=2026-11", { jar: adminJar });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/csv/);
    expect(res.headers.get("content-disposition")).toContain("tax-2026-11-01-to-2026-11-30.csv");
    const lines = (await res.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Currency,Country code,Country,Treatment,Rate,Sales,Net sales,VAT charged,Credit notes,Net refunded,VAT refunded,Net after refunds,VAT after refunds",
    );
    expect(lines.slice(1).some((l) => l.startsWith("USD,GB,United Kingdom,No VAT (not registered),0%,1,"))).toBe(true);
    expect((await app.request("/reports/tax.csv?period=forever", { jar: adminJar })).status).toBe(400);
  });

  it("the page shows the table and the OSS section", async () => {
    const res = await app.request("/reports/tax?period=2026-11", { jar: adminJar });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Sales and credit notes by country, in USD");
    expect(html).toContain("EU consumers (OSS), in USD");
    expect(html).toContain("No VAT (not registered)");
    const bad = await app.request("/reports/tax?period=soon", { jar: adminJar });
    expect(await bad.text()).toContain("Period must be a month (2026-11) or a quarter (2026-Q4)");
  });
});
