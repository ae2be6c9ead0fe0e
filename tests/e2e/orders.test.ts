import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { chooseInPayPal, main, openOrderForm, register, toPayPal } from "../support/pages";
import { CookieJar } from "../support/session";

let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

/** From the pricing card to the pending order: returns the order id. */
async function order(page: Page, packageName: string) {
  await openOrderForm(page, packageName);
  await expect.poll(() => page.locator("h1").textContent()).toBe(`Get started with our ${packageName} Plan today.`);
  await main(page).getByLabel("Full Name").fill("Nora Buyer");
  await main(page).getByLabel("Address").fill("12 Canal Wharf, Leeds");
  await main(page).getByLabel("Country").fill("United Kingdom");
  await main(page).getByRole("button", { name: "Place Order Now" }).click();
  await page.waitForURL((u) => u.pathname === "/pending-order");
  return new URL(page.url()).searchParams.get("order")!;
}

async function adminApi(path: string, body: unknown) {
  const jar = new CookieJar();
  const login = await fetch(env.server.url + "/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
  });
  jar.store(login);
  const res = await fetch(env.server.url + path, {
    method: "PUT",
    headers: { "content-type": "application/json", cookie: jar.header() },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe("buying a membership", () => {
  it("order, pay in the simulator, see the payment confirmed, and (once delivered) an active membership", async () => {
    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "nora@example.org", password: "buyer-pass-1" });

    // The order page checks what the customer typed.
    await openOrderForm(page, "Standard");
    await main(page).getByRole("button", { name: "Place Order Now" }).click();
    await expect.poll(() => main(page).getByText("Full name is required").count()).toBe(1);
    expect(await main(page).getByLabel("Package").inputValue()).toBe("Standard");
    expect(await main(page).getByLabel("Email", { exact: true }).inputValue()).toBe("nora@example.org");

    const id = await order(page, "Standard");
    const [{ number }] = (await env.db.pool.query("select number from orders where id = $1", [id])).rows;
    expect(number).toMatch(/^AN-\d{4}-\d{5}$/);
    await expect.poll(() => main(page).textContent()).toContain(number);
    await main(page).getByRole("link", { name: "Pay Now" }).click();
    await page.waitForURL((u) => u.pathname === `/pay-now/${id}`);
    await expect.poll(() => page.getByTestId("amount").textContent()).toMatch(/^\$\d+\.\d{2} USD$/);
    expect(await main(page).getByText("Test mode: this site uses the built-in PayPal simulator").count()).toBe(1);

    const amount = await page.getByTestId("amount").textContent();
    await toPayPal(page, id, { open: false });
    // PayPal's approval page asks for the server's price.
    expect(await page.getByTestId("total").textContent()).toBe(amount);
    await chooseInPayPal(page, id);
    // Captured on return; the page shows it.
    await expect
      .poll(() => page.getByTestId("payment-state").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("Paid");
    // Paid, not yet delivered: the truth, and what happens next.
    expect(await page.locator("h1").textContent()).toBe("Payment received, waiting for activation");
    expect(await page.getByTestId("next-step").textContent()).toContain("The studio activates your membership shortly");

    await page.goto("/dashboard");
    expect(await page.getByTestId("membership-banner").getAttribute("data-state")).toBe("waiting");
    expect(await page.getByTestId("membership-banner").textContent()).toContain(
      "Payment received, waiting for activation",
    );
    expect(await page.getByTestId("membership-banner").textContent()).not.toContain("No Active Membership");

    await adminApi(`/api/order-status/${id}`, { orderStatus: "Delivered" });
    await page.goto("/dashboard");
    const banner = page.getByTestId("membership-banner");
    expect(await banner.getAttribute("data-state")).toBe("active");
    expect(await banner.textContent()).toMatch(/Standard.*30 days left.*Ends on/);
    const price = (await env.db.pool.query("select package_price from orders where id = $1", [id])).rows[0]
      .package_price;
    expect(await page.getByTestId("total-spent").textContent()).toBe(
      `My Orders (Total Spent $ ${Number(price).toFixed(2)} USD)`,
    );
    expect(await page.getByTestId("dashboard-orders").textContent()).toMatch(/Expires At/);
    await page.context().close();
  });

  it("the order form posted twice with its one-time key (a retry, a script, no JavaScript) places one order", async () => {
    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "twice@example.org", password: "buyer-pass-1" });
    await openOrderForm(page, "Basic");
    const key = await page.locator('input[name="idempotencyKey"]').inputValue();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // The plain form post a browser without scripts sends, twice at the same instant.
    const post = () =>
      page.request.post(page.url(), {
        form: {
          idempotencyKey: key,
          customerName: "Tess Twice",
          customerAddress: "4 Mill Yard, York",
          customerCountry: "United Kingdom",
        },
        headers: { origin: env.server.url },
        maxRedirects: 0,
      });
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((a) => a.status())).toEqual([302, 302]);
    const [first, second] = answers.map((a) => a.headers()["location"]);
    expect(first).toMatch(/^\/pending-order\?order=/);
    expect(second).toBe(first);
    const { rows } = await env.db.pool.query("select count(*)::int as n from orders where customer_email = $1", [
      "twice@example.org",
    ]);
    expect(rows[0].n).toBe(1);
    // A new visit of the form is a new order.
    await page.reload();
    expect(await page.locator('input[name="idempotencyKey"]').inputValue()).not.toBe(key);
    await page.context().close();
  });

  it("cancelling on PayPal's page marks the order Cancelled and lands on the dashboard", async () => {
    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "cancel@example.org", password: "buyer-pass-1" });
    const id = await order(page, "Basic");
    await toPayPal(page, id);
    await chooseInPayPal(page, id, "Cancel and return to the merchant");
    await expect.poll(() => page.locator("h1").textContent()).toBe("You have cancelled the payment");
    await page.waitForURL((u) => u.pathname === "/dashboard", { timeout: 10_000 });
    expect(
      (await env.db.pool.query("select payment_status from orders where id = $1", [id])).rows[0].payment_status,
    ).toBe("Cancelled");
    await expect.poll(() => page.getByTestId("dashboard-orders").textContent()).toContain("Order Cancelled");

    // A cancelled order cannot be paid any more.
    await page.goto(`/pay-now/${id}`);
    expect(await main(page).getByRole("button", { name: "Pay Now With PayPal" }).count()).toBe(0);
    expect(await main(page).textContent()).toContain("This order was cancelled and cannot be paid.");
    await page.context().close();
  });

  it("paginates at 4 orders: 3 on the dashboard, the 4th on page 2; My Orders shows 5 a page", async () => {
    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "many@example.org", password: "buyer-pass-1" });
    for (let i = 0; i < 4; i++) await order(page, "Basic");
    await page.goto("/dashboard");
    const table = page.getByTestId("dashboard-orders");
    expect(await table.locator("tbody tr").count()).toBe(3);
    expect(await table.getByRole("navigation", { name: "Pages" }).count()).toBe(1);
    await table.getByRole("link", { name: "2", exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);

    await page.goto("/my-order");
    expect(await page.getByTestId("my-orders").locator("tbody tr").count()).toBe(4);
    expect(await page.getByTestId("my-orders").getByRole("navigation", { name: "Pages" }).count()).toBe(0);
    expect(await page.getByTestId("pending-orders").getByRole("link", { name: "Pay Now" }).count()).toBe(4);

    // Another customer's order is not found.
    const stranger = await newPage(env.browser, env.server.url);
    await register(stranger, { email: "stranger@example.org", password: "buyer-pass-1" });
    const mine = (
      await env.db.pool.query(
        "select o.id from orders o join \"user\" u on u.id = o.user_id where u.email = 'many@example.org' limit 1",
      )
    ).rows[0].id;
    const res = await stranger.goto(`/pay-now/${mine}`);
    expect(res!.status()).toBe(404);
    await stranger.context().close();

    // With three or fewer orders the dashboard shows no pagination.
    const few = await newPage(env.browser, env.server.url);
    await register(few, { email: "few@example.org", password: "buyer-pass-1" });
    await order(few, "Basic");
    await few.goto("/dashboard");
    expect(await few.getByTestId("dashboard-orders").getByRole("navigation", { name: "Pages" }).count()).toBe(0);
    await few.context().close();
    await page.context().close();
  });
});
