import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_NAME } from "#domain/privacy.ts";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { heading, main, placeOrder, register, setOrderStatus } from "../support/pages";

/**
 * Issue 33, items 9, 11 and 12, in Chromium: the name a customer gives at checkout greets them and names them in the
 * back office (list, record, search by it, the desk found by invoice number); "My data" shows how each order was paid,
 * its invoice and the studio's note; once erased, they are "Erased customer" everywhere, never a placeholder address,
 * and no member.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

const WHO = { email: "ingrid.s@example.org", password: "fjord-lantern-55" };
const PLACEHOLDER = "erased.invalid";

describe("a customer named at checkout, then erased", () => {
  let customer: Page;
  let id = "";
  let order: { number: string; invoice_number: string; user_id: string };
  it("a customer registers without a name and orders as Ingrid Solberg; the studio marks it paid and delivered", async () => {
    customer = await newPage(env.browser, env.server.url);
    await register(customer, WHO); // no name on the account
    id = await placeOrder(customer, { name: "Ingrid Solberg", address: "4 Fjord Lane, Bergen" });
    await setOrderStatus(admin, id, "Payment Status", "Paid");
    await setOrderStatus(admin, id, "Order Status", "Delivered");
    const { rows } = await env.db.pool.query("select number, invoice_number, user_id from orders where id = $1", [id]);
    order = rows[0] as typeof order;
  });

  it("item 9: is greeted and listed by that name, found by it; the desk finds the invoice number", async () => {
    await customer.goto("/dashboard");
    expect(await heading(customer).textContent()).toBe("Welcome back, Ingrid Solberg");

    // The customers list finds her by that name and shows it, with her email once.
    await admin.goto("/customers");
    await main(admin).getByLabel("Name, email or order number").fill("Solberg");
    await main(admin).getByRole("button", { name: "Search" }).click();
    await admin.waitForURL((u) => u.searchParams.get("q") === "Solberg");
    const rows = admin.getByTestId("customers");
    await expect.poll(() => rows.getByRole("link", { name: "Ingrid Solberg" }).count()).toBe(1);
    expect(((await rows.textContent()) ?? "").split(WHO.email).length - 1).toBe(1);
    await rows.getByRole("link", { name: "Ingrid Solberg" }).click();
    await admin.waitForURL((u) => u.pathname === `/customers/${order.user_id}`);
    await expect.poll(() => heading(admin).textContent()).toBe("Ingrid Solberg");

    // The desk finds the order by its invoice number.
    await admin.goto("/total-orders");
    await main(admin).getByLabel("Order number, customer name or email").fill(order.invoice_number.toLowerCase());
    await main(admin).getByRole("button", { name: "Filter" }).click();
    await admin.waitForURL((u) => u.searchParams.has("q"));
    await expect.poll(() => main(admin).getByRole("row").filter({ hasText: order.number }).count()).toBe(1);
  });

  it("item 11: My data shows how the order was paid, its invoice, and the studio's note", async () => {
    await admin.goto(`/customers/${order.user_id}`);
    await admin.getByTestId("note-form").getByLabel("Only the staff see this note").fill("Prefers mail to calls");
    await admin.getByTestId("note-form").getByRole("button", { name: "Save note" }).click();
    await expect
      .poll(async () => (await env.db.pool.query("select note from customer_notes")).rows[0]?.note)
      .toBe("Prefers mail to calls");
    await customer.goto("/account/data");
    const payment = main(customer).getByTestId("data-order-payment");
    await expect.poll(() => payment.count()).toBe(1);
    expect(await payment.textContent()).toContain(`Invoice ${order.invoice_number}`);
    expect(await payment.textContent()).toContain("Payment recorded by the studio");
    expect(await main(customer).getByTestId("data-staff-note").textContent()).toBe("Prefers mail to calls");
    expect(await main(customer).getByRole("heading", { name: "Subscriptions (0)" }).count()).toBe(1);
    expect(await main(customer).getByRole("heading", { name: "Discount codes you used" }).count()).toBe(1);
    await customer.context().close();
  });

  it("item 12: once erased, is Erased customer everywhere, no placeholder address, and no member", async () => {
    await admin.goto(`/customers/${order.user_id}/delete`);
    await main(admin).getByRole("button", { name: "Erase this customer" }).click();
    await expect.poll(() => main(admin).getByText("The customer's data has been erased.").count()).toBeGreaterThan(0);

    await admin.goto("/customers");
    const row = admin
      .getByTestId("customers")
      .getByRole("row")
      .filter({ has: admin.locator(`a[href="/customers/${order.user_id}"]`) });
    await expect.poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? "";
    expect(text).toContain(ERASED_NAME);
    expect(text).not.toContain("Active");
    expect(text).not.toContain(PLACEHOLDER);
    expect(await main(admin).textContent()).not.toContain(PLACEHOLDER);
    await admin.goto("/customers?state=active");
    expect(await admin.locator(`a[href="/customers/${order.user_id}"]`).count()).toBe(0);

    await admin.goto(`/customers/${order.user_id}`);
    expect(await heading(admin).textContent()).toBe(ERASED_NAME);
    expect(await main(admin).textContent()).not.toContain(PLACEHOLDER);
    expect(await admin.getByTestId("grant-form").count()).toBe(0);

    await admin.goto(`/total-orders?q=${order.number}`);
    await expect.poll(() => main(admin).getByRole("row").filter({ hasText: order.number }).count()).toBe(1);
    expect(await main(admin).textContent()).not.toContain(PLACEHOLDER);
    await admin.goto(`/admin/payment-status/${id}`);
    await expect.poll(() => main(admin).textContent()).toContain(ERASED_NAME);
    expect(await main(admin).textContent()).not.toContain(PLACEHOLDER);

    await admin.goto(`/invoice/${order.number}`);
    const invoice = admin.getByTestId("invoice");
    expect(await invoice.textContent()).toContain(ERASED_NAME);
    expect(await invoice.textContent()).not.toContain(PLACEHOLDER);
  });
});
