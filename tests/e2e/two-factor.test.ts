import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffHome } from "#domain/capabilities.ts";
import { TWO_FACTOR_MESSAGES } from "#domain/two-factor.ts";
import { axeViolations, violations } from "../support/axe";
import { newPage, PHONE } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { main, submitLogin } from "../support/pages";

/**
 * Two-factor sign-in in Chromium (issue 25, part 2; decision 040), with the staff requirement on: the first admin signs
 * in with a password, is walked to /account/security before the back office opens, enrols (reading the key from the
 * page and computing the codes as an app would), saves the recovery codes, then signs in with a code, with a recovery
 * code, and is refused without either.
 */
let env: E2EEnv;
beforeAll(async () => (env = await startE2E({ ADMIN_2FA: "required" })));
afterAll(() => env?.close());

const path = (page: Page) => new URL(page.url()).pathname;
let key = "";
const code = () => createOTP(base32.decode(key.replace(/ /g, ""))).totp();
let recoveryCodes: string[] = [];

async function password(page: Page, redirectTo = "") {
  await page.goto(redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login");
  await submitLogin(page, ADMIN);
}

describe("an admin's two-factor sign-in", () => {
  it("is required: the back office sends the admin to enrol; they scan the key, confirm, and keep the codes", async () => {
    const page = await newPage(env.browser, env.server.url);
    await password(page);
    await page.waitForURL((u) => u.pathname === "/account/security");
    await expect.poll(() => main(page).textContent()).toContain("Staff must use two-factor sign-in.");
    await main(page).getByLabel("Password").fill(ADMIN.password);
    await main(page).getByRole("button", { name: "Continue" }).click();
    const shownKey = page.getByTestId("two-factor-key");
    await shownKey.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    key = (await shownKey.textContent()) ?? "";
    expect(key).toMatch(/^[A-Z2-7 ]{20,}$/);
    await expect
      .poll(() =>
        main(page)
          .getByRole("img", { name: /QR code/ })
          .count(),
      )
      .toBe(1);
    await main(page)
      .getByLabel("Code from the app")
      .fill(await code());
    await main(page).getByRole("button", { name: "Turn on" }).click();
    const list = page.getByTestId("recovery-codes");
    await list.waitFor();
    recoveryCodes = await list.locator("li").allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    expect(await list.getByRole("link", { name: "Download as a text file" }).getAttribute("download")).toBe(
      "atelier-north-recovery-codes.txt",
    );
    // The state line is the loader's, read again after the action's answer (which shows the codes) has come.
    await expect.poll(() => page.getByTestId("two-factor-state").textContent()).toContain("is on");
    // No Turn off for an Admin while it is required.
    expect(await main(page).getByRole("button", { name: "Turn off" }).count()).toBe(0);
    // The back office opens now.
    await page.goto("/total-orders");
    expect(path(page)).toBe("/total-orders");
    await page.context().close();
  });

  it("signs in with a code from the app, landing on the back office", async () => {
    const page = await newPage(env.browser, env.server.url);
    await password(page);
    await page.waitForURL((u) => u.pathname === "/login/two-factor");
    const field = main(page).getByLabel("Code", { exact: true });
    expect(await field.getAttribute("autocomplete")).toBe("one-time-code");
    const wrong = (await code()) === "000000" ? "111111" : "000000";
    await field.fill(wrong);
    await main(page).getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => main(page).textContent()).toContain(TWO_FACTOR_MESSAGES.wrongCode);
    await field.fill(await code());
    await main(page).getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((u) => u.pathname === staffHome("Admin"));
    await page.context().close();
  });

  it("signs in with a recovery code once, keeping where they were going", async () => {
    const page = await newPage(env.browser, env.server.url);
    await password(page, "/total-orders");
    await page.waitForURL((u) => u.pathname === "/login/two-factor");
    await main(page).getByRole("link", { name: "Use a recovery code instead" }).click();
    await main(page).getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await main(page).getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((u) => u.pathname === "/total-orders");
    await page.context().close();

    const again = await newPage(env.browser, env.server.url);
    await password(again);
    await again.waitForURL((u) => u.pathname === "/login/two-factor");
    await again.goto("/login/two-factor?method=recovery");
    await main(again).getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await main(again).getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => main(again).textContent()).toContain(TWO_FACTOR_MESSAGES.wrongRecoveryCode);
    await again.context().close();
  });

  it("passes axe-core on a phone: the code's page, the recovery code's, and the account's security page", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    await password(page);
    await page.waitForURL((u) => u.pathname === "/login/two-factor");
    const found = [
      ...(await violations(page, "/login/two-factor?method=recovery")),
      ...(await violations(page, "/login/two-factor")),
    ];
    await main(page)
      .getByLabel("Code", { exact: true })
      .fill(await code());
    await main(page).getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((u) => u.pathname !== "/login/two-factor");
    found.push(...(await violations(page, "/account/security")));
    expect(found).toEqual([]);
    await page.context().close();
  });

  it("is refused without either: the password alone opens nothing", async () => {
    const page = await newPage(env.browser, env.server.url);
    await password(page);
    await page.waitForURL((u) => u.pathname === "/login/two-factor");
    for (const to of ["/total-orders", "/account/security", "/dashboard"]) {
      await page.goto(to);
      expect(path(page), to).toBe("/login");
    }
    const api = await page.request.get("/api/orders");
    expect(api.status()).toBe(401);
    await page.context().close();
  });
});
