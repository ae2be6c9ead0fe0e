import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { notifyContentChanged, startAdminE2E, type E2EEnv } from "../support/e2e";
import { chooseInPayPal, main, openOrderForm, payInSimulator, register, toPayPal } from "../support/pages";
import { PAY_PAGE_REFUSALS, UNKNOWN_PACKAGE_MESSAGE } from "#domain/discounts.ts";

/**
 * Issue 33, item 2 (decision 060), where a person sees it: a pay page whose code was used up meanwhile says so instead
 * of sending the customer to PayPal; the back office's form refuses a package that no longer exists.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E());
});
afterAll(() => env?.close());

async function addCode(code: string, maxUses: string) {
  await admin.goto("/discount-codes");
  const add = main(admin).getByTestId("discount-add");
  await add.getByLabel("Code").fill(code);
  await add.getByLabel("Kind").selectOption("percent");
  await add.getByLabel("Value").fill("10");
  await add.getByLabel("Maximum uses").fill(maxUses);
  await add.getByRole("button", { name: "Add discount code" }).click();
  await expect
    .poll(() => main(admin).getByTestId("discount-codes").getByText(code.toUpperCase()).count())
    .toBeGreaterThan(0);
}

async function orderWithCode(page: Page, code: string): Promise<string> {
  await openOrderForm(page, "Basic");
  await main(page).getByLabel("Full Name").fill("Lena Late");
  await main(page).getByLabel("Address").fill("2 Mill Lane, Leeds");
  await main(page).getByLabel("Country").fill("United Kingdom");
  await main(page).getByLabel("Discount code (optional)").fill(code);
  await main(page).getByRole("button", { name: "Place Order Now" }).click();
  await page.waitForURL((u) => u.pathname === "/pending-order");
  return new URL(page.url()).searchParams.get("order")!;
}

describe("a code's limit on the pay page", () => {
  it("an order whose hold ran out, once others paid the last use, cannot be sent to PayPal: the page says why", async () => {
    await addCode("lastone", "1");
    const late = await newPage(env.browser, env.server.url);
    await register(late, { email: "late@example.org", password: "late-pass-123" });
    const kept = await orderWithCode(late, "lastone");
    // Placed three hours ago: its hold on the code has run out.
    await env.db.pool.query("update orders set created_at = created_at - interval '3 hours' where id = $1", [kept]);

    const quick = await newPage(env.browser, env.server.url);
    await register(quick, { email: "quick@example.org", password: "quick-pass-123" });
    await payInSimulator(quick, await orderWithCode(quick, "lastone"));

    await late.goto(`/pay-now/${kept}`);
    await expect.poll(() => main(late).getByText(PAY_PAGE_REFUSALS.usedUp).count()).toBe(1);
    expect(await main(late).getByRole("button", { name: "Pay Now With PayPal" }).count()).toBe(0);
  });
});

describe("the issue's case, in the browser", () => {
  it("a kept PayPal page paid after cancelling, once another customer took the last use: not Paid, and the customer is told", async () => {
    await addCode("keptform", "1");
    const first = await newPage(env.browser, env.server.url);
    await register(first, { email: "keeper@example.org", password: "keeper-pass-123" });
    const kept = await orderWithCode(first, "keptform");
    await toPayPal(first, kept);

    // In another tab, the same customer cancels the order; another customer takes the code and pays.
    const other = await first.context().newPage();
    await other.goto(`/my-order?cancel=${kept}`);
    await main(other).getByRole("button", { name: "Yes, cancel the order" }).click();
    await expect
      .poll(async () => (await env.db.pool.query("select payment_status from orders where id = $1", [kept])).rows[0])
      .toEqual({ payment_status: "Cancelled" });
    const second = await newPage(env.browser, env.server.url);
    await register(second, { email: "taker@example.org", password: "taker-pass-123" });
    await payInSimulator(second, await orderWithCode(second, "keptform"));

    // The kept page is paid: the order stays Cancelled, the money is on record, and the return page says so.
    await chooseInPayPal(first, kept);
    await expect.poll(() => main(first).getByTestId("payment-refused").count(), { timeout: 15_000 }).toBe(1);
    expect(await main(first).getByTestId("payment-state").getAttribute("data-status")).toBe("Cancelled");
    const uses = await env.db.pool.query(
      "select count(*)::int as n from orders o join discount_codes c on c.id = o.discount_code_id where c.code = 'KEPTFORM' and o.payment_status = 'Paid'",
    );
    expect(uses.rows[0].n).toBe(1);
  });
});

describe("the back office's form", () => {
  it("refuses a package that no longer exists, with a message on the field", async () => {
    await admin.goto("/discount-codes");
    const add = main(admin).getByTestId("discount-add");
    await add.getByLabel("Code").fill("ghostly");
    await add.getByLabel("Kind").selectOption("percent");
    await add.getByLabel("Value").fill("10");
    // The package is deleted (another admin, another tab) after this form was drawn, and then ticked here.
    await env.db.pool.query("delete from content_entries where type = 'pricing' and data->>'packageName' = 'Premium'");
    await notifyContentChanged(env.db);
    // The server has heard of it (its package list no longer has it).
    await expect
      .poll(async () => (await (await fetch(`${env.server.url}/api/pricings`)).text()).includes('"Premium"'))
      .toBe(false);
    await add.getByLabel("Premium").check();
    await add.getByRole("button", { name: "Add discount code" }).click();
    await expect.poll(() => main(admin).getByText(UNKNOWN_PACKAGE_MESSAGE).count()).toBeGreaterThan(0);
    expect(await main(admin).getByTestId("discount-codes").getByText("GHOSTLY").count()).toBe(0);
  });
});
