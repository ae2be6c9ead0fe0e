import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, placeOrder, register } from "../support/pages";

/**
 * Issue 34 part 5 (decision 069): a subscription started on Payments Standard keeps renewing through the IPN listener,
 * now part of the payments module. It is started by posting the Subscribe form's fields straight to the IPN
 * simulator (not through the pay screen's button, which the Subscriptions API replaces); the simulator's "Next
 * payment" sends each renewal as PayPal's IPN. The customer's /account/subscriptions and the order screen show it.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

describe("a legacy Standard subscription", () => {
  it("renews through IPN: started on the simulator, two renewals, shown to the customer and on the order screen", async () => {
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "legacy@example.org", password: "legacy-pass-123" });
    const id = await placeOrder(customer, { packageName: "Basic", name: "Lee Legacy" });
    const {
      rows: [order],
    } = await env.db.pool.query("select number, package_price, package_validity from orders where id = $1", [id]);
    const price = Number(order.package_price).toFixed(2);
    const receiver = (
      await env.db.pool.query(
        "select coalesce((select paypal_email from payment_accounts order by created_at limit 1), '') as r",
      )
    ).rows[0].r as string;

    // The Subscribe form as Payments Standard's button posted it, sent by the browser to the IPN simulator's page.
    const base = env.server.url;
    const fields: Record<string, string> = {
      cmd: "_xclick-subscriptions",
      // PAYPAL_RECEIVER_EMAIL's default for a loopback PUBLIC_URL when no payment account is set.
      business: receiver || "payments@example.com",
      item_name: `${order.number}: Basic membership (renews every ${order.package_validity} days)`,
      item_number: "1",
      currency_code: "USD",
      no_shipping: "1",
      charset: "utf-8",
      custom: id,
      invoice: id,
      notify_url: `${base}/api/paypal/ipn`,
      return: `${base}/received-payment/${id}`,
      cancel_return: `${base}/order-cancelled/${id}`,
      rm: "1",
      a3: price,
      p3: String(order.package_validity),
      t3: "D",
      src: "1",
      sra: "1",
      no_note: "1",
      intent: "pay",
    };
    await customer.goto("/paypal-simulator");
    await customer.evaluate((f) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = "/paypal-simulator";
      for (const [name, value] of Object.entries(f)) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    }, fields);
    await customer.waitForURL((u) => u.pathname === `/received-payment/${id}`);
    await expect
      .poll(() => customer.getByTestId("payment-state").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("Paid");

    // PayPal takes the next two periods: each arrives as an IPN message and renews once.
    const renewals = async () =>
      (
        await env.db.pool.query(
          "select count(*)::int as n from orders o join subscriptions s on s.subscr_id = o.subscr_id where s.order_id = $1 and o.payment_status = 'Paid'",
          [id],
        )
      ).rows[0].n as number;
    for (const n of [1, 2]) {
      await customer.goto("/paypal-simulator");
      const held = main(customer).getByTestId("sim-subscription");
      await expect.poll(() => held.count()).toBe(1);
      await held.getByRole("button", { name: "Next payment" }).click();
      await customer.waitForURL((u) => u.pathname === "/paypal-simulator");
      await expect.poll(renewals, { timeout: 15_000 }).toBe(n);
    }
    // Each message's outcome is stored just after its order changed: read once all four are settled.
    const outcomes = async () =>
      (
        await env.db.pool.query(
          "select notice_type, outcome from payment_notices where provider = 'paypal-ipn' and order_id = $1 order by received_at",
          [id],
        )
      ).rows.map((r) => `${r.notice_type} ${r.outcome}`);
    await expect
      .poll(outcomes, { timeout: 15_000 })
      .toEqual([
        "subscription.activated applied",
        "subscription.payment applied",
        "subscription.payment applied",
        "subscription.payment applied",
      ]);

    // The customer's subscriptions: active, three payments so far.
    await customer.goto("/account/subscriptions");
    const listed = main(customer).getByTestId("subscription");
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.getAttribute("data-status")).toBe("active");
    expect(await listed.textContent()).toContain("Payments so far3");

    // The order screen: the subscription with its payments, and PayPal's notifications from the one store.
    await admin.goto(`/admin/payment-status/${id}`);
    await expect.poll(() => main(admin).getByTestId("order-subscription").count()).toBe(1);
    expect(await main(admin).getByTestId("order-subscription").textContent()).toContain("3 payments so far");
    const notifications = main(admin).getByRole("heading", { name: "PayPal notifications" }).locator("..");
    expect(await notifications.getByRole("listitem").count()).toBe(4);
    expect(await notifications.textContent()).toMatch(/renewal: order .* paid/);
  });
});
