import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import {
  SIMULATOR_APPROVE_ORDER_PATH,
  SIMULATOR_APPROVE_SUBSCRIPTION_PATH,
} from "#server/services/payments/paypal/simulator.ts";

/** What people see on the site's pages, and what they do there, written once for every browser test. */

/** The page's own content (its main landmark), apart from the header, the footer and the back office's navigation. */
export const main = (page: Page) => page.getByRole("main");

/** The page's heading. */
export const heading = (page: Page) => page.locator("h1");

/** A status with this text: a toast, or a form's line saying what happened. */
export const toast = (scope: Page | Locator, text: string) => scope.getByRole("status").filter({ hasText: text });

/** Who signs in or registers. */
export interface Who {
  email: string;
  password: string;
}

/** Fills in the login form of the page that is open (whatever its redirectTo) and submits it. */
export async function submitLogin(page: Page, who: Who) {
  await main(page).getByLabel("Email", { exact: true }).fill(who.email);
  await main(page).getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Login" }).click();
}

/** Signs in through the login page, as a person would. */
export async function logIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await submitLogin(page, { email, password });
  await page.waitForURL((url) => url.pathname !== "/login");
}

/** Registers through the register page, as a person would: a new customer, signed in, on / (spec 1). */
export async function register(page: Page, who: Who) {
  await page.goto("/register");
  await main(page).getByLabel("Email", { exact: true }).fill(who.email);
  await main(page).getByLabel("Password", { exact: true }).fill(who.password);
  await main(page).getByLabel("I accept the terms and the privacy notice").check();
  await main(page).getByRole("button", { name: "Register" }).click();
  await page.waitForURL((u) => u.pathname === "/");
}

/** The back office's side navigation (app/components/back-office/SideNav.tsx). */
export const backOfficeNav = (page: Page) => page.getByRole("navigation", { name: "Back office" });

/** The labels of the back office's navigation entries, in order, without their counts ("To deliver", not "To deliver3"). */
export const backOfficeNavLabels = (page: Page) =>
  backOfficeNav(page)
    .locator("[data-nav-label]")
    .allTextContents()
    .then((labels) => labels.map((l) => l.trim()));

/** Opens the back office's navigation when it is behind the Menu button (small screens); nothing otherwise. */
export async function openBackOfficeMenu(page: Page) {
  const menu = page.getByTestId("back-office-menu");
  if ((await menu.isVisible()) && (await menu.getAttribute("open")) === null) await menu.locator("summary").click();
}

/**
 * Opens section `label` of the back office from its navigation, as a person would: on a small screen the navigation
 * is behind the Menu button, which is opened first. Waits for the section's address.
 */
export async function openBackOfficeSection(page: Page, label: string) {
  const nav = backOfficeNav(page);
  const entry = nav
    .getByRole("link")
    .filter({ has: page.locator("[data-nav-label]").getByText(label, { exact: true }) })
    .first();
  await openBackOfficeMenu(page);
  const href = (await entry.getAttribute("href"))!;
  await entry.click();
  await page.waitForURL((u) => u.pathname + u.search === href || u.pathname === href);
}

/** A signed-in customer goes from /pricing, by the plan's card (the first one unless named), to its order form. */
export async function openOrderForm(page: Page, packageName?: string) {
  await page.goto("/pricing");
  const cards = page.getByTestId("pricing-card");
  const card = packageName ? cards.filter({ has: page.getByRole("heading", { name: packageName }) }) : cards.first();
  await card.getByRole("link").click();
  await page.waitForURL((u) => u.pathname.startsWith("/order-now/"));
}

/** The customer (signed in) orders a package from the pricing page, as a person does: the new unpaid order's id. */
export async function placeOrder(
  page: Page,
  {
    packageName,
    name = "Maya North",
    address = "7 Orchard Lane, York",
  }: { packageName?: string; name?: string; address?: string },
): Promise<string> {
  await openOrderForm(page, packageName);
  await main(page).getByLabel("Full Name").fill(name);
  await main(page).getByLabel("Address").fill(address);
  await main(page).getByLabel("Country").fill("United Kingdom");
  await main(page).getByRole("button", { name: "Place Order Now" }).click();
  await page.waitForURL((u) => u.pathname === "/pending-order");
  return new URL(page.url()).searchParams.get("order")!;
}

/** The buttons of PayPal's approval page as the simulator draws it (app/routes/public/paypal-checkout.tsx). */
export type PayPalChoice =
  | "Pay with PayPal"
  | "Pay by card as a guest"
  | "Payment pending"
  | "Payment denied"
  | "Cancel and return to the merchant";

/**
 * "Pay Now With PayPal" on the order's pay page (opened first unless `open: false`, when the test came there by a
 * link): our server makes the PayPal order and sends the browser to PayPal's approval page, the simulator's here.
 */
export async function toPayPal(page: Page, id: string, { open = true }: { open?: boolean } = {}) {
  if (open) await page.goto(`/pay-now/${id}`);
  await main(page).getByRole("button", { name: "Pay Now With PayPal" }).click();
  await page.waitForURL((u) => u.pathname === SIMULATOR_APPROVE_ORDER_PATH);
}

/** A button on PayPal's approval page; PayPal sends the buyer back to the order's return (or cancel) address. */
export async function chooseInPayPal(page: Page, id: string, choice: PayPalChoice = "Pay with PayPal") {
  await page.getByRole("button", { name: choice, exact: true }).click();
  const back = choice.startsWith("Cancel") ? `/order-cancelled/${id}` : `/received-payment/${id}`;
  await page.waitForURL((u) => u.pathname === back);
}

/**
 * The customer pays an unpaid order the PayPal Checkout way (pay page, approval page, return) and waits until the
 * payment shows as received. `choice`: with a PayPal account (the default) or by card as a guest.
 */
export async function payInSimulator(
  page: Page,
  id: string,
  {
    choice = "Pay with PayPal",
    open = true,
  }: { choice?: "Pay with PayPal" | "Pay by card as a guest"; open?: boolean } = {},
) {
  await toPayPal(page, id, { open });
  await chooseInPayPal(page, id, choice);
  await expect
    .poll(() => page.getByTestId("payment-state").getAttribute("data-status"), { timeout: 15_000 })
    .toBe("Paid");
}

/** The admin sets one of an order's statuses on its page, as the studio does. */
export async function setOrderStatus(admin: Page, id: string, field: "Payment Status" | "Order Status", value: string) {
  await admin.goto(`/admin/payment-status/${id}`);
  await main(admin).getByLabel(field).selectOption(value);
  await main(admin)
    .getByRole("button", { name: `Update ${field}` })
    .click();
  await expect.poll(() => toast(admin, `${field} Updated Successfully!`).count()).toBeGreaterThan(0);
}

/** The studio ticks "Renews automatically" on a package's pricing record (decision 046) and saves it. */
export async function renewAutomatically(admin: Page, packageId: string) {
  await admin.goto(`/package-edit/${packageId}`);
  await main(admin).getByLabel("Renews automatically (PayPal subscription)").check();
  await main(admin).getByRole("button", { name: "Update Pricing Package" }).click();
  await expect.poll(() => toast(admin, "Pricing is Updated").count()).toBeGreaterThan(0);
}

/**
 * The customer subscribes to an unpaid order from its pay page (a package that renews every `validity` days): our
 * server starts the subscription on PayPal's Subscriptions API and sends the browser to the simulator's approval page
 * (`onSimulator` checks it), where they agree; back on the return page, they wait until the first payment shows as
 * received. Answers PayPal's subscription id.
 */
export async function subscribeInSimulator(
  page: Page,
  id: string,
  validity: number,
  onSimulator: () => Promise<void> = async () => {},
): Promise<string> {
  await page.goto(`/pay-now/${id}`);
  await main(page)
    .getByRole("button", { name: `Subscribe with PayPal: renews every ${validity} days` })
    .click();
  await page.waitForURL((u) => u.pathname === SIMULATOR_APPROVE_SUBSCRIPTION_PATH);
  const subscriptionId = new URL(page.url()).searchParams.get("subscription_id")!;
  await onSimulator();
  await page.getByRole("button", { name: "Agree and subscribe", exact: true }).click();
  await page.waitForURL((u) => u.pathname === `/received-payment/${id}`);
  await expect
    .poll(() => page.getByTestId("payment-state").getAttribute("data-status"), { timeout: 15_000 })
    .toBe("Paid");
  return subscriptionId;
}

/** What PayPal does later to a subscription, played on the simulator's subscription page (its buttons). */
export type PayPalLater = "Next payment" | "Payment fails" | "Suspend" | "End of term" | "Cancel in PayPal";

/** Opens the simulator's page of a PayPal subscription and presses one of its buttons; its webhook follows. */
export async function inPayPalSubscription(page: Page, subscriptionId: string, button: PayPalLater) {
  await page.goto(`${SIMULATOR_APPROVE_SUBSCRIPTION_PATH}?subscription_id=${subscriptionId}`);
  await page.getByRole("button", { name: button, exact: true }).click();
  await expect.poll(() => page.getByTestId("sim-done").count(), { timeout: 15_000 }).toBe(1);
}
