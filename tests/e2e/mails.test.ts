import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "../support/axe";
import { outbox } from "../support/mail";
import { signUp } from "../support/accounts";
import { ADMIN, startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, toast } from "../support/pages";

let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

describe("the Mails screen", () => {
  it("is the admin's only: a visitor goes to /login, a customer is refused (page and form)", async () => {
    const visitor = await fetch(env.server.url + "/mail-settings", { redirect: "manual" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/mail-settings")}`);
    const customer = await signUp(env.server, "nosy-mails@example.org", { password: "secret-pass" });
    const page = await fetch(env.server.url + "/mail-settings", {
      headers: { cookie: customer.header() },
      redirect: "manual",
    });
    expect(page.status).toBe(403);
    const post = await fetch(env.server.url + "/mail-settings", {
      method: "POST",
      headers: { cookie: customer.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "test", kind: "orderPlaced" }).toString(),
      redirect: "manual",
    });
    expect(post.status).toBe(403);
  });

  it("the admin previews a mail in a sandboxed frame, turns one off, and sends a test that arrives", async () => {
    await admin.goto("/admin");
    await admin.getByRole("navigation").getByRole("link", { name: "Mails" }).click();
    await admin.waitForURL("**/mail-settings");
    await main(admin).getByRole("link", { name: "Payment received" }).click();
    await admin.waitForURL("**/mail-settings?kind=paymentReceived");
    await expect.poll(() => main(admin).getByTestId("preview-subject").textContent()).toMatch(/^Payment received/);
    const frame = main(admin).getByTestId("preview-frame");
    expect(await frame.getAttribute("sandbox")).toBe("");
    // The mail as a mail client shows it: the receipt's sample transaction id, the agency's address from the content.
    await expect
      .poll(() => admin.frameLocator('[data-testid="preview-frame"]').getByText("8MC585209K746392H").count())
      .toBe(1);

    const sw = main(admin).getByRole("switch", { name: "Send the Order cancelled mail" });
    expect(await sw.getAttribute("aria-checked")).toBe("true");
    await sw.click();
    await expect.poll(() => toast(admin, "Mail setting is Updated").count()).toBeGreaterThan(0);
    await expect
      .poll(() =>
        main(admin).getByRole("switch", { name: "Send the Order cancelled mail" }).getAttribute("aria-checked"),
      )
      .toBe("false");
    const stored = await env.db.pool.query("select enabled from mail_settings where kind = 'orderCancelled'");
    expect(stored.rows).toEqual([{ enabled: false }]);

    const before = outbox(env.server.dataDir).length;
    await main(admin).getByRole("button", { name: "Send a test to me" }).click();
    await expect.poll(() => toast(admin, `A test mail is on its way to ${ADMIN.email}.`).count()).toBeGreaterThan(0);
    await expect
      .poll(() => outbox(env.server.dataDir).filter((m) => m.subject.startsWith("[Test] Payment received")).length, {
        timeout: 20_000,
      })
      .toBe(1);
    const [mail] = outbox(env.server.dataDir).filter((m) => m.subject.startsWith("[Test] Payment received"));
    expect(mail!.to[0]).toContain(ADMIN.email);
    expect(outbox(env.server.dataDir).length).toBe(before + 1);
  });

  it("passes axe-core (WCAG 2.1 AA and best practices)", async () => {
    expect(await violations(admin, "/mail-settings?kind=adminContactMessage")).toEqual([]);
  });

  it("works without JavaScript: the switch and the test send are plain HTML posts", async () => {
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    await context.addCookies(await admin.context().cookies());
    const page = await context.newPage();
    await page.goto("/mail-settings?kind=membershipEnded");
    const sw = () => main(page).getByRole("switch", { name: "Send the Membership ended mail" });
    expect(await sw().getAttribute("aria-checked")).toBe("true");
    await sw().click();
    await page.waitForLoadState();
    await expect.poll(() => main(page).getByText("Mail setting is Updated").count()).toBeGreaterThan(0);
    expect(await sw().getAttribute("aria-checked")).toBe("false");
    const sent = () =>
      outbox(env.server.dataDir).filter((m) => m.subject.startsWith("[Test] Your membership has ended")).length;
    const before = sent();
    await main(page).getByRole("button", { name: "Send a test to me" }).click();
    await page.waitForLoadState();
    await expect
      .poll(() => main(page).getByText(`A test mail is on its way to ${ADMIN.email}.`).count())
      .toBeGreaterThan(0);
    await expect.poll(sent, { timeout: 20_000 }).toBe(before + 1);
    await context.close();
  });
});
