import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, placeOrder, register, renewAutomatically, setOrderStatus, subscribeInSimulator } from "../support/pages";

/**
 * Issue 27, part 5 with the PayPal simulator: a customer subscribes; the studio sees it on the customer's record, on
 * the orders desk and on the order screen, marks it cancelled (the customer called), and PayPal's next payment, which
 * the simulator still takes, renews nothing.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E({ TZ: "Europe/London" })));
afterAll(() => env?.close());

const paidDays = async (userId: string) =>
  (
    await env.db.pool.query(
      "select max(membership_valid) as ends, count(*)::int as n from orders where user_id = $1 and payment_status = 'Paid'",
      [userId],
    )
  ).rows[0] as { ends: Date; n: number };

describe("the studio and a customer's subscription", () => {
  it("sees it, marks it cancelled; the next payment PayPal takes renews nothing", async () => {
    const {
      rows: [basic],
    } = await env.db.pool.query(
      "select id, data from content_entries where type = 'pricing' and data->>'packageName' = 'Basic'",
    );
    const validity = Number(basic.data.packageValidity);
    await renewAutomatically(admin, basic.id);

    // The customer subscribes in the simulator; the studio delivers the order.
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "phone@example.org", password: "phone-pass-123" });
    const id = await placeOrder(customer, { packageName: "Basic", name: "Pat Phone" });
    await subscribeInSimulator(customer, id, validity);
    await setOrderStatus(admin, id, "Order Status", "Delivered");
    const {
      rows: [sub],
    } = await env.db.pool.query("select id, subscr_id, user_id from subscriptions where order_id = $1", [id]);

    // The orders desk marks the order that started it; the order screen says where it stands.
    await admin.goto(`/total-orders?q=${id}`);
    expect(await main(admin).getByTestId("order-subscription").textContent()).toBe("Subscription");
    const deskFacts = await main(admin).getByTestId("order-subscription-facts").textContent();
    expect(deskFacts).toContain("Renews automatically · 1 payment so far · next payment ");
    await admin.goto(`/admin/payment-status/${id}`);
    const onOrder = await main(admin).getByTestId("order-subscription").textContent();
    expect(onOrder).toContain("Renews automatically");
    expect(onOrder).toContain("1 payment so far");
    expect(onOrder).toContain("next payment");

    // The customer's record lists it; the studio marks it cancelled on the confirmation page.
    await admin.goto(`/customers/${sub.user_id}`);
    const block = main(admin).getByTestId("customer-subscriptions");
    expect(await block.textContent()).toContain(`Basic · $`);
    expect(await block.textContent()).toContain("1 payment so far");
    await block.getByRole("link", { name: "Mark cancelled: the Basic subscription" }).click();
    await admin.waitForURL((u) => u.pathname === `/subscriptions/${sub.id}/cancel`);
    const confirm = main(admin).getByTestId("subscription-cancel");
    expect(await confirm.textContent()).toContain("They keep the time already paid for.");
    // The simulator is no real PayPal: no need to tell it.
    expect(await main(admin).getByTestId("tell-paypal").count()).toBe(0);
    await main(admin).getByRole("button", { name: "Mark cancelled" }).click();
    await expect
      .poll(() => main(admin).getByText("Subscription marked cancelled.").count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(await main(admin).getByRole("button", { name: "Mark cancelled" }).count()).toBe(0);
    await admin.goto(`/customers/${sub.user_id}`);
    const after = await main(admin).getByTestId("customer-subscriptions").textContent();
    expect(after).toContain("Cancelled");
    expect(after).toContain("by admin@");
    expect(
      await main(admin)
        .getByRole("link", { name: /Mark cancelled: the Basic subscription/ })
        .count(),
    ).toBe(0);

    // PayPal was not told (the simulator still shows it active): its next payment is refused, no day is added.
    const before = await paidDays(sub.user_id);
    await customer.goto("/paypal-simulator");
    await customer.getByTestId("sim-subscription").getByRole("button", { name: "Next payment" }).click();
    const outcomes = () =>
      env.db.pool
        .query(
          "select outcome from payment_notices where raw like '%txn_type=subscr_payment%' and raw like $1 order by received_at",
          [`%${sub.subscr_id}%`],
        )
        .then((r) => r.rows.map((x) => x.outcome));
    await expect.poll(() => outcomes(), { timeout: 15_000 }).toEqual(["applied", "refused"]);
    expect(await paidDays(sub.user_id)).toEqual(before);
  });
});
