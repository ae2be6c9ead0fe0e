import path from "node:path";
import type { Page, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CUSTOMER_PASSWORD, signUpStaff } from "../support/accounts";
import { axeViolations } from "../support/axe";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { startE2E, type E2EEnv } from "../support/e2e";
import { logIn, main } from "../support/pages";

/**
 * Issue 36, part 6 (decision 074) in Chromium: an Editor previews an unsaved banner in a tab of its own, drawn as the
 * landing page, while visitors still see the saved one; the save then shows to everyone. Set PREVIEW_SCREENSHOTS to a
 * folder to keep the preview's pictures at phone and desktop widths.
 */
let env: E2EEnv;
let editor: Page;
let visitor: Page;
const EDITOR = "editor@example.org";

beforeAll(async () => {
  env = await startE2E();
  await signUpStaff({ url: env.server.url }, env.db.pool, EDITOR, "Editor");
  editor = await newPage(env.browser, env.server.url);
  await logIn(editor, EDITOR, CUSTOMER_PASSWORD);
  visitor = await newPage(env.browser, env.server.url);
});
afterAll(() => env?.close());

const heroTitle = async (page: Page) => (await page.getByRole("heading", { level: 1 }).first().textContent())?.trim();

/** Clicks the form's Preview button and gives the tab it opens, loaded, with the answer of its page. */
async function openPreview(page: Page, form: ReturnType<Page["locator"]>): Promise<{ tab: Page; answer: Response }> {
  const opened = page.context().waitForEvent("page");
  const answered = page.context().waitForEvent("response", (r) => new URL(r.url()).pathname === "/preview");
  await form.getByTestId("preview-button").click();
  const [tab, answer] = await Promise.all([opened, answered]);
  await tab.waitForLoadState("load");
  return { tab, answer };
}

describe("previewing the banner before it goes live", () => {
  it("an Editor sees the new title in the preview while / keeps the old one, then saves and / shows it", async () => {
    await visitor.goto("/");
    const saved = await heroTitle(visitor);
    expect(saved).toBeTruthy();

    await editor.goto("/edit-banner");
    await main(editor).getByRole("link", { name: "Edit Banner Section" }).click();
    await editor.waitForURL((u) => u.pathname.startsWith("/banner/"));
    const form = main(editor).getByTestId("form-banner-update");
    await form.getByLabel("Banner Heading", { exact: true }).fill("Rooms that rank, homes that sell");

    const { tab, answer } = await openPreview(editor, form);
    expect(new URL(tab.url()).pathname).toBe("/preview");
    expect(answer.status()).toBe(200);
    expect(answer.headers()["cache-control"]).toBe("private, no-store");
    expect(answer.headers()["x-robots-tag"]).toBe("noindex");
    expect(await tab.locator('meta[name="robots"]').getAttribute("content")).toMatch(/^noindex/);
    expect(await heroTitle(tab)).toBe("Rooms that rank, homes that sell");
    const bar = tab.getByTestId("preview-bar");
    expect(await bar.isVisible()).toBe(true);
    expect(await bar.textContent()).toContain("Preview — not saved");
    // The landing page's other sections, in the site's header and footer.
    expect(await tab.locator("#service-sec").count()).toBe(1);
    expect(await tab.locator("header").count()).toBe(1);
    expect(await tab.locator("footer").count()).toBe(1);

    for (const viewport of [PHONE, DESKTOP]) {
      await tab.setViewportSize(viewport);
      // The bar stays in view over the page at either width, and the page does not scroll sideways.
      expect(await bar.isVisible()).toBe(true);
      expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await axeViolations(tab)).toEqual([]);
      const folder = process.env.PREVIEW_SCREENSHOTS;
      if (folder) {
        await tab.evaluate(() => window.scrollTo(0, 0));
        await tab.screenshot({ path: path.join(folder, `preview-${viewport.width}-top.png`) });
        await tab.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await tab.screenshot({ path: path.join(folder, `preview-${viewport.width}-end.png`) });
      }
    }

    // Visitors, and the editor's own view of the site, still get the saved banner; nothing was saved.
    await visitor.reload();
    expect(await heroTitle(visitor)).toBe(saved);
    const { rows } = await env.db.pool.query(
      "select data->>'bannerHeading' as h from content_entries where type = 'banner'",
    );
    expect(rows).toEqual([{ h: saved }]);
    await tab.close();

    // The form still holds what was typed: saving it puts it live.
    expect(await form.getByLabel("Banner Heading", { exact: true }).inputValue()).toBe(
      "Rooms that rank, homes that sell",
    );
    await form.getByRole("button", { name: "Update Banner" }).click();
    await editor.getByTestId("toasts").getByText("Banner is Updated").waitFor();
    await visitor.reload();
    expect(await heroTitle(visitor)).toBe("Rooms that rank, homes that sell");
  });

  it("works without JavaScript: the button's own form attributes post the form to the preview's tab", async () => {
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    await context.addCookies(await editor.context().cookies());
    const page = await context.newPage();
    const { rows } = await env.db.pool.query("select id from content_entries where type = 'banner'");
    await page.goto(`/banner/${rows[0].id}`);
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    const form = main(page).getByTestId("form-banner-update");
    await form.getByLabel("Banner Heading", { exact: true }).fill("Seen before it is saved");
    const { tab, answer } = await openPreview(page, form);
    expect(answer.status()).toBe(200);
    expect(await heroTitle(tab)).toBe("Seen before it is saved");
    await context.close();
  });

  it("a delete is previewed from its confirmation: the FAQ page without the item, which stays until deleted", async () => {
    await editor.goto("/edit-faq");
    const { rows } = await env.db.pool.query(
      "select data->>'accodingTitle' as title from content_entries where type = 'faqItem' order by position limit 1",
    );
    const title = rows[0].title as string;
    await main(editor)
      .getByRole("button", { name: `Delete ${title}` })
      .click();
    const dialog = editor.getByTestId("delete-dialog-faqItem");
    await dialog.getByTestId("preview-button").waitFor();
    const { tab } = await openPreview(editor, dialog);
    expect(await tab.getByTestId("preview-bar").textContent()).toContain("once you delete this FAQ Item");
    expect(await main(tab).textContent()).not.toContain(title);
    await tab.close();
    await visitor.goto("/pricing");
    expect(await main(visitor).textContent()).toContain(title);
  });
});
