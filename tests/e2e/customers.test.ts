import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "#domain/dates.ts";
import { DAY_MS } from "#domain/membership.ts";
import { newPage } from "../support/browser";
import { ADMIN, logIn, startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox } from "../support/mail";
import { CookieJar } from "../support/session";

/**
 * The customer record as the owner uses it (issue 26): at 1280, 390 and 1024 px the admin finds a customer by an
 * order number, gives them 10 more days (the customer's dashboard and the mail say the new end date), and records
 * a bank transfer for their unpaid order.
 */
const TZ = "Europe/London";
const PASSWORD = "quiet-harbour-71";
let env: E2EEnv;
let admin: Page;
const adminJar = new CookieJar();
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E({ TZ }));
  await post("/api/auth/sign-in/email", { email: ADMIN.email, password: ADMIN.password }, adminJar);
});
afterAll(() => env?.close());

const main = (page: Page) => page.getByRole("main");
const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

async function post(path: string, json: unknown, jar: CookieJar, method = "POST") {
  const res = await fetch(env.server.url + path, {
    method,
    headers: { "content-type": "application/json", ...(jar.size ? { cookie: jar.header() } : {}) },
    body: JSON.stringify(json),
    redirect: "manual",
  });
  jar.store(res);
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
}

/** A customer with an active membership (one order paid and delivered) and an unpaid order. */
async function customerWithOrders(email: string) {
  const jar = new CookieJar();
  await post("/api/auth/sign-up/email", { email, password: PASSWORD, name: "Iris Record", acceptTerms: true }, jar);
  const pkg = ((await (await fetch(`${env.server.url}/api/pricings`)).json()) as { _id: string }[])[0]!;
  const place = () =>
    post(
      "/api/new-order",
      { packageId: pkg._id, customerName: "Iris Record", customerAddress: "3 Quay", customerCountry: "UK" },
      jar,
    ).then((r) => String(r.insertedId));
  const paid = await place();
  await post(`/api/order/${paid}`, { paymentStatus: "Paid" }, adminJar, "PUT");
  await post(`/api/order-status/${paid}`, { orderStatus: "Delivered" }, adminJar, "PUT");
  const unpaid = await place();
  const { rows } = await env.db.pool.query("select id, number, membership_valid from orders where id = any($1)", [
    [paid, unpaid],
  ]);
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  return {
    paidNumber: byId.get(paid).number as string,
    unpaidNumber: byId.get(unpaid).number as string,
    end: byId.get(paid).membership_valid as Date,
  };
}

describe.each([
  [1280, 800],
  [390, 844],
  [1024, 768],
])("at %i px", (width, height) => {
  it("finds a customer by order number, gives 10 days, records a bank transfer", async () => {
    await admin.setViewportSize({ width, height });
    const email = `iris-${width}@example.org`;
    const { paidNumber, unpaidNumber, end } = await customerWithOrders(email);

    await admin.goto("/customers");
    await main(admin).getByLabel("Name, email or order number").fill(paidNumber);
    await main(admin).getByRole("button", { name: "Search" }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === paidNumber);
    const rows = admin.getByTestId("customers");
    // The URL changes a moment before the list is drawn again: the list of every customer (each width's Iris Record
    // among them) may still be on screen. Wait for the one the number finds.
    const found = rows.getByRole("link", { name: "Iris Record" });
    await expect.poll(() => found.count()).toBe(1);
    expect(await rows.getByText(email).count()).toBe(1);
    await found.click();
    await admin.waitForURL((u) => /^\/customers\/[^/]+$/.test(u.pathname));
    await expect.poll(() => admin.getByTestId("customer-orders").textContent()).toContain(paidNumber);

    const grant = admin.getByTestId("grant-form");
    await grant.getByLabel("Days").fill("10");
    await grant.getByLabel("Reason (only the staff see it)").fill("Sorry for the late delivery");
    await grant.getByRole("button", { name: "Give days" }).click();
    const until = longDate(new Date(end.getTime() + 10 * DAY_MS), TZ);
    await expect
      .poll(() => toast(admin, `Membership extended: it now runs until ${until}.`).count())
      .toBeGreaterThan(0);
    await expect.poll(() => admin.getByTestId("customer-membership").textContent()).toContain(until);

    // The customer's dashboard and their mail say the new end.
    const customer = await newPage(env.browser, env.server.url, { viewport: { width, height } });
    await logIn(customer, email, PASSWORD);
    await customer.goto("/dashboard");
    expect(await customer.getByTestId("membership-banner").textContent()).toContain(`Ends on ${until}`);
    await customer.context().close();
    await expect
      .poll(
        () =>
          outbox(env.server.dataDir).filter(
            (m) => m.to[0]!.includes(email) && m.subject === `Your membership now runs until ${until}`,
          ).length,
        { timeout: 15_000 },
      )
      .toBe(1);

    const transfer = admin.getByTestId("bank-transfer-form");
    // Their one unpaid order is chosen already.
    expect(await transfer.getByLabel("Order").locator("option:checked").textContent()).toContain(unpaidNumber);
    await transfer.getByLabel("Transfer reference").fill(`BACS ${width}`);
    await transfer.getByRole("button", { name: "Record payment" }).click();
    await expect
      .poll(() => toast(admin, `Bank transfer recorded: order ${unpaidNumber} is paid.`).count())
      .toBeGreaterThan(0);
    const [row] = (
      await env.db.pool.query(
        "select payment_status, payment_method, payment_reference from orders where number = $1",
        [unpaidNumber],
      )
    ).rows;
    expect(row).toEqual({
      payment_status: "Paid",
      payment_method: "Bank transfer",
      payment_reference: `BACS ${width}`,
    });
    // No part of the page scrolls sideways.
    expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  });
});
