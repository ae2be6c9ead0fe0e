import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, PHONE } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { CookieJar } from "../support/session";
import { ROOT } from "../support/server";
import { versionLabel, type AppVersion } from "#server/version.ts";
import { backOfficeNav, logIn, main, openBackOfficeSection } from "../support/pages";

/**
 * Issue 26, part 1: the back office is a workspace of its own. No marketing header, footer or newsletter; a side
 * navigation with counts; every column of the orders desk and of /admin reachable at 1024, 1280 and 1920 px (a click
 * at each header's centre lands on that header: nothing pinned over it, nothing scrolled out of view); cards and a
 * Menu that opens without JavaScript at 390 px; an admin who signs in lands on Today, whose figures are the database's.
 */
let env: E2EEnv;
let admin: Page;
const sql = async (query: string, params: unknown[] = []) => (await env.db.pool.query(query, params)).rows;

async function api(jar: CookieJar, path: string, method = "GET", json?: unknown) {
  const res = await fetch(env.server.url + path, {
    method,
    headers: { "content-type": "application/json", cookie: jar.header(), origin: env.server.url },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  jar.store(res);
  return res;
}

beforeAll(async () => {
  env = await startE2E();
  const adminJar = new CookieJar();
  await api(adminJar, "/api/auth/sign-in/email", "POST", ADMIN);
  const [pkg] = await sql("select id from content_entries where type = 'pricing' order by position limit 1");
  // The widest rows: a long name and an address with no place to break but the @; paid (waiting) and unpaid.
  const people = [
    ["aiko.tanaka.whitfield@longdomain-example.org", "Aiko Tanaka-Whitfield of Harrogate", true],
    ["nora.lindqvist@example.org", "Nora Lindqvist", true],
    ["omar@example.org", "Omar Haddad", false],
  ] as const;
  for (const [email, name, paid] of people) {
    const jar = new CookieJar();
    await api(jar, "/api/auth/sign-up/email", "POST", { email, password: "secret-pass-1", name, acceptTerms: true });
    const res = await api(jar, "/api/new-order", "POST", {
      packageId: pkg.id,
      customerName: name,
      customerAddress: "12 Canal Wharf, Leeds",
      customerCountry: "United Kingdom",
    });
    const { insertedId } = (await res.json()) as { insertedId: string };
    if (paid)
      expect((await api(adminJar, `/api/order/${insertedId}`, "PUT", { paymentStatus: "Paid" })).status).toBe(200);
  }
  for (const n of [1, 2])
    await api(new CookieJar(), "/api/add-message", "POST", {
      name: `Visitor ${n}`,
      email: `visitor${n}@example.org`,
      subject: "A kitchen",
      message: "Could you quote a kitchen?",
    });
  admin = await newPage(env.browser, env.server.url);
});
afterAll(() => env?.close());

describe("signing in", () => {
  it("an admin who signs in lands on Today, in the back office's own frame", async () => {
    await logIn(admin, ADMIN.email, ADMIN.password);
    expect(new URL(admin.url()).pathname).toBe("/today");
    await expect.poll(() => main(admin).getByRole("heading", { level: 1 }).textContent()).toBe("Today");
    expect(await backOfficeNav(admin).getByRole("link", { name: "Today" }).getAttribute("aria-current")).toBe("page");
    // The footer names the version and commit the build holds (build/version.json), the full commit on hover.
    const built = JSON.parse(readFileSync(path.join(ROOT, "build/version.json"), "utf8")) as AppVersion;
    const footer = main(admin).getByTestId("version");
    expect(await footer.textContent()).toBe(`Version ${versionLabel(built)}`);
    expect(await footer.locator("[title]").getAttribute("title")).toBe(built.commit);
  });
});

describe("Today", () => {
  it("shows the database's figures, each a link to its list", async () => {
    const [{ waiting, unread, paid }] = await sql(`select
      (select count(*)::int from orders where payment_status = 'Paid' and order_status = 'Pending') as waiting,
      (select count(*)::int from messages where message_status = 'UnRead' and archived_at is null) as unread,
      (select coalesce(sum(package_price), 0)::numeric(10,2)::text from orders where payment_status = 'Paid') as paid`);
    expect(waiting).toBe(2);
    await admin.goto("/today");
    const figure = (id: string) => admin.getByTestId(id).locator("[data-figure]").textContent();
    expect(await figure("today-to-deliver")).toBe(String(waiting));
    expect(await figure("today-unread")).toBe(String(unread));
    expect(await figure("today-ending-soon")).toBe("0");
    expect(await figure("today-failed-jobs")).toBe("0");
    // Every payment of this run came today, in this month.
    expect(await figure("today-sales-day")).toBe(`$${paid}`);
    expect(await figure("today-sales-month")).toBe(`$${paid}`);
    // The navigation's counts are the same figures.
    expect(await backOfficeNav(admin).getByTestId("nav-count-toDeliver").textContent()).toContain(String(waiting));
    expect(await backOfficeNav(admin).getByTestId("nav-count-unread").textContent()).toContain(String(unread));

    await admin.getByTestId("today-to-deliver").click();
    await admin.waitForURL((u) => u.pathname === "/total-orders" && u.searchParams.get("view") === "to-deliver");
    await expect.poll(() => admin.getByTestId("total-orders").locator("tbody tr").count()).toBe(waiting);
    await admin.goto("/today");
    await admin.getByTestId("today-unread").click();
    await admin.waitForURL((u) => u.pathname === "/all-messages");
    await admin.goto("/today");
    await admin.getByTestId("today-sales-day").click();
    await admin.waitForURL((u) => u.pathname === "/total-orders" && u.searchParams.get("payment") === "Paid");
    await expect.poll(() => admin.getByTestId("total-orders").locator("tbody tr").count()).toBe(2);
  });
});

/** Whether a click at the centre of each header cell of the table in `testId` reaches that cell, as the page opens. */
async function unreachableHeaders(page: Page, testId: string): Promise<string[]> {
  const table = page.getByTestId(testId).locator("table");
  await table.waitFor();
  return table.evaluate((t) => {
    const missed: string[] = [];
    for (const th of t.querySelectorAll("thead th")) {
      // Scrolled vertically only: a table that hid columns sideways would keep them hidden.
      const top = th.getBoundingClientRect().top + window.scrollY;
      window.scrollTo(0, top - window.innerHeight / 2);
      const r = th.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const visible = r.width > 0 && r.left >= 0 && r.right <= document.documentElement.clientWidth;
      if (!visible || !hit || !th.contains(hit)) missed.push(th.textContent ?? "?");
    }
    return missed;
  });
}

/** Whether a click at the centre of the element reaches it (scrolled to vertically only). */
const reachable = (locator: ReturnType<Page["locator"]>) =>
  locator.evaluate((el) => {
    window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - window.innerHeight / 2);
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.right <= document.documentElement.clientWidth && !!hit && el.contains(hit);
  });

describe("every column at every laptop width", () => {
  for (const width of [1024, 1280, 1920]) {
    it(`at ${width} px a click at each header of /total-orders and /admin reaches it`, async () => {
      await admin.setViewportSize({ width, height: 900 });
      await admin.goto("/total-orders");
      const desk = await admin.getByTestId("total-orders").locator("thead th").allTextContents();
      expect(desk).toEqual(expect.arrayContaining(["Status", "Action", "Membership Valid Until"]));
      expect(await unreachableHeaders(admin, "total-orders"), `/total-orders at ${width} px`).toEqual([]);
      const update = admin.getByTestId("total-orders").getByRole("link", { name: "Update", exact: true }).first();
      expect(await reachable(update), `Update at ${width} px`).toBe(true);
      await admin.goto("/admin");
      expect(await admin.getByTestId("admin-orders").locator("thead th").count()).toBe(8);
      expect(await unreachableHeaders(admin, "admin-orders"), `/admin at ${width} px`).toEqual([]);
      const updateOrder = admin.getByTestId("admin-orders").getByRole("link", { name: "Update Order" }).first();
      expect(await reachable(updateOrder), `Update Order at ${width} px`).toBe(true);
      // Wide screens use the width, up to the comfortable maximum.
      const used = await main(admin)
        .locator(":scope > div")
        .evaluate((d) => d.getBoundingClientRect().width);
      if (width === 1920) expect(used).toBe(1600);
    });
  }
});

describe("a frame of its own", () => {
  it("no marketing header, footer or newsletter on any back-office screen; landmarks and the skip link", async () => {
    await admin.setViewportSize({ width: 1280, height: 900 });
    for (const path of ["/today", "/total-orders", "/admin", "/setting", "/edit-banner"]) {
      const res = await admin.goto(path);
      expect(res!.status(), path).toBe(200);
      expect(await admin.getByRole("banner").count(), `${path}: header`).toBe(0);
      expect(await admin.getByRole("contentinfo").count(), `${path}: footer`).toBe(0);
      expect(await admin.locator("footer").count(), `${path}: footer`).toBe(0);
      expect(await admin.getByRole("button", { name: "Subscribe" }).count(), `${path}: newsletter`).toBe(0);
      expect(await admin.getByRole("main").count(), path).toBe(1);
      expect(await backOfficeNav(admin).count(), path).toBe(1);
      expect(await admin.getByRole("link", { name: "Skip to content" }).getAttribute("href")).toBe("#main");
      expect(await admin.getByTestId("signed-in").getByRole("link").textContent()).toContain(ADMIN.email);
      expect(await admin.getByTestId("signed-in").getByRole("button", { name: "Sign Out" }).count()).toBe(1);
    }
    // The public site keeps its header and footer.
    await admin.goto("/");
    expect(await admin.getByRole("banner").count()).toBe(1);
    expect(await admin.locator("footer").count()).toBe(1);
  });

  it("a page refused to the role is shown inside the back office; a customer refused sees the site's frame", async () => {
    const res = await admin.goto("/view/00000000-0000-4000-8000-000000000000");
    expect(res!.status()).toBe(404);
    expect(await backOfficeNav(admin).count()).toBe(1);
    const customer = await newPage(env.browser, env.server.url);
    await logIn(customer, "omar@example.org", "secret-pass-1");
    const errors: string[] = [];
    customer.on("pageerror", (e) => errors.push(e.message));
    // (The browser logs the 403 answer itself as a failed resource: not an error of the page.)
    customer.on("console", (m) =>
      m.type() === "error" && !m.text().includes("status of 403") ? errors.push(m.text()) : undefined,
    );
    expect((await customer.goto("/today"))!.status()).toBe(403);
    expect(await customer.getByRole("heading", { level: 1 }).textContent()).toBe("You don't have any permission");
    expect(await backOfficeNav(customer).count()).toBe(0);
    expect(await customer.getByRole("banner").count()).toBe(1);
    // The site frame's error page is loaded on demand there, with its route module (the back office's scripts leave
    // it out): once it has arrived the page is hydrated without a mismatch, the footer is still drawn, and the
    // header's links navigate in the page.
    await customer.waitForSelector("html[data-hydrated]");
    await expect
      .poll(() =>
        customer.evaluate(() =>
          performance.getEntriesByType("resource").some((r) => /\/site-frame-[\w-]+\.js$/.test(r.name)),
        ),
      )
      .toBe(true);
    expect(await customer.getByRole("contentinfo").count()).toBe(1);
    await customer.getByRole("banner").getByRole("link", { name: "Dashboard" }).first().click();
    await customer.waitForURL("**/dashboard");
    expect(await customer.getByRole("banner").count()).toBe(1);
    expect(errors).toEqual([]);
    await customer.context().close();
  });
});

describe("on a phone", () => {
  it("at 390 px the navigation opens from Menu, takes you to a section and closes; the desk is cards", async () => {
    await admin.setViewportSize(PHONE);
    await admin.goto("/today");
    expect(await backOfficeNav(admin).isVisible()).toBe(false);
    await openBackOfficeSection(admin, "Orders");
    expect(new URL(admin.url()).pathname).toBe("/total-orders");
    await expect.poll(() => backOfficeNav(admin).isVisible()).toBe(false);
    const desk = admin.getByTestId("total-orders");
    expect(await desk.locator("thead").isVisible()).toBe(false);
    const row = desk.locator("tbody tr").first();
    expect(await row.evaluate((r) => getComputedStyle(r).display)).toBe("grid");
    // Each value beside its column's name.
    expect(await row.locator("td").first().getAttribute("data-label")).toBe("Sl.");
  });

  it("without JavaScript the Menu opens too", async () => {
    const context = await env.browser.newContext({
      baseURL: env.server.url,
      javaScriptEnabled: false,
      viewport: PHONE,
    });
    await context.addCookies(await admin.context().cookies());
    const page = await context.newPage();
    await page.goto("/total-orders");
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    expect(await backOfficeNav(page).isVisible()).toBe(false);
    await page.getByTestId("back-office-menu").locator("summary").click();
    expect(await backOfficeNav(page).isVisible()).toBe(true);
    await backOfficeNav(page).getByRole("link", { name: "Today" }).click();
    await page.waitForURL((u) => u.pathname === "/today");
    await context.close();
  });
});
