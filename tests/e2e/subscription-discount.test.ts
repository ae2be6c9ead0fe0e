import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import {
  inPayPalSubscription,
  main,
  register,
  renewAutomatically,
  subscribeInSimulator,
  toast,
} from "../support/pages";

/**
 * Issue 27, part 6 with the PayPal simulator (decisions 046 and 049): a customer uses a first-period code on a package
 * that renews automatically, subscribes, pays the discounted amount (the plan's trial cycle, decision 070), and the invoice
 * shows the discount; the simulator's next payment creates a renewal at the full price, invoiced without it.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

describe("a discount code on a subscription", () => {
  it("the first payment is the discounted price, the invoice shows it; the next period is the full price", async () => {
    const {
      rows: [basic],
    } = await env.db.pool.query(
      "select id, data from content_entries where type = 'pricing' and data->>'packageName' = 'Basic'",
    );
    const validity = Number(basic.data.packageValidity);
    const full = Number(basic.data.packagePrice);
    const discounted = (Math.round(full * 100) - Math.round(full * 30)) / 100;

    // The studio: Basic renews automatically; a 30% code for the first period only.
    await renewAutomatically(admin, basic.id);
    await admin.goto("/discount-codes");
    const add = main(admin).getByTestId("discount-add");
    await add.getByLabel("Code").fill("FIRSTMONTH");
    await add.getByLabel("Kind").selectOption("percent");
    await add.getByLabel("Value").fill("30");
    await add.getByLabel("For subscriptions").selectOption("first");
    await add.getByRole("button", { name: "Add discount code" }).click();
    await expect.poll(() => toast(admin, "Discount code is added").count()).toBeGreaterThan(0);

    // The customer orders Basic with the code and subscribes.
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "fern-first@example.org", password: "fern-pass-123" });
    await customer.goto(`/order-now/${basic.id}`);
    await main(customer).getByLabel("Full Name").fill("Fern First");
    await main(customer).getByLabel("Address").fill("2 Mill Lane, Hebden Bridge");
    await main(customer).getByLabel("Country").fill("United Kingdom");
    await main(customer).getByLabel("Discount code (optional)").fill("firstmonth");
    await main(customer).getByRole("button", { name: "Place Order Now" }).click();
    await customer.waitForURL((u) => u.pathname === "/pending-order");
    const id = new URL(customer.url()).searchParams.get("order")!;

    await customer.goto(`/pay-now/${id}`);
    expect(await main(customer).getByTestId("amount").textContent()).toBe(`$${discounted.toFixed(2)} USD`);
    expect(await main(customer).getByTestId("subscribe-terms").textContent()).toBe(
      `$${discounted.toFixed(2)} USD now, then $${full.toFixed(2)} USD every ${validity} days until you cancel it. You can cancel it at any time on your account's Automatic renewal page.`,
    );
    // The plan at PayPal: one trial cycle at the discounted price, then the regular one.
    const subscrId = await subscribeInSimulator(customer, id, validity, async () => {
      expect(await customer.getByTestId("trial-cycle").textContent()).toContain(
        `$${discounted.toFixed(2)} USD every ${validity} days`,
      );
      expect(await customer.getByTestId("regular-cycle").textContent()).toContain(
        `$${full.toFixed(2)} USD every ${validity} days`,
      );
    });
    const {
      rows: [order],
    } = await env.db.pool.query("select number, package_price from orders where id = $1", [id]);
    expect(order.package_price).toBe(discounted.toFixed(2));
    const {
      rows: [sub],
    } = await env.db.pool.query("select subscr_id, status from subscriptions where order_id = $1", [id]);
    expect(sub.status).toBe("active");

    // The first payment's invoice: the package at its price, the discount line, the discounted total.
    await customer.goto(`/invoice/${order.number}`);
    const invoice = customer.getByTestId("invoice");
    expect(await invoice.getByTestId("invoice-discount").textContent()).toContain("Discount (code FIRSTMONTH)");
    expect(await invoice.textContent()).toContain(`$${full.toFixed(2)} USD`);
    expect(await invoice.locator("tfoot").textContent()).toContain(`$${discounted.toFixed(2)} USD`);

    // PayPal's next period (the simulator's control): the full price, a renewal order without the code.
    await inPayPalSubscription(customer, subscrId, "Next payment");
    const renewal = async () =>
      (
        await env.db.pool.query(
          "select number, package_price, discount_code, price_before from orders where subscr_id = $1",
          [sub.subscr_id],
        )
      ).rows;
    await expect.poll(async () => (await renewal()).length, { timeout: 15_000 }).toBe(1);
    const [renewed] = await renewal();
    expect(renewed).toMatchObject({ package_price: full.toFixed(2), discount_code: null, price_before: null });
    await customer.goto(`/invoice/${renewed.number}`);
    expect(await customer.getByTestId("invoice").getByTestId("invoice-discount").count()).toBe(0);
    expect(await customer.getByTestId("invoice").locator("tfoot").textContent()).toContain(`$${full.toFixed(2)} USD`);
  }, 180_000);
});
