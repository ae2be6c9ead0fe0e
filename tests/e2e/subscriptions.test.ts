import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "../../domain/dates";
import { DAY_MS } from "../../domain/membership";
import { AUTO_RENEW_REFUSED, nextPaymentDate } from "../../domain/subscription";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, placeOrder, register, setOrderStatus, subscribeInSimulator, toast } from "../support/pages";

/**
 * Issue 27 with the PayPal simulator: the studio makes Basic renew automatically; a customer subscribes, is active,
 * the next period's payment extends by exactly one period (a replay does not), the customer cancels, the time paid
 * for remains, no renewal follows.
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
  it("subscribe, renew once (not on a replay), cancel: the time paid for remains and nothing renews", async () => {
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
    await subscribeInSimulator(customer, id, validity, async () => {
      expect(await customer.getByTestId("period").textContent()).toBe(`${validity} days`);
    });
    const sub = await env.db.pool.query("select subscr_id, status, user_id from subscriptions where order_id = $1", [
      id,
    ]);
    expect(sub.rows).toEqual([expect.objectContaining({ status: "active" })]);
    const { user_id: userId, subscr_id: subscrId } = sub.rows[0];
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
    expect(await main(customer).getByRole("link", { name: "Open the PayPal simulator" }).getAttribute("href")).toBe(
      "/paypal-simulator",
    );

    // PayPal's next period: exactly one period more.
    await customer.goto("/paypal-simulator");
    const held = customer.getByTestId("sim-subscription");
    await held.getByRole("button", { name: "Next payment" }).click();
    await expect.poll(async () => (await ends(userId)).n, { timeout: 15_000 }).toBe(2);
    const renewed = await ends(userId);
    expect(renewed.ends.getTime() - first.ends.getTime()).toBe(validity * DAY_MS);
    await customer.goto("/dashboard");
    expect(await endLine()).toBe(renews(2));

    // PayPal sends the same notification again: nothing more.
    const {
      rows: [applied],
    } = await env.db.pool.query(
      "select raw from payment_notices where outcome = 'applied' and raw like '%txn_type=subscr_payment%' and raw like $1 order by received_at desc limit 1",
      [`%${subscrId}%`],
    );
    const replay = await fetch(`${env.server.url}/api/paypal/ipn`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: applied.raw,
    });
    expect(replay.status).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await env.db.pool.query("select outcome from payment_notices where raw = $1 order by received_at", [
              applied.raw,
            ])
          ).rows.map((r) => r.outcome),
        { timeout: 15_000 },
      )
      .toEqual(["applied", "duplicate"]);
    expect(await ends(userId)).toEqual(renewed);

    // The customer cancels: the time paid for remains, the simulator offers no more payments, nothing renews.
    await customer.goto("/paypal-simulator");
    await customer.getByTestId("sim-subscription").getByRole("button", { name: "Cancel" }).click();
    await expect
      .poll(
        async () =>
          (await env.db.pool.query("select status from subscriptions where subscr_id = $1", [subscrId])).rows[0].status,
        { timeout: 15_000 },
      )
      .toBe("cancelled");
    await customer.goto("/paypal-simulator");
    expect(await customer.getByTestId("sim-subscription").getByRole("button", { name: "Next payment" }).count()).toBe(
      0,
    );
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
