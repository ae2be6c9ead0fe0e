import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MY_ACCOUNT_MESSAGES } from "#domain/my-account-forms.ts";
import { newPage } from "../support/browser";
import { startE2E, type E2EEnv } from "../support/e2e";
import { linkOf, outbox } from "../support/mail";
import { heading, logIn, main, register } from "../support/pages";

/**
 * My account in Chromium (issue 25, part 1): a customer finds it from the header, changes their name, their email
 * (both mails; the link followed from the mail) and their password, and a second browser signed in to the same
 * account is signed out by it; the sessions page lists both browsers and signs one out.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const OLD = { email: "robin@example.org", password: "lantern-harbour-58" };
const NEW_EMAIL = "robin.new@example.net";
const NEW_PASSWORD = "meadow-copper-violin-3";
const path = (page: Page) => new URL(page.url()).pathname;
const mailsTo = (email: string, subject: string) =>
  outbox(env.server.dataDir).filter((m) => m.to[0] === email && m.subject === subject);
/** Whether a browser's session still opens the dashboard (an ended one is sent to the login page). */
async function opensDashboard(page: Page) {
  await page.goto("/dashboard");
  return path(page) === "/dashboard";
}

describe("my account", () => {
  let customer: Page;

  it("is linked from the header; the name is changed there and greets the customer on the dashboard", async () => {
    customer = await newPage(env.browser, env.server.url);
    await register(customer, OLD);
    await customer.goto("/dashboard");
    await customer.getByRole("banner").getByRole("link", { name: "My account" }).first().click();
    await customer.waitForURL((u) => u.pathname === "/account");
    // A client-side navigation: the address changes a moment before the page is drawn.
    await expect.poll(() => heading(customer).textContent()).toBe("Profile");
    const nav = customer.getByRole("navigation", { name: "My account" });
    expect((await nav.getByRole("link").allTextContents()).map((t) => t.trim())).toEqual([
      "Profile",
      "Password",
      "Sessions",
      "Two-factor sign-in",
      "Automatic renewal",
      "My data",
      "Delete account",
    ]);
    expect(await nav.getByRole("link", { name: "Profile" }).getAttribute("aria-current")).toBe("page");

    await main(customer).getByLabel("Name", { exact: true }).fill("Robin Hart");
    await main(customer).getByRole("button", { name: "Save name" }).click();
    await expect
      .poll(() => main(customer).getByText(MY_ACCOUNT_MESSAGES.nameSaved).count(), { timeout: 10_000 })
      .toBe(1);
    await customer.goto("/dashboard");
    expect(await heading(customer).textContent()).toContain("Robin Hart");
    // The dashboard links here too.
    await main(customer).getByRole("link", { name: "My account" }).click();
    await customer.waitForURL((u) => u.pathname === "/account");
  });

  it("changes the email only once the link mailed to the new address is followed; the old address is told", async () => {
    await customer.goto("/account");
    await main(customer).getByLabel("New email").fill(NEW_EMAIL);
    await main(customer).getByRole("button", { name: "Send confirmation link" }).click();
    await expect
      .poll(() => main(customer).getByText(MY_ACCOUNT_MESSAGES.emailSent(NEW_EMAIL)).count(), { timeout: 10_000 })
      .toBe(1);

    await expect.poll(() => mailsTo(NEW_EMAIL, "Confirm your new email address").length, { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() => mailsTo(OLD.email, "A change of your account's email was asked").length, { timeout: 20_000 })
      .toBe(1);
    expect(mailsTo(OLD.email, "A change of your account's email was asked")[0]!.raw).toContain(NEW_EMAIL);
    // Not yet changed.
    await customer.reload();
    expect(await main(customer).getByText(OLD.email).count()).toBeGreaterThan(0);

    await customer.goto(linkOf(mailsTo(NEW_EMAIL, "Confirm your new email address")[0]!.raw));
    await customer.waitForURL((u) => u.pathname === "/account/email-confirmed");
    await expect.poll(() => heading(customer).textContent()).toBe("Email address changed");
    expect(await main(customer).getByRole("status").textContent()).toContain(NEW_EMAIL);
    await main(customer).getByRole("link", { name: "Back to my account" }).click();
    await customer.waitForURL((u) => u.pathname === "/account");
    // A client-side navigation: the address changes before the page's content is drawn.
    await expect.poll(() => main(customer).getByText(`You sign in with ${NEW_EMAIL}.`).count()).toBe(1);
  });

  it("changes the password: another browser signed in to the account is signed out", async () => {
    const other = await newPage(env.browser, env.server.url);
    await logIn(other, NEW_EMAIL, OLD.password);
    expect(await opensDashboard(other)).toBe(true);

    // The sessions page lists both browsers, this one marked.
    await customer.goto("/account/sessions");
    const sessions = customer.getByTestId("session");
    expect(await sessions.count()).toBe(2);
    expect(await customer.locator('[data-testid="session"][data-current="true"]').textContent()).toContain(
      "This device",
    );

    await customer.goto("/account/password");
    const form = main(customer);
    await form.getByLabel("Current password").fill("not-my-password-1");
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => form.getByText(MY_ACCOUNT_MESSAGES.currentWrong).count(), { timeout: 10_000 }).toBe(1);
    expect(await opensDashboard(other)).toBe(true);

    await form.getByLabel("Current password").fill(OLD.password);
    await form.getByLabel("New password").fill(NEW_PASSWORD);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => form.getByText(MY_ACCOUNT_MESSAGES.passwordChanged).count(), { timeout: 10_000 }).toBe(1);

    // This browser goes on with a new session; the other is sent to the login page.
    expect(await opensDashboard(customer)).toBe(true);
    expect(await opensDashboard(other)).toBe(false);
    expect(path(other)).toBe("/login");
    await customer.goto("/account/sessions");
    expect(await customer.getByTestId("session").count()).toBe(1);
    await other.close();
  });

  it("signs out another browser from the sessions page", async () => {
    const other = await newPage(env.browser, env.server.url);
    await logIn(other, NEW_EMAIL, NEW_PASSWORD);
    await customer.goto("/account/sessions");
    const row = customer.locator('[data-testid="session"]:not([data-current])');
    expect(await row.count()).toBe(1);
    await row.getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => customer.getByTestId("session").count(), { timeout: 10_000 }).toBe(1);
    expect(await opensDashboard(other)).toBe(false);
    expect(await opensDashboard(customer)).toBe(true);
    await other.close();
  });
});
