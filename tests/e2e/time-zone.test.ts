import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "../support/accounts";
import { newPage } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { logIn } from "../support/pages";
import { adminPages, fromRecords } from "../support/routes";

/**
 * Every page, rendered by a server on UTC and hydrated by a browser fourteen hours ahead (Pacific/Kiritimati, where
 * the calendar date differs from UTC's for most of the day). A date formatted in the browser's own zone instead of
 * the site's renders differently on each side: React reports a hydration mismatch (error #418) and newPage fails the
 * page load. Every page that shows a date gets data with one first.
 */
const BROWSER_ZONE = "Pacific/Kiritimati";
const PUBLIC = [
  "/",
  "/service/",
  "/pricing",
  "/contact",
  "/contact-us",
  "/thanks",
  "/newsletter",
  "/login",
  "/register",
  "/reset",
  "/reset-password",
  "/not-a-page",
];
/** The customer's pages; the back office's come from app/routes.ts (adminPages), each with a record to show. */
const CUSTOMER = ["/dashboard", "/my-order", "/pending-order"];

let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E({ TZ: "UTC" });
});
afterAll(() => env?.close());

/** A REST call with the page's own session. */
async function api<T = unknown>(page: Page, method: "GET" | "POST" | "PUT", path: string, data?: unknown): Promise<T> {
  const res = await page.request.fetch(`/api${path}`, { method, data });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

/**
 * Opens each path; newPage's page load throws on any React error, CSP violation or uncaught exception. After a failure
 * the next path gets a fresh page with the same session, so each failing page is named once.
 */
async function visitAll(first: Page, paths: readonly string[]) {
  let page = first;
  const failed: string[] = [];
  // React can report a mismatch just after the page's hydration marker is set, so a last load catches the last page's.
  for (const path of [...paths, "/"]) {
    try {
      await page.goto(path);
    } catch (error) {
      failed.push(`${path}: ${(error as Error).message.split("\n").at(-1)}`);
      const storageState = await page.context().storageState();
      await page.context().close();
      page = await newPage(env.browser, env.server.url, { timezoneId: BROWSER_ZONE, storageState });
    }
  }
  await page.context().close();
  expect(failed).toEqual([]);
}

describe(`every page hydrates cleanly with the server on UTC and the browser on ${BROWSER_ZONE}`, () => {
  it("the browser really is in another zone", async () => {
    const page = await newPage(env.browser, env.server.url, { timezoneId: BROWSER_ZONE });
    await page.goto("/");
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(BROWSER_ZONE);
    await page.context().close();
  });

  it("public pages", async () => {
    const page = await newPage(env.browser, env.server.url, { timezoneId: BROWSER_ZONE });
    await visitAll(page, PUBLIC);
  });

  it("customer and back-office pages, each with a dated record to show", async () => {
    const page = await newPage(env.browser, env.server.url, { timezoneId: BROWSER_ZONE });
    await logIn(page, ADMIN.email, ADMIN.password);

    // A message, a subscriber, an order paid and delivered (a membership with an expiry), a payment account, a
    // simple item: every kind of date the back office and the customer area show.
    await api(page, "POST", "/add-message", {
      name: "Tia Zone",
      email: "tia@example.org",
      subject: "Across the date line",
      message: "Sent from fourteen hours ahead.",
    });
    await api(page, "POST", "/add-subscriber", { subemail: "zone@example.org" });
    const [pkg] = await api<{ _id: string }[]>(page, "GET", "/pricings");
    const order = await api<{ insertedId: string }>(page, "POST", "/new-order", {
      packageId: pkg!._id,
      customerName: "Tia Zone",
      customerAddress: "1 Line Islands",
      customerCountry: "Kiribati",
    });
    const orderId = order.insertedId;
    await api(page, "PUT", `/order/${orderId}`, { paymentStatus: "Paid" });
    await api(page, "PUT", `/order-status/${orderId}`, { orderStatus: "Delivered" });
    const unpaid = await api<{ insertedId: string }>(page, "POST", "/new-order", {
      packageId: pkg!._id,
      customerName: "Tia Zone",
      customerAddress: "1 Line Islands",
      customerCountry: "Kiribati",
    });
    await api(page, "POST", "/add-email", { paypalEmail: "pay@example.org" });
    await api(page, "POST", "/add-item", {
      format: "Instagram",
      canvaLink: "https://www.canva.com/design/zone",
      imageLink: "https://images.example.org/zone.png",
      category: "Reels",
      freeOrPaid: "Free",
    });

    // The catalogue answers in the spec's envelope ({ success, data }); the demo seed has an item of every category.
    const {
      data: [item],
    } = await api<{ data: { _id: string }[] }>(page, "GET", "/all-database");
    // A discount code, valid for a few days, for its edit screen.
    await api(page, "POST", "/discount-codes", { code: "ZONE10", kind: "percent", value: 10, validFrom: "2026-01-01" });
    // A newsletter sent at a time to come: its screen shows that time.
    const letter = await api<{ insertedId: string }>(page, "POST", "/newsletters", {
      subject: "Across the date line",
      bodyText: "A note.",
      audience: ["subscribers"],
    });
    await env.db.pool.query(
      "insert into subscribers (subemail, state, confirmed_at) values ('tia.reader@example.org', 'confirmed', now())",
    );
    await api(page, "POST", `/newsletters/${letter.insertedId}/send`, { at: "2026-12-24T10:00:00Z" });
    // The paid order as a PayPal subscription (the row its sign-up makes): its dates on the record and its cancel page.
    await env.db.pool.query(
      "insert into subscriptions (subscr_id, order_id, user_id, signed_up_at) select 'I-ZONE', id, user_id, now() from orders where id = $1",
      [orderId],
    );
    // A customer of their own for the customer record (joined, a membership given with its window).
    await signUp(env.server, "tia.customer@example.org");
    const [customer] = (await env.db.pool.query(`select id from "user" where email = 'tia.customer@example.org'`)).rows;
    await api(page, "POST", `/customers/${customer.id}/membership`, { days: 30, reason: "Across the date line" });
    // Every admin page, each :id a record of what it shows (the order paid and delivered, with the most dates).
    const records = fromRecords(env.db.pool);
    const admin = await adminPages({
      fill: (param, route) => (route.file === "routes/admin/payment-status.tsx" ? orderId : records(param, route)),
    });
    await visitAll(page, [
      ...CUSTOMER,
      `/order-now/${pkg!._id}`,
      `/pay-now/${unpaid.insertedId}`,
      `/received-payment/${orderId}`,
      `/item/${item!._id}`,
      ...admin,
    ]);
  }, 180_000);
});
