import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, PHONE } from "../support/browser";
import { startE2E, type E2EEnv } from "../support/e2e";
import { axeViolations } from "../support/axe";
import { outbox } from "../support/mail";
import { logIn, main, placeOrder, payInSimulator, register, submitLogin } from "../support/pages";
import { untilNextSecond } from "../support/wait";

/** Issue 28, part 2: what a customer meets between choosing a plan and waiting for their membership. */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const PASSWORD = "buyer-pass-1";
const WAITING_CARD = "Your items open when your membership is activated";

const draftKeys = (page: Page) =>
  page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith("draft:")));

/**
 * Waits for the page's fade-in (a cross-document view transition) to end: a click during it aborts the transition,
 * which the browser reports as an uncaught error.
 */
const settled = (page: Page) =>
  expect
    .poll(() =>
      page.evaluate(() =>
        document
          .getAnimations()
          .every(
            (a) => !String((a.effect as KeyframeEffect | null)?.pseudoElement ?? "").startsWith("::view-transition"),
          ),
      ),
    )
    .toBe(true);

async function openPlan(page: Page, packageName: string) {
  await page.goto("/pricing");
  await settled(page);
  await page
    .getByTestId("pricing-card")
    .filter({ has: page.getByRole("heading", { name: packageName }) })
    .getByRole("link")
    .click();
}

describe("customer polish", () => {
  it("a paid customer waiting for activation sees their items open soon, not an upgrade offer", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    await register(page, { email: "waiting@example.org", password: PASSWORD });
    await page.goto("/dashboard");
    const grid = page.getByTestId("items-grid");
    // Before paying: the offer to buy.
    expect(await grid.getByRole("link", { name: "Upgrade Membership" }).count()).toBeGreaterThan(0);
    expect(await grid.getByText(WAITING_CARD).count()).toBe(0);

    await payInSimulator(page, await placeOrder(page, { packageName: "Standard" }));
    await page.goto("/dashboard");
    expect(await page.getByTestId("membership-banner").getAttribute("data-state")).toBe("waiting");
    const cards = grid.getByTestId("item-card");
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    expect(await grid.getByText(WAITING_CARD).count()).toBe(count);
    expect(await grid.getByRole("link", { name: "Upgrade Membership" }).count()).toBe(0);
    expect(await grid.getByText("Premium Access Required").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    // An item's own page says the same, without the offer to buy.
    const [item] = (await env.db.pool.query("select id from catalogue_items limit 1")).rows;
    const res = await page.goto(`/item/${item.id}`);
    expect(res!.status()).toBe(403);
    await expect.poll(() => main(page).textContent()).toContain(WAITING_CARD);
    expect(await main(page).getByRole("link", { name: "Upgrade Membership" }).count()).toBe(0);
    await page.context().close();
  });

  it("the plan chosen before signing up is where registration lands, with a note to confirm the email", async () => {
    const page = await newPage(env.browser, env.server.url);
    await openPlan(page, "Premium");
    await page.waitForURL((u) => u.pathname === "/login");
    const orderPath = new URL(page.url()).searchParams.get("redirectTo")!;
    expect(orderPath).toMatch(/^\/order-now\/[0-9a-f-]+$/);
    await main(page).getByRole("link", { name: "Sign Up" }).click();
    await page.waitForURL((u) => u.pathname === "/register");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(orderPath);
    await main(page).getByLabel("Email", { exact: true }).fill("chooser@example.org");
    await main(page).getByLabel("Password", { exact: true }).fill(PASSWORD);
    await main(page).getByLabel("I accept the terms and the privacy notice").check();
    await main(page).getByRole("button", { name: "Register" }).click();
    await page.waitForURL((u) => u.pathname === orderPath);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Get started with our Premium Plan today.");
    const note = page.getByTestId("confirm-email-note");
    expect(await note.textContent()).toContain("Please confirm your email address: we sent a link to");
    expect(await note.textContent()).toContain("chooser@example.org");
    await page.waitForLoadState("networkidle");
    expect(await axeViolations(page)).toEqual([]);
    // The confirmation mail was sent at sign-up.
    await expect
      .poll(() => outbox(env.server.dataDir).filter((m) => m.to.includes("chooser@example.org")).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    await page.context().close();
  });

  it("plain pages: the dashboard answers 'Send the link again' in place on a phone; My Orders' scroll hint", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    await register(page, { email: "resender@example.org", password: PASSWORD });
    await page.goto("/dashboard");
    expect(await page.locator('script[type="module"]').count()).toBe(0);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    // In a later second than the sign-up's link, so that this link is a new one.
    await untilNextSecond();
    await main(page).getByRole("button", { name: "Send the link again" }).click();
    const answer = main(page).getByRole("status").filter({ hasText: "We sent a new link to resender@example.org." });
    await expect.poll(() => answer.count()).toBe(1);
    // Posted by the plain pages' script: the same document, the focus on the answer.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await answer.evaluate((el) => el === document.activeElement)).toBe(true);

    // Asked again within the same second, the same link is not mailed twice, and the answer says so (issue 33).
    await page.goto("/dashboard");
    await untilNextSecond();
    const again = main(page).getByRole("button", { name: "Send the link again" });
    await again.click();
    await expect.poll(() => answer.count()).toBe(1);
    await again.click();
    const none = main(page)
      .getByRole("status")
      .filter({ hasText: "A link went to resender@example.org a moment ago, so no new one was sent" });
    await expect.poll(() => none.count()).toBe(1);
    expect(await answer.count()).toBe(0);

    // My Orders, a plain page too, says when its table scrolls sideways (the plain pages' script measures it), and
    // not when it fits.
    await placeOrder(page, { packageName: "Premium" });
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto("/my-order");
    const hint = page.getByTestId("scroll-hint");
    const scroller = page.getByTestId("my-orders").locator("[data-scroll-x]");
    const overflows = () => scroller.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(await overflows()).toBe(true);
    await expect.poll(() => hint.isVisible()).toBe(true);
    expect(await hint.textContent()).toContain("Scroll sideways to see every column.");
    await page.setViewportSize({ width: 1920, height: 900 });
    expect(await overflows()).toBe(false);
    await expect.poll(() => hint.isVisible()).toBe(false);
    await page.context().close();
  });

  it("without JavaScript too; any other address (another site, another page) lands on / as the spec says", async () => {
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/register?redirectTo=" + encodeURIComponent("https://elsewhere.example/x"));
    await main(page).getByLabel("Email", { exact: true }).fill("nojs-chooser@example.org");
    await main(page).getByLabel("Password", { exact: true }).fill(PASSWORD);
    await main(page).getByLabel("I accept the terms and the privacy notice").check();
    await main(page).getByRole("button", { name: "Register" }).click();
    await page.waitForURL((u) => u.pathname === "/");
    expect(new URL(page.url()).host).toBe(new URL(env.server.url).host);
    await context.close();

    const second = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const p2 = await second.newPage();
    await p2.goto("/register?redirectTo=" + encodeURIComponent("/my-order"));
    await main(p2).getByLabel("Email", { exact: true }).fill("nojs-chooser-2@example.org");
    await main(p2).getByLabel("Password", { exact: true }).fill(PASSWORD);
    await main(p2).getByLabel("I accept the terms and the privacy notice").check();
    await main(p2).getByRole("button", { name: "Register" }).click();
    await p2.waitForURL((u) => u.pathname === "/");
    await second.close();

    const [plan] = (await env.db.pool.query("select id from content_entries where type = 'pricing' limit 1")).rows;
    const third = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const p3 = await third.newPage();
    await p3.goto("/register?redirectTo=" + encodeURIComponent(`/order-now/${plan.id}`));
    await main(p3).getByLabel("Email", { exact: true }).fill("nojs-chooser-3@example.org");
    await main(p3).getByLabel("Password", { exact: true }).fill(PASSWORD);
    await main(p3).getByLabel("I accept the terms and the privacy notice").check();
    await main(p3).getByRole("button", { name: "Register" }).click();
    await p3.waitForURL((u) => u.pathname === `/order-now/${plan.id}`);
    await third.close();
  });

  it("My Orders tells orders apart and cancels an unpaid one after asking", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    await register(page, { email: "canceller@example.org", password: PASSWORD });
    const keep = await placeOrder(page, { packageName: "Standard" });
    const drop = await placeOrder(page, { packageName: "Premium" });
    const numbers = Object.fromEntries(
      (
        await env.db.pool.query("select id, number, package_price from orders where id = any($1)", [[keep, drop]])
      ).rows.map((r) => [r.id, r]),
    );
    await page.goto("/my-order");
    const table = page.getByTestId("my-orders");
    const headers = await table.locator("th").allTextContents();
    expect(headers).toEqual(expect.arrayContaining(["Order #", "Package", "Amount"]));
    const row = table.locator("tr").filter({ hasText: numbers[drop].number });
    expect(await row.textContent()).toContain("Premium");
    expect(await row.textContent()).toContain(`$${Number(numbers[drop].package_price).toFixed(2)}`);

    // Asking first: keeping it changes nothing.
    await row.getByRole("link", { name: `Cancel order ${numbers[drop].number}` }).click();
    const panel = page.getByTestId("cancel-order");
    await expect.poll(() => panel.getAttribute("data-state")).toBe("confirm");
    expect(await panel.textContent()).toContain(numbers[drop].number);
    expect(await axeViolations(page)).toEqual([]);
    await panel.getByRole("link", { name: "Keep the order" }).click();
    await page.waitForURL((u) => u.pathname === "/my-order" && !u.search);
    // A client-side navigation: the address changes a moment before the page is drawn again.
    await expect.poll(() => panel.count()).toBe(0);

    await row.getByRole("link", { name: `Cancel order ${numbers[drop].number}` }).click();
    await panel.getByRole("button", { name: "Yes, cancel the order" }).click();
    await expect.poll(() => panel.getAttribute("data-state")).toBe("cancelled");
    expect(await panel.getByRole("status").textContent()).toContain(`Order ${numbers[drop].number} is cancelled.`);
    expect(await row.textContent()).toContain("You Have Cancelled");
    const status = async (id: string) =>
      (await env.db.pool.query("select payment_status from orders where id = $1", [id])).rows[0].payment_status;
    expect(await status(drop)).toBe("Cancelled");
    expect(await status(keep)).toBe("UnPaid");
    await page.context().close();

    // Without JavaScript: the same two steps.
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const plain = await context.newPage();
    await logIn(plain, "canceller@example.org", PASSWORD);
    await plain.goto("/my-order");
    await plain
      .getByTestId("my-orders")
      .getByRole("link", { name: `Cancel order ${numbers[keep].number}` })
      .click();
    await plain.getByRole("button", { name: "Yes, cancel the order" }).click();
    await plain.waitForLoadState();
    expect(await plain.getByTestId("cancel-order").getAttribute("data-state")).toBe("cancelled");
    expect(await status(keep)).toBe("Cancelled");
    // A cancelled order offers no cancel.
    expect(await plain.getByRole("link", { name: /^Cancel order/ }).count()).toBe(0);
    await context.close();
  });

  it("read-only order fields do not look like fields to type in", async () => {
    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "reader@example.org", password: PASSWORD });
    await openPlan(page, "Standard");
    await page.waitForURL((u) => u.pathname.startsWith("/order-now/"));
    const look = (label: string) =>
      main(page)
        .getByLabel(label, { exact: true })
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return {
            border: s.borderTopColor,
            background: s.backgroundColor,
            readOnly: (el as HTMLInputElement).readOnly,
          };
        });
    const typed = await look("Full Name");
    for (const label of ["Package", "Price", "Validity", "Email"]) {
      const fixed = await look(label);
      expect(fixed.readOnly).toBe(true);
      expect(fixed.border).toBe("rgba(0, 0, 0, 0)");
      expect(fixed.background).not.toBe(typed.background);
    }
    expect(typed.border).not.toBe("rgba(0, 0, 0, 0)");
    await page.context().close();
  });

  it("an order form lost to an ended session is filled in again after signing in, then forgotten", async () => {
    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "interrupted@example.org", password: PASSWORD });
    await openPlan(page, "Standard");
    await page.waitForURL((u) => u.pathname.startsWith("/order-now/"));
    const orderPath = new URL(page.url()).pathname;
    await main(page).getByLabel("Full Name").fill("Ines Interrupted");
    await main(page).getByLabel("Address").fill("3 Mill Race, Bath");
    await main(page).getByLabel("Country").fill("United Kingdom");

    // The session ends (signed out elsewhere, or expired) before the post.
    await page.context().clearCookies();
    await main(page).getByRole("button", { name: "Place Order Now" }).click();
    await page.waitForURL((u) => u.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirectTo")).toBe(orderPath);
    await submitLogin(page, { email: "interrupted@example.org", password: PASSWORD });
    await page.waitForURL((u) => u.pathname === orderPath);
    await expect.poll(() => main(page).getByLabel("Full Name").inputValue()).toBe("Ines Interrupted");
    expect(await main(page).getByLabel("Address").inputValue()).toBe("3 Mill Race, Bath");
    expect(await main(page).getByLabel("Country").inputValue()).toBe("United Kingdom");
    expect(await main(page).getByLabel("Package").inputValue()).toBe("Standard");

    await main(page).getByRole("button", { name: "Place Order Now" }).click();
    await page.waitForURL((u) => u.pathname === "/pending-order");
    await expect.poll(() => draftKeys(page)).toEqual([]);
    const placed = await env.db.pool.query(
      `select customer_name, customer_address from orders o join "user" u on u.id = o.user_id where u.email = $1`,
      ["interrupted@example.org"],
    );
    expect(placed.rows).toEqual([{ customer_name: "Ines Interrupted", customer_address: "3 Mill Race, Bath" }]);

    // Typed again and left behind: someone else signing in in this tab never sees it, and it is removed.
    await page.goto(orderPath);
    await main(page).getByLabel("Address").fill("Private Road 1");
    await expect.poll(async () => (await draftKeys(page)).length).toBe(1);
    await page.context().clearCookies();
    await register(page, { email: "next-person@example.org", password: PASSWORD });
    await page.goto(orderPath);
    await expect.poll(() => draftKeys(page)).toEqual([]);
    expect(await main(page).getByLabel("Address").inputValue()).toBe("");
    await page.context().close();
  });
});
