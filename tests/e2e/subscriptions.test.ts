import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "#domain/dates.ts";
import { DAY_MS } from "#domain/membership.ts";
import { AUTO_RENEW_REFUSED, nextPaymentDate } from "#domain/subscription.ts";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import {
  inPayPalSubscription,
  main,
  placeOrder,
  register,
  setOrderStatus,
  subscribeInSimulator,
  toast,
} from "../support/pages";

/**
 * Issue 27 with the PayPal simulator, on PayPal's Subscriptions API since issue 34 (decision 070): the studio makes
 * Basic renew automatically; a customer subscribes, is active, the next period's payment extends by exactly one period
 * (PayPal sending its webhook again does not), the customer cancels in PayPal, the time paid for remains, no renewal
 * follows.
 */
const TZ = "Europe/London";
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E({ TZ })));
afterAll(() => env?.close());

const ends = async (userId: string) =>
  (
    await env.db.pool.query(
      "select max(membership_valid) as ends, count(*)::int as n from orders where user_id = $1 and payment_status = 'Paid' and order_status = 'Delivered'",
      [userId],
    )
  ).rows[0] as { ends: Date; n: number };

describe("a membership that renews itself", () => {
  it("subscribe, renew once (not on a resent webhook), cancel in PayPal: the time paid for remains and nothing renews", async () => {
    const {
      rows: [basic],
    } = await env.db.pool.query(
      "select id, data from content_entries where type = 'pricing' and data->>'packageName' = 'Basic'",
    );
    const validity = Number(basic.data.packageValidity);

    // The studio: a validity PayPal cannot bill is refused for automatic renewal; Basic's own is taken.
    await admin.goto(`/package-edit/${basic.id}`);
    const form = main(admin);
    await form.getByLabel("Renews automatically (PayPal subscription)").check();
    await form.getByLabel("Package Validity (Number only)").fill("100");
    await form.getByRole("button", { name: "Update Pricing Package" }).click();
    await expect.poll(() => main(admin).getByText(AUTO_RENEW_REFUSED).count()).toBeGreaterThan(0);
    await form.getByLabel("Package Validity (Number only)").fill(String(validity));
    await form.getByRole("button", { name: "Update Pricing Package" }).click();
    await expect.poll(() => toast(admin, "Pricing is Updated").count()).toBeGreaterThan(0);

    // The customer subscribes in the simulator.
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "sam@example.org", password: "sam-pass-123" });
    const id = await placeOrder(customer, { packageName: "Basic", name: "Sam Subscriber" });
    const subscrId = await subscribeInSimulator(customer, id, validity, async () => {
      expect(await customer.getByTestId("regular-cycle").textContent()).toContain(`every ${validity} days`);
    });
    const sub = await env.db.pool.query("select subscr_id, status, user_id from subscriptions where order_id = $1", [
      id,
    ]);
    expect(sub.rows).toEqual([expect.objectContaining({ status: "active" })]);
    const { user_id: userId } = sub.rows[0];
    await setOrderStatus(admin, id, "Order Status", "Delivered");
    const first = await ends(userId);
    expect(first.n).toBe(1);
    await customer.goto("/dashboard");
    expect(await customer.getByTestId("membership-banner").getAttribute("data-state")).toBe("active");
    // The dashboard says when PayPal takes the next payment, and how much; /account/subscriptions lists it.
    const {
      rows: [paid],
    } = await env.db.pool.query("select paid_at, package_price from orders where id = $1", [id]);
    const price = `$${Number(paid.package_price).toFixed(2)}`;
    const renews = (payments: number) =>
      `Renews automatically on ${longDate(nextPaymentDate(paid.paid_at, validity, payments)!, TZ)}, ${price}`;
    const endLine = () => customer.getByTestId("membership-end").textContent();
    expect(await endLine()).toBe(renews(1));
    await customer.getByRole("link", { name: "Manage automatic renewal" }).click();
    await customer.waitForURL((u) => u.pathname === "/account/subscriptions");
    const listed = main(customer).getByTestId("subscription");
    // A client-side navigation: the address may change a moment before the page's list is drawn.
    await expect.poll(() => listed.count()).toBe(1);
    expect(await listed.getAttribute("data-status")).toBe("active");
    for (const part of ["Basic", `${price} every ${validity} days`, "Renews automatically", "Payments so far1"])
      expect(await listed.textContent()).toContain(part);
    // It is cancelled here (at PayPal); PayPal's own page is only for subscriptions made with its older button.
    expect(await listed.getByRole("button", { name: "Cancel automatic renewal" }).count()).toBe(1);
    expect(await main(customer).getByTestId("how-to-cancel").count()).toBe(0);

    // PayPal's next period: exactly one period more.
    await inPayPalSubscription(customer, subscrId, "Next payment");
    await expect.poll(async () => (await ends(userId)).n, { timeout: 15_000 }).toBe(2);
    const renewed = await ends(userId);
    expect(renewed.ends.getTime() - first.ends.getTime()).toBe(validity * DAY_MS);
    await customer.goto("/dashboard");
    expect(await endLine()).toBe(renews(2));

    // PayPal sends the same webhook again (a new transmission of the same event): nothing more.
    const {
      rows: [sale],
    } = await env.db.pool.query(
      "select id from paypal_simulator_rest_objects where kind = 'event' and data->>'event_type' = 'PAYMENT.SALE.COMPLETED' and data->'resource'->>'billing_agreement_id' = $1 order by created_at desc limit 1",
      [subscrId],
    );
    await customer.goto(`/paypal-simulator/webapps/billing/subscriptions?subscription_id=${subscrId}`);
    await customer.getByRole("button", { name: "Send the last payment's webhook again" }).click();
    await expect
      .poll(
        async () =>
          (
            await env.db.pool.query("select outcome, times_received from payment_notices where event_id = $1", [
              sale.id,
            ])
          ).rows,
        { timeout: 15_000 },
      )
      .toEqual([{ outcome: "applied", times_received: 2 }]);
    expect(await ends(userId)).toEqual(renewed);

    // The customer cancels in PayPal: the time paid for remains, PayPal takes no more payments, nothing renews.
    await inPayPalSubscription(customer, subscrId, "Cancel in PayPal");
    await expect
      .poll(
        async () =>
          (await env.db.pool.query("select status from subscriptions where subscr_id = $1", [subscrId])).rows[0].status,
        { timeout: 15_000 },
      )
      .toBe("cancelled");
    await customer.goto(`/paypal-simulator/webapps/billing/subscriptions?subscription_id=${subscrId}`);
    expect(await customer.getByRole("button", { name: "Next payment" }).count()).toBe(0);
    expect(await ends(userId)).toEqual(renewed);
    await customer.goto("/dashboard");
    expect(await customer.getByTestId("membership-banner").getAttribute("data-state")).toBe("active");
    expect(await endLine()).toBe(`Ends on ${longDate(renewed.ends, TZ)}`);
    expect(await customer.getByRole("link", { name: "Manage automatic renewal" }).count()).toBe(0);
    await customer.goto("/account/subscriptions");
    expect(await main(customer).getByTestId("subscription").getAttribute("data-status")).toBe("cancelled");
    expect(await main(customer).getByTestId("subscription").textContent()).toContain("Payments so far2");
  });
});
