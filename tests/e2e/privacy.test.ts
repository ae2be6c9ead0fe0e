import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_NAME } from "#domain/privacy.ts";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { heading, main, placeOrder, register, setOrderStatus, submitLogin } from "../support/pages";

/**
 * Issue 25, part 1, in Chromium: a customer downloads their data (the file holds their order) and deletes their
 * account (they cannot sign in; the admin's order list shows the order anonymised; the orders export no longer has
 * their email); an admin erases another customer from the back office, at their request.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

const CUSTOMER = { email: "maya.erased@example.org", password: "maya-pass-4417" };

const numberOf = async (id: string) =>
  (await env.db.pool.query(`select number from orders where id = $1`, [id])).rows[0].number as string;

describe("a customer's own data", () => {
  it("downloads it (the file holds their order), deletes the account, and is gone everywhere but the accounts", async () => {
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, CUSTOMER);
    const id = await placeOrder(customer, { name: "Maya Erased" });
    await setOrderStatus(admin, id, "Payment Status", "Paid");
    await setOrderStatus(admin, id, "Order Status", "Delivered");
    const number = await numberOf(id);

    // My data: the summary, then the file.
    await customer.goto("/account/data");
    await expect.poll(() => heading(customer).textContent()).toBe("My data");
    await expect.poll(() => main(customer).textContent()).toContain(number);
    const [download] = await Promise.all([
      customer.waitForEvent("download"),
      main(customer).getByRole("link", { name: "Download my data (JSON)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(file.profile.email).toBe(CUSTOMER.email);
    expect(file.orders).toMatchObject([
      { number, name: "Maya Erased", paymentStatus: "Paid", orderStatus: "Delivered" },
    ]);
    expect(file.membershipWindows).toHaveLength(1);

    // Delete account: a wrong password first, then the right one.
    await main(customer).getByRole("link", { name: "Delete your account" }).click();
    await customer.waitForURL((u) => u.pathname === "/account/delete");
    await main(customer).getByLabel("Current password").fill("not-the-password");
    await main(customer).getByRole("button", { name: "Delete my account" }).click();
    await expect.poll(() => main(customer).getByText("This is not your current password").count()).toBeGreaterThan(0);
    await main(customer).getByLabel("Current password").fill(CUSTOMER.password);
    await main(customer).getByRole("button", { name: "Delete my account" }).click();
    await customer.waitForURL((u) => u.pathname === "/account/deleted");
    await expect.poll(() => heading(customer).textContent()).toBe("Your account has been deleted");

    // Signed out, and the password no longer works.
    await customer.goto("/dashboard");
    await customer.waitForURL((u) => u.pathname === "/login");
    await submitLogin(customer, CUSTOMER);
    await expect
      .poll(() => main(customer).getByText("Incorrect email or password. Please try again.").count())
      .toBeGreaterThan(0);

    // The admin's order list: the order is there, anonymised; the export has the order and not the address.
    await admin.goto(`/total-orders?search=${encodeURIComponent(number)}`);
    const row = main(admin).getByRole("row").filter({ hasText: number });
    await expect.poll(() => row.textContent()).toContain(ERASED_NAME);
    expect(await main(admin).textContent()).not.toContain(CUSTOMER.email);
    const csv = await (await admin.request.get("/admin/export/orders.csv")).text();
    expect(csv).toContain(number);
    expect(csv).not.toContain(CUSTOMER.email);
    expect(csv).not.toContain("Maya Erased");
  });
});

describe("an admin erasing a customer who asked by mail", () => {
  it("confirms on /customers/:id/delete, and the customer can no longer sign in", async () => {
    const who = { email: "by.mail@example.org", password: "by-mail-pass-52" };
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, who);
    const { rows } = await env.db.pool.query(`select id from "user" where email = $1`, [who.email]);
    const id = rows[0].id as string;

    await admin.goto(`/customers/${id}/delete`);
    await expect.poll(() => heading(admin).textContent()).toBe("Erase a customer");
    await expect.poll(() => main(admin).textContent()).toContain(who.email);
    await main(admin).getByRole("button", { name: "Erase this customer" }).click();
    await expect.poll(() => main(admin).getByText("The customer's data has been erased.").count()).toBeGreaterThan(0);
    await expect.poll(() => main(admin).textContent()).not.toContain(who.email);

    await customer.goto("/dashboard");
    await customer.waitForURL((u) => u.pathname === "/login");
    const entry = await env.db.pool.query(
      `select actor_email, changes::text as changes from activity_log where entity = 'customer' and record_id = $1`,
      [id],
    );
    expect(entry.rows).toHaveLength(1);
    expect(entry.rows[0].actor_email).toBe("admin@example.org");
    expect(entry.rows[0].changes).not.toContain(who.email);
  });
});
