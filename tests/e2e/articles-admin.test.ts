import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toZonedInput } from "#domain/zoned-time.ts";
import { CUSTOMER_PASSWORD, signUpStaff } from "../support/accounts";
import { newPage, PHONE } from "../support/browser";
import { logIn, startE2E, type E2EEnv } from "../support/e2e";
import { main, toast } from "../support/pages";

/**
 * Issue 36, part 1 in Chromium: an Editor writes an article in the rich-text editor (a heading, a library image, the
 * members-only marker), saves it as a draft, schedules it, changes it, and restores the first version from the history;
 * the editing screen works at a phone's width. Tiptap is loaded only by the editing screen.
 */
let env: E2EEnv;
const EDITOR = "writer-e2e@example.org";
const ZONE = "Europe/London";
beforeAll(async () => {
  env = await startE2E({ TZ: ZONE });
  await signUpStaff(env.server, env.db.pool, EDITOR, "Editor");
});
afterAll(() => env?.close());

const articleRow = async (id: string) =>
  (
    await env.db.pool.query("select title, body_html, state, publish_at, access, version from articles where id = $1", [
      id,
    ])
  ).rows[0] as {
    title: string;
    body_html: string;
    state: string;
    publish_at: Date | null;
    access: string;
    version: number;
  };

describe("an Editor's article", () => {
  it("is written with a heading, a library image and the members-only marker, scheduled, and restored", async () => {
    // Its own title each attempt (a second attempt after a failure would meet the first one's address).
    const title = `Warm whites for a north-facing hall ${randomUUID().slice(0, 6)}`;
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, EDITOR, CUSTOMER_PASSWORD);
    // The list and other back-office pages do not load the editor.
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto("/articles");
    expect(await main(page).getByTestId("articles").textContent()).toContain("Five local SEO fixes");
    expect(scripts.some((s) => /RichTextEditor/.test(s))).toBe(false);

    await main(page).getByTestId("new-article").click();
    await page.waitForURL((u) => u.pathname === "/articles/new");
    const form = main(page).getByTestId("article-form");
    await form.getByLabel("Title", { exact: true }).fill(title);
    await form.getByLabel("Excerpt (shown in lists and under the title)").fill("Three whites we trust in cool light.");
    const body = form.getByTestId("rich-text-body");
    await expect.poll(() => body.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(scripts.some((s) => /RichTextEditor/.test(s))).toBe(true);
    // The editor takes the focus back a frame after a toolbar button's command: typing waits for it.
    const editorFocused = () =>
      expect.poll(() => body.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await body.click();
    await form.getByRole("button", { name: "H2: heading" }).click();
    await editorFocused();
    await page.keyboard.type("Start with the floor");
    await page.keyboard.press("Enter");
    await page.keyboard.type("A pale oak floor bounces what light there is.");
    await page.keyboard.press("Enter");
    await form.getByTestId("editor-image").click();
    const picker = page.getByTestId("media-picker");
    await expect.poll(() => picker.isVisible()).toBe(true);
    await picker.getByTestId("media-picker-items").getByRole("button").first().click();
    await expect.poll(() => picker.isVisible()).toBe(false);
    await form.getByTestId("editor-marker").click();
    await expect.poll(() => body.getByText("Members only below this line").count()).toBe(1);
    await editorFocused();
    await page.keyboard.type("The three paint names, with their codes, for members.");
    expect(await body.getByText("Members only below this line").count()).toBe(1);
    await form.getByLabel("Who may read it").selectOption("split");
    await form.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL((u) => /^\/articles\/[0-9a-f-]{36}$/.test(u.pathname));
    const id = new URL(page.url()).pathname.split("/").pop()!;

    const saved = await articleRow(id);
    expect(saved).toMatchObject({ state: "draft", access: "split", version: 1 });
    expect(saved.body_html).toContain("<h2>Start with the floor</h2>");
    expect(saved.body_html).toMatch(/<img src="\/media\/[^"]+"/);
    expect(saved.body_html).toMatch(/<hr data-members-only[^>]*>\s*<p>The three paint names/);
    // The links to the preview, in a new tab.
    expect(await main(page).getByRole("link", { name: "Preview as a member" }).getAttribute("href")).toBe(
      `/blog/preview/${id}?as=member`,
    );

    // A time past is refused at the field; a time to come schedules it.
    const edit = main(page).getByTestId("article-form");
    const publishAt = edit.getByLabel(`Publish at (${ZONE} time)`);
    await publishAt.fill(toZonedInput(new Date(Date.now() - 3600_000), ZONE));
    await edit.getByRole("button", { name: "Schedule" }).click();
    await expect.poll(() => edit.getByText(/The time to publish has passed/).count()).toBeGreaterThan(0);
    const when = new Date(Date.now() + 24 * 3600_000);
    await publishAt.fill(toZonedInput(when, ZONE));
    await edit.getByRole("button", { name: "Schedule" }).click();
    await expect.poll(async () => (await articleRow(id)).state).toBe("scheduled");
    expect(Math.abs((await articleRow(id)).publish_at!.getTime() - when.getTime())).toBeLessThan(60_000);
    await expect.poll(() => main(page).getByTestId("article-state").textContent()).toMatch(/^Scheduled: goes out/);

    // A change, then the first version restored from the history (after a confirmation).
    await edit.getByLabel("Title", { exact: true }).fill("A changed title");
    // Saved as it is: still scheduled.
    await edit.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(async () => (await articleRow(id)).title).toBe("A changed title");
    expect((await articleRow(id)).state).toBe("scheduled");
    await main(page).getByRole("button", { name: "Restore this version (number 1)" }).click();
    const dialog = page.getByTestId("restore-version-dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByTestId("confirm-restore").click();
    await expect.poll(() => toast(page, "Restored: the article is now version").count()).toBeGreaterThan(0);
    const restored = await articleRow(id);
    expect(restored).toMatchObject({ title, state: "scheduled" });
    await expect
      .poll(() => main(page).getByTestId("article-history").getByRole("listitem").count())
      .toBe(restored.version);
  });

  it("is usable at a phone's width: no sideways scroll, the toolbar wraps", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    await logIn(page, EDITOR, CUSTOMER_PASSWORD);
    await page.goto("/articles/new");
    await expect.poll(() => page.getByTestId("rich-text-body").isVisible(), { timeout: 20_000 }).toBe(true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
  });

  it("is written without JavaScript in a plain textarea of HTML, cleaned by the server", async () => {
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await logIn(page, EDITOR, CUSTOMER_PASSWORD);
    await page.goto("/articles/new");
    const form = main(page).getByTestId("article-form");
    await form.getByLabel("Title", { exact: true }).fill("Written without scripts");
    await form
      .getByLabel("Body")
      .fill('<h2>Plain</h2><p onclick="x()">Text</p><script>alert(1)</script><hr data-members-only><p>Members</p>');
    await form.getByLabel("Who may read it").selectOption("split");
    await form.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL((u) => /^\/articles\/[0-9a-f-]{36}$/.test(u.pathname));
    const id = new URL(page.url()).pathname.split("/").pop()!;
    const saved = await articleRow(id);
    expect(saved).toMatchObject({ state: "draft", access: "split" });
    expect(saved.body_html).toBe("<h2>Plain</h2><p>Text</p><hr data-members-only /><p>Members</p>");
    await context.close();
  });
});
