import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { ADMIN, logIn, startE2E, type E2EEnv } from "../support/e2e";
import { main, payInSimulator, register, toast } from "../support/pages";

/**
 * Discount codes (issue 27, part 6; decision 049): the studio adds a code in the back office; a customer types a code
 * that does not exist and is told so under the field, then the right one: the order's amount is lower, PayPal's
 * simulator is asked for and paid the lower amount, and the invoice shows the package's price, the discount line and
 * the total paid; the studio's reports show the discount given.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

describe("a discount code", () => {
  it("lowers the first payment, and the invoice shows it", async () => {
    const admin = await newPage(env.browser, env.server.url);
    await logIn(admin, ADMIN.email, ADMIN.password);
    await admin.goto("/discount-codes");
    const add = main(admin).getByTestId("discount-add");
    await add.getByLabel("Code").fill("welcome25");
    await add.getByLabel("Kind").selectOption("percent");
    await add.getByLabel("Value").fill("25");
    await add.getByLabel("Maximum uses").fill("5");
    await add.getByRole("checkbox", { name: "Standard" }).check();
    await add.getByRole("button", { name: "Add discount code" }).click();
    await expect.poll(() => toast(admin, "Discount code is added").count()).toBeGreaterThan(0);
    await expect
      .poll(() => main(admin).getByTestId("discount-codes").getByText("WELCOME25").count())
      .toBeGreaterThan(0);

    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "dora-discount@example.org", password: "discount-pass-1" });
    const [standard] = (
      await env.db.pool.query(
        "select id, data->>'packagePrice' as price from content_entries where type = 'pricing' and data->>'packageName' = 'Standard'",
      )
    ).rows as { id: string; price: string }[];
    const price = Number(standard!.price);
    const expected = (Math.round(price * 75) / 100).toFixed(2);
    await page.goto(`/order-now/${standard!.id}`);
    await main(page).getByLabel("Full Name").fill("Dora Discount");
    await main(page).getByLabel("Address").fill("5 Harbour Row, Whitby");
    await main(page).getByLabel("Country").fill("United Kingdom");
    await main(page).getByLabel("Discount code (optional)").fill("NOPE");
    await main(page).getByRole("button", { name: "Place Order Now" }).click();
    await expect
      .poll(() => main(page).getByText("This discount code does not exist. Please check it.").count())
      .toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe(`/order-now/${standard!.id}`);

    await main(page).getByLabel("Discount code (optional)").fill("welcome25");
    await main(page).getByRole("button", { name: "Place Order Now" }).click();
    await page.waitForURL((u) => u.pathname === "/pending-order");
    const id = new URL(page.url()).searchParams.get("order")!;
    await expect.poll(() => main(page).getByTestId("order-discount").textContent()).toContain("−$");
    expect(await main(page).textContent()).toContain(`$${expected} USD`);

    await page.goto(`/pay-now/${id}`);
    expect(await main(page).textContent()).toContain(`$${expected}`);
    await payInSimulator(page, id);
    const [order] = (
      await env.db.pool.query("select number, package_price, price_before, payment_status from orders where id = $1", [
        id,
      ])
    ).rows as { number: string; package_price: string; price_before: string; payment_status: string }[];
    expect(order).toMatchObject({ package_price: expected, price_before: price.toFixed(2), payment_status: "Paid" });
    // PayPal was asked for the lower amount (the PayPal order the pay button made, decision 066).
    const { rows: asked } = await env.db.pool.query(
      "select data->'purchase_units'->0->'amount'->>'value' as value from paypal_simulator_rest_objects where kind = 'order' and data->'purchase_units'->0->>'custom_id' = $1",
      [id],
    );
    expect(asked.map((r: { value: string }) => r.value)).toEqual([expected]);

    await page.goto(`/invoice/${order!.number}`);
    const invoice = page.getByTestId("invoice");
    expect(await invoice.getByTestId("invoice-discount").textContent()).toContain("Discount (code WELCOME25)");
    expect(await invoice.textContent()).toContain(`$${price.toFixed(2)} USD`);
    expect(await invoice.locator("tfoot").textContent()).toContain(`$${expected} USD`);

    // The studio's reports show the discount given (issue 27, part 6): beside the revenue, and in the revenue table.
    const off = (price - Number(expected)).toFixed(2);
    await admin.goto("/reports?period=this-month");
    expect(await admin.getByTestId("report-totals").textContent()).toContain(
      `after $${off} off with discount codes on 1 order`,
    );
    const revenue = main(admin).getByRole("region", { name: "Revenue", exact: true });
    const table = revenue.getByRole("table");
    expect(await table.getByRole("columnheader").allTextContents()).toEqual(
      expect.arrayContaining(["Orders with a code", "Discounts given"]),
    );
    expect((await table.locator("tfoot td").allTextContents()).slice(-2)).toEqual(["1", `$${off}`]);
  }, 120_000);
});
