import { text } from "node:stream/consumers";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { ADMIN, logIn, startAdminE2E, type E2EEnv } from "../support/e2e";

/**
 * Issue 26, part 4: /reports at 1024, 1280 and 390 px. Every report shows a chart with its name and description and a
 * table; the period switches by link and by the custom form, and a bad period is told under its field; each report's
 * CSV downloads for the period shown; nothing is wider than a phone's screen.
 */
let env: E2EEnv;
beforeAll(async () => {
  ({ env } = await startAdminE2E());
  await seedOrders();
});
afterAll(() => env?.close());

const main = (page: Page) => page.getByRole("main");
const sql = async (query: string, params: unknown[] = []) => (await env.db.pool.query(query, params)).rows;

/** Two customers' paid and delivered orders over the last months (with their windows), and a gift. */
async function seedOrders() {
  await sql(`insert into "user" (id, name, email, email_verified, created_at, updated_at) values
             ('rep-ann', 'Ann Report', 'ann.report@example.org', true, now(), now()),
             ('rep-ben', 'Ben Report', 'ben.report@example.org', true, now(), now())`);
  const rows: [string, number, number, number][] = [
    // [customer, price, days before now it was paid, validity]
    ["rep-ann", 99, 200, 90],
    ["rep-ann", 99, 110, 90],
    ["rep-ben", 29, 70, 30],
    ["rep-ben", 0, 40, 30],
    ["rep-ben", 59, 5, 30],
  ];
  let n = 0;
  for (const [user, price, ago, validity] of rows)
    await sql(
      `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email,
         customer_name, customer_address, customer_country, payment_status, order_status, order_date, paid_at,
         delivered_at, membership_starts, membership_valid, created_at, updated_at)
       select 'RP-' || $1, $2, 'Plan', $3, $5, 'x@example.org', 'X', '1 Road', 'UK', 'Paid', 'Delivered', '01/01/2026',
              t, t, t, t + make_interval(days => $5), t, t
       from (select now() - make_interval(days => $4) as t) x`,
      [++n, user, price, ago, validity],
    );
}

for (const [name, viewport] of [
  ["1024", { width: 1024, height: 800 }],
  ["1280", { width: 1280, height: 800 }],
  ["390", { width: 390, height: 844 }],
] as const) {
  describe(`/reports at ${name} px`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await newPage(env.browser, env.server.url, { viewport });
      await logIn(page, ADMIN.email, ADMIN.password);
    });
    afterAll(() => page.context().close());

    it("shows each report as a named chart with its table, for the last 12 months", async () => {
      await page.goto("/reports");
      await expect.poll(() => page.locator("html[data-hydrated]").count()).toBe(1);
      expect(await main(page).getByRole("heading", { level: 1 }).textContent()).toBe("Reports");
      expect(await main(page).getByRole("link", { name: "Last 12 months" }).getAttribute("aria-current")).toBe("page");
      for (const title of [
        "Revenue",
        "Orders paid",
        "New customers and renewals",
        "Active members",
        "Memberships ended and not renewed",
        "Revenue per paying customer",
      ]) {
        const section = main(page).getByRole("region", { name: title, exact: true });
        expect(await section.count(), title).toBe(1);
        expect(await section.getByRole("img").count(), title).toBe(1);
        expect(await section.getByRole("table").count(), title).toBe(1);
      }
      const totals = page.getByTestId("report-totals");
      // 99 + 99 + 29 + 59 paid (the gift is no revenue), in the last 12 months.
      expect(await totals.textContent()).toContain("$286.00");
      expect(await totals.textContent()).toContain("and 1 given by the agency");
      const revenue = main(page).getByRole("region", { name: "Revenue", exact: true });
      expect(await revenue.getByRole("img").getAttribute("aria-labelledby")).toBeTruthy();
      expect(await revenue.locator("svg desc").textContent()).toContain("$286.00 in all");
      // Nothing scrolls sideways: tables scroll inside their own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });

    it("switches to this month, day by day, and to a custom period; a bad one is told under its field", async () => {
      await page.goto("/reports");
      await main(page).getByRole("link", { name: "This month" }).click();
      await page.waitForURL(/period=this-month/);
      // The client-side navigation has landed when the link is the current one.
      await expect
        .poll(() => main(page).getByRole("link", { name: "This month" }).getAttribute("aria-current"))
        .toBe("page");
      expect(await main(page).locator("p", { hasText: "day by day" }).count()).toBe(1);

      await main(page).getByLabel("From", { exact: true }).fill("2026-01-01");
      await main(page).getByLabel("To", { exact: true }).fill("2026-02-15");
      await main(page).getByRole("button", { name: "Show" }).click();
      await page.waitForURL(/from=2026-01-01&to=2026-02-15/);
      await expect
        .poll(() => main(page).locator("p", { hasText: "Jan 1, 2026 to Feb 15, 2026, day by day" }).count())
        .toBe(1);

      await main(page).getByLabel("From", { exact: true }).fill("2026-03-01");
      await main(page).getByLabel("To", { exact: true }).fill("2026-02-01");
      await main(page).getByRole("button", { name: "Show" }).click();
      await page.waitForURL(/from=2026-03-01/);
      const to = main(page).getByLabel("To", { exact: true });
      await expect.poll(() => to.getAttribute("aria-invalid")).toBe("true");
      const described = await to.getAttribute("aria-describedby");
      expect(await page.locator(`[id="${described}"]`).textContent()).toBe("To must be on or after From");
      expect(await main(page).getByRole("region", { name: "Revenue", exact: true }).count()).toBe(0);
    });

    it("downloads a report's CSV for the period shown", async () => {
      await page.goto("/reports?period=last-12-months");
      const section = main(page).getByRole("region", { name: "Orders paid", exact: true });
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        section.getByRole("link", { name: /Download CSV/ }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^orders-paid-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await text(await download.createReadStream()))
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
      expect(lines[0]).toBe("Month,Orders paid,Subscription renewals,Orders placed by hand,Given by the agency");
      expect(lines).toHaveLength(13);
      const sum = (col: number) => lines.slice(1).reduce((s, l) => s + Number(l.split(",")[col]), 0);
      expect([sum(1), sum(4)]).toEqual([4, 1]);
    });
  });
}

describe("/reports without JavaScript and for other roles", () => {
  it("switches the period as plain links and a plain GET form", async () => {
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/reports?period=this-month");
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    await main(page).getByLabel("From", { exact: true }).fill("2025-01-01");
    await main(page).getByLabel("To", { exact: true }).fill("2025-12-31");
    await main(page).getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/from=2025-01-01&to=2025-12-31/);
    await expect
      .poll(() => main(page).locator("p", { hasText: "Jan 1, 2025 to Dec 31, 2025, month by month" }).count())
      .toBe(1);
    expect(await main(page).getByRole("region", { name: "Active members", exact: true }).count()).toBe(1);
    await context.close();
  });

  it("refuses a customer", async () => {
    const res = await fetch(`${env.server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: env.server.url },
      body: JSON.stringify({
        email: "cust.report@example.org",
        password: "secret-pass-1",
        name: "C",
        acceptTerms: true,
      }),
    });
    expect(res.ok).toBe(true);
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, "cust.report@example.org", "secret-pass-1");
    const response = await page.goto("/reports");
    expect(response!.status()).toBe(403);
    expect((await page.goto("/reports/revenue.csv"))!.status()).toBe(403);
    await page.context().close();
  });
});
