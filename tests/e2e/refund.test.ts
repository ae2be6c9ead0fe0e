import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "#domain/dates.ts";
import { DAY_MS } from "#domain/membership.ts";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox } from "../support/mail";
import { main, placeOrder, setOrderStatus, toast } from "../support/pages";

/**
 * The refund that once left paid days granted: a customer paid for Premium (not delivered), then bought Standard,
 * which was delivered; the studio refunded Premium. Every screen and the next mail must say Standard's 30 days.
 */
const TZ = "Europe/London";
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E({ TZ })));
afterAll(() => env?.close());

describe("a refund of another order", () => {
  it("leaves Standard at 30 days on the dashboard, My Orders, the order detail and in the next mail", async () => {
    const customer = await newPage(env.browser, env.server.url);
    await customer.goto("/register");
    await main(customer).getByLabel("Email", { exact: true }).fill("rae@example.org");
    await main(customer).getByLabel("Password", { exact: true }).fill("rae-pass-12");
    await main(customer).getByLabel("I accept the terms and the privacy notice").check();
    await main(customer).getByRole("button", { name: "Register" }).click();
    await customer.waitForURL((u) => u.pathname === "/");

    const premium = await placeOrder(customer, {
      packageName: "Premium",
      name: "Rae Refund",
      address: "2 Dock Road, Hull",
    });
    await setOrderStatus(admin, premium, "Payment Status", "Paid");
    // Paid, not delivered: it waits, and uses none of its days.
    await expect
      .poll(() => toast(admin, "The membership starts when the order is set Delivered.").count())
      .toBeGreaterThan(0);

    const standard = await placeOrder(customer, {
      packageName: "Standard",
      name: "Rae Refund",
      address: "2 Dock Road, Hull",
    });
    await setOrderStatus(admin, standard, "Payment Status", "Paid");
    await setOrderStatus(admin, standard, "Order Status", "Delivered");
    await expect
      .poll(() => toast(admin, "Membership validity has been calculated and set!").count())
      .toBeGreaterThan(0);
    await setOrderStatus(admin, premium, "Payment Status", "Refunded");

    const [row] = (
      await env.db.pool.query(
        "select number, package_validity, delivered_at, membership_starts, membership_valid from orders where id = $1",
        [standard],
      )
    ).rows;
    expect(row.package_validity).toBe(30);
    expect(row.membership_valid.getTime() - row.membership_starts.getTime()).toBe(30 * DAY_MS);
    expect(row.membership_starts.getTime()).toBe(row.delivered_at.getTime());
    const until = longDate(row.membership_valid, TZ);

    await customer.goto("/dashboard");
    const banner = customer.getByTestId("membership-banner");
    expect(await banner.getAttribute("data-state")).toBe("active");
    expect(await banner.textContent()).toContain("Standard");
    expect(await banner.textContent()).toContain("30 days left");
    expect(await banner.textContent()).toContain(`Ends on ${until}`);
    expect(await customer.getByTestId("dashboard-orders").textContent()).toContain(row.number);

    await customer.goto("/my-order");
    const mine = await main(customer).textContent();
    expect(mine).toContain(row.number);
    expect(mine).toContain(`You Have Paid30 days, until ${until}`);
    expect(mine).not.toContain(longDate(new Date(row.membership_valid.getTime() + 30 * DAY_MS), TZ));

    await admin.goto(`/admin/payment-status/${standard}`);
    const details = await admin.getByTestId("order-details").textContent();
    expect(details).toContain(row.number);
    expect(details).toContain(until);
    await admin.goto(`/admin/payment-status/${premium}`);
    expect(await admin.getByTestId("order-details").textContent()).toMatch(/Refunded.*Not Set/s);

    // The next mail: the refund's, naming Premium and the membership's end now.
    await expect
      .poll(() => outbox(env.server.dataDir).filter((m) => /was refunded/.test(m.subject)).length, { timeout: 15_000 })
      .toBe(1);
    const mail = outbox(env.server.dataDir).find((m) => /was refunded/.test(m.subject))!;
    const text = mail.raw.replace(/=\r?\n/g, "");
    expect(text).toContain(`Valid until ${until}`);
    await customer.context().close();
  });
});
