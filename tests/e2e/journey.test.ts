import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, PHONE } from "../support/browser";
import { ADMIN, logIn, startE2E, type E2EEnv } from "../support/e2e";
import { ROOT } from "../support/server";
import { payInSimulator } from "../support/pages";
import { WAITING_CARD_TEXT } from "#app/components/ItemsGrid.tsx";

const seoTemplates = JSON.parse(
  readFileSync(path.join(ROOT, "server/catalogue/categories/seo-service.json"), "utf8"),
) as { subject: string }[];

/**
 * The whole product in one story, through the screens only (DESIGN.md, "Tests"), on a fresh install: a visitor picks a
 * plan on the landing page, signs up on the way, orders, pays in the PayPal simulator, the admin delivers the order
 * from the back office, and the new member generates a cold email from the catalogue the first start seeded. The
 * customer is on a phone.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E({ GENERATION_DELAY_MS: "300" });
});
afterAll(() => env?.close());

const main = (page: Page) => page.getByRole("main");
const toast = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

describe("visitor to member", () => {
  it("from the landing page to a generated cold email", async () => {
    const admin = await newPage(env.browser, env.server.url);
    await logIn(admin, ADMIN.email, ADMIN.password);

    // A visitor on a phone chooses Premium on the landing page; ordering needs an account.
    const customer = await newPage(env.browser, env.server.url, { viewport: PHONE, isMobile: true, hasTouch: true });
    await customer.goto("/");
    const premium = customer
      .getByTestId("pricing-card")
      .filter({ has: customer.getByRole("heading", { name: "Premium" }) });
    await premium.getByRole("link").click();
    await customer.waitForURL((u) => u.pathname === "/login");
    await main(customer).getByRole("link", { name: "Sign Up" }).click();
    await customer.waitForURL((u) => u.pathname === "/register");
    await main(customer).getByLabel("Email", { exact: true }).fill("journey@example.org");
    await main(customer).getByLabel("Password", { exact: true }).fill("journey-pass-1");
    await main(customer).getByLabel("I accept the terms and the privacy notice").check();
    await main(customer).getByRole("button", { name: "Register" }).click();
    // The plan chosen before signing up is where registration lands (issue 28; any other page lands on /).
    await customer.waitForURL((u) => u.pathname.startsWith("/order-now/"));
    // The address changes before React has drawn the new page (the navigation renders in a transition).
    await expect.poll(() => customer.locator("h1").textContent()).toBe("Get started with our Premium Plan today.");
    await main(customer).getByLabel("Full Name").fill("Jo Journey");
    await main(customer).getByLabel("Address").fill("3 Wharf Street, Leeds");
    await main(customer).getByLabel("Country").fill("United Kingdom");
    await main(customer).getByRole("button", { name: "Place Order Now" }).click();
    await customer.waitForURL((u) => u.pathname === "/pending-order");
    const orderId = new URL(customer.url()).searchParams.get("order")!;

    await main(customer).getByRole("link", { name: "Pay Now" }).click();
    await customer.waitForURL((u) => u.pathname === `/pay-now/${orderId}`);
    await payInSimulator(customer, orderId, { open: false });

    // Paid, not yet delivered: the items stay locked, and the customer is told the payment arrived.
    await customer.goto("/dashboard");
    expect(await customer.getByTestId("membership-banner").getAttribute("data-state")).toBe("waiting");
    // The seeded catalogue: one item per category, locked, each saying it opens once the membership is activated.
    expect(await customer.getByTestId("items-grid").getByText(WAITING_CARD_TEXT).count()).toBe(5);

    // The admin finds the order on the dashboard and delivers it.
    await admin.goto("/admin");
    const row = main(admin).getByRole("row").filter({ hasText: "journey@example.org" });
    expect(await row.textContent()).toContain("Paid");
    await row.getByRole("link", { name: "Update Order" }).click();
    await admin.waitForURL((u) => u.pathname === `/admin/payment-status/${orderId}`);
    await main(admin).getByLabel("Order Status").selectOption("Delivered");
    await main(admin).getByRole("button", { name: "Update Order Status" }).click();
    await expect.poll(() => toast(admin, "Order Status Updated Successfully!").count()).toBeGreaterThan(0);

    // The member's dashboard is active; the item opens and writes an email from its category.
    await customer.goto("/dashboard");
    const banner = customer.getByTestId("membership-banner");
    expect(await banner.getAttribute("data-state")).toBe("active");
    expect(await banner.textContent()).toContain("Premium");
    const card = customer.getByTestId("item-card").filter({ hasText: "SEO Service Cold Emails" });
    await card.getByRole("link", { name: "Access" }).click();
    await customer.waitForURL((u) => u.pathname.startsWith("/item/"));
    await expect.poll(() => customer.locator("h1").textContent()).toBe("Generate SEO Service Cold Emails");
    await main(customer).getByRole("button", { name: "Generate" }).click();
    const results = customer.getByTestId("generated");
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(1);
    // From the seeded item's category.
    const subjects = seoTemplates.map((t) => t.subject);
    expect(subjects).toContain(await results.getByTestId("email-subject").textContent());
    expect((await results.getByTestId("email-body").textContent())!.length).toBeGreaterThan(200);

    // The activity log tells the story from the admin's side.
    await admin.goto("/activity");
    const log = (await main(admin).textContent())!;
    expect(log).toContain("Delivered");
    await admin.context().close();
    await customer.context().close();
  });
});
