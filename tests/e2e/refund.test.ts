import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "../../domain/dates";
import { DAY_MS } from "../../domain/membership";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox } from "../support/mail";

/**
 * The refund that once left paid days granted: a customer paid for Premium (not delivered), then bought Standard,
 * which was delivered; the studio refunded Premium. Every screen and the next mail must say Standard's 30 days.
 */
const TZ = "Europe/London";
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E({ TZ })));
afterAll(() => env?.close());

const main = (page: Page) => page.getByRole("main");
const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

async function order(page: Page, packageName: string) {
  await page.goto("/pricing");
  await page
    .getByTestId("pricing-card")
    .filter({ has: page.getByRole("heading", { name: packageName }) })
    .getByRole("link")
    .click();
  await page.waitForURL((u) => u.pathname.startsWith("/order-now/"));
  await main(page).getByLabel("Full Name").fill("Rae Refund");
  await main(page).getByLabel("Address").fill("2 Dock Road, Hull");
  await main(page).getByLabel("Country").fill("United Kingdom");
  await main(page).getByRole("button", { name: "Place Order Now" }).click();
  await page.waitForURL((u) => u.pathname === "/pending-order");
  return new URL(page.url()).searchParams.get("order")!;
}

/** The admin sets a status on the order's page, as the studio does. */
async function setStatus(id: string, field: "Payment Status" | "Order Status", value: string) {
  await admin.goto(`/admin/payment-status/${id}`);
  await main(admin).getByLabel(field).selectOption(value);
  await main(admin)
    .getByRole("button", { name: `Update ${field}` })
    .click();
  await expect.poll(() => toast(admin, `${field} Updated Successfully!`).count()).toBeGreaterThan(0);
}

describe("a refund of another order", () => {
  it("leaves Standard at 30 days on the dashboard, My Orders, the order detail and in the next mail", async () => {
    const customer = await newPage(env.browser, env.server.url);
    await customer.goto("/register");
    await main(customer).getByLabel("Email", { exact: true }).fill("rae@example.org");
    await main(customer).getByLabel("Password", { exact: true }).fill("rae-pass-12");
    await main(customer).getByLabel("I accept the terms and the privacy notice").check();
    await main(customer).getByRole("button", { name: "Register" }).click();
    await customer.waitForURL((u) => u.pathname === "/");

    const premium = await order(customer, "Premium");
    await setStatus(premium, "Payment Status", "Paid");
    // Paid, not delivered: it waits, and uses none of its days.
    await expect
      .poll(() => toast(admin, "The membership starts when the order is set Delivered.").count())
      .toBeGreaterThan(0);

    const standard = await order(customer, "Standard");
    await setStatus(standard, "Payment Status", "Paid");
    await setStatus(standard, "Order Status", "Delivered");
    await expect
      .poll(() => toast(admin, "Membership validity has been calculated and set!").count())
      .toBeGreaterThan(0);
    await setStatus(premium, "Payment Status", "Refunded");

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
    expect(await banner.textContent()).toContain(`Expires ${until}`);
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
