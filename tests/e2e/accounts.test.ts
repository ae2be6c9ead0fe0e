import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffHome } from "#domain/capabilities.ts";
import { newPage } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { linkOf, outbox } from "../support/mail";
import { heading, logIn, main, submitLogin } from "../support/pages";

let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const header = (page: Page) => page.getByRole("banner");
const headerLinks = async (page: Page) =>
  (await page.getByTestId("header-account").locator("a").allTextContents()).map((t) => t.trim());
const path = (page: Page) => new URL(page.url()).pathname;

describe("accounts in the browser", () => {
  it("register, sign out, sign in; the header follows", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/");
    expect(await headerLinks(page)).toEqual(["Login"]);

    // Registration always lands on / (spec 1), even when the visitor came through the login guard.
    await page.goto("/register?redirectTo=%2Fpricing");
    expect(await heading(page).textContent()).toBe("Welcome! Register to continue");
    // The browser checks first, with the spec's messages; nothing is sent.
    await page.getByLabel("I accept the terms and the privacy notice").check();
    await page.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => page.getByText("Email is Required").count()).toBe(1);
    expect(await page.getByText("Password is Required").count()).toBe(1);
    await main(page).getByLabel("Email", { exact: true }).fill("mira@example.org");
    await main(page).getByLabel("Password", { exact: true }).fill("12345");
    await page.getByLabel("I accept the terms and the privacy notice").check();
    await page.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => page.getByText("Minimum 6 Characters").count()).toBe(1);
    expect(await main(page).getByLabel("Email", { exact: true }).inputValue()).toBe("mira@example.org");

    await main(page).getByLabel("Password", { exact: true }).fill("mira-pass-1");
    await page.getByLabel("I accept the terms and the privacy notice").check();
    await page.getByRole("button", { name: "Register" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await expect.poll(() => headerLinks(page)).toEqual(["Dashboard", "My account"]);

    // A taken email says so and stays on the page.
    const other = await newPage(env.browser, env.server.url);
    await other.goto("/register");
    await main(other).getByLabel("Email", { exact: true }).fill("mira@example.org");
    await main(other).getByLabel("Password", { exact: true }).fill("another-1");
    await other.getByLabel("I accept the terms and the privacy notice").check();
    await other.getByRole("button", { name: "Register" }).click();
    await expect
      .poll(() => other.getByText("An account with this email already exists. Please log in instead.").count())
      .toBeGreaterThan(0);
    expect(path(other)).toBe("/register");
    await other.context().close();

    await page.getByTestId("header-account").getByRole("button", { name: "Sign Out" }).click();
    await expect.poll(() => headerLinks(page)).toEqual(["Login"]);

    // A wrong password is said plainly and keeps the visitor on /login.
    await page.goto("/login");
    await submitLogin(page, { email: "mira@example.org", password: "wrong-password" });
    await expect.poll(() => page.getByText("Incorrect email or password. Please try again.").count()).toBe(1);
    expect(path(page)).toBe("/login");

    await logIn(page, "mira@example.org", "mira-pass-1");
    expect(path(page)).toBe("/dashboard");
    await expect.poll(() => heading(page).textContent()).toBe("Welcome back, mira@example.org");
    await expect.poll(() => page.getByText("Please confirm your email address").count()).toBe(1);

    // A signed-in visitor opening /login goes to the dashboard.
    await page.goto("/login");
    expect(path(page)).toBe("/dashboard");

    await page.getByRole("main").getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    await page.context().close();
  });

  it("the guard sends a signed-out visitor to /login and back to where they were going", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/dashboard");
    expect(path(page)).toBe("/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/dashboard");
    await submitLogin(page, { email: "mira@example.org", password: "mira-pass-1" });
    await page.waitForURL((u) => u.pathname === "/dashboard");

    // An address on another site is never followed.
    await page.context().clearCookies();
    await page.goto("/login?redirectTo=https%3A%2F%2Fevil.example%2F");
    await submitLogin(page, { email: "mira@example.org", password: "mira-pass-1" });
    await page.waitForURL((u) => u.pathname === "/dashboard");
    expect(new URL(page.url()).host).toBe(new URL(env.server.url).host);
    await page.context().close();
  });

  it("reset a password by following the emailed link from the outbox", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL((u) => u.pathname === "/reset");
    await main(page).getByLabel("Email", { exact: true }).fill("mira@example.org");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => page.getByText("Password reset. Check your inbox!").count()).toBe(1);

    const mails = () => outbox(env.server.dataDir).filter((m) => m.subject === "Reset your password");
    await expect.poll(() => mails().length).toBe(1);
    await page.goto(linkOf(mails()[0]!.raw));
    await page.waitForURL((u) => u.pathname === "/reset-password");
    await page.getByLabel("New password").fill("mira-new-pass");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    await expect.poll(() => page.getByText("Your password has been changed. Log in with the new one.").count()).toBe(1);
    await logIn(page, "mira@example.org", "mira-new-pass");
    expect(path(page)).toBe("/dashboard");

    // The same link cannot be used twice.
    await page.context().clearCookies();
    await page.goto(linkOf(mails()[0]!.raw));
    await expect
      .poll(() => page.getByText("This reset link has expired or was already used. Ask for a new one.").count())
      .toBe(1);
    await page.context().close();
  });

  it("an administrator sees Admin and the back office; a customer is refused it", async () => {
    const admin = await newPage(env.browser, env.server.url);
    await logIn(admin, ADMIN.email, ADMIN.password);
    // Staff land on their back office (its own frame, without the site's header); the site's pages show them Admin.
    await admin.waitForURL((u) => u.pathname === staffHome("Admin"));
    await admin.goto("/dashboard");
    await expect.poll(() => headerLinks(admin)).toEqual(["Dashboard", "Admin", "My account"]);
    await expect.poll(() => admin.getByTestId("admin-banner").textContent()).toContain("Administrator Access");
    await header(admin).getByRole("link", { name: "Admin" }).click();
    await admin.waitForURL((u) => u.pathname === "/admin");
    await expect.poll(() => heading(admin).textContent()).toBe("Welcome to Admin Panel");
    await admin.context().close();

    const customer = await newPage(env.browser, env.server.url);
    await logIn(customer, "mira@example.org", "mira-new-pass");
    await expect.poll(() => headerLinks(customer)).toEqual(["Dashboard", "My account"]);
    const res = await customer.goto("/admin");
    expect(res!.status()).toBe(403);
    expect(await heading(customer).textContent()).toBe("You don't have any permission");
    await customer.context().close();
  });

  it("the mobile menu offers the same account links", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: { width: 390, height: 844 } });
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).click();
    expect(await page.locator("#mobile-menu").getByRole("link", { name: "Login" }).count()).toBe(1);
    await page.context().close();
  });
});
