import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox } from "../support/mail";
import { heading, toast } from "../support/pages";

/**
 * Issue 36, part 4, in Chromium: the Admin writes a standalone newsletter, sees the audience's live count, sends a
 * test to themselves, sends it, and watches the counts update until it is sent; then the suppression list.
 */
let env: E2EEnv;
let admin: Page;

beforeAll(async () => {
  ({ env, admin } = await startAdminE2E({ NEWSLETTER_RATE_PER_MINUTE: "6000" }));
  await env.db.pool.query(
    `insert into subscribers (subemail, state, confirmed_at) values ('one@example.org', 'confirmed', now()),
       ('two@example.org', 'confirmed', now()), ('waits@example.org', 'pending', null)`,
  );
});
afterAll(() => env?.close());

const SUBJECT = "Autumn at the studio";
const mails = (subject: string) => outbox(env.server.dataDir).filter((m) => m.subject === subject);

describe("newsletters in the back office", () => {
  it("writes, tests and sends a newsletter, its counts updated while it sends", async () => {
    await admin.goto("/newsletters");
    await admin.getByRole("link", { name: "New newsletter" }).click();
    await expect.poll(() => heading(admin).textContent()).toBe("New newsletter");
    await admin.getByLabel("Subject", { exact: true }).fill(SUBJECT);
    await admin.getByLabel("Preview text", { exact: false }).fill("Three rooms we finished.");
    await admin.getByLabel("Message", { exact: false }).fill("Hello.\n\nWe finished three rooms <script>x</script>.");
    await admin.getByLabel("Active members").check();
    await expect.poll(() => admin.getByTestId("audience-count").textContent()).toContain("2 addresses");
    await admin.getByLabel("Active members").uncheck();
    await admin.getByRole("button", { name: "Save the draft" }).click();
    await expect.poll(() => heading(admin).textContent()).toBe(SUBJECT);
    expect(admin.url()).toMatch(/\/newsletters\/[0-9a-f-]{36}$/);

    await admin.getByRole("button", { name: "Send a test to me" }).click();
    await expect.poll(() => toast(admin, "A test is on its way to admin@example.org").count()).toBe(1);
    await expect.poll(() => mails(`[Test] ${SUBJECT}`).length, { timeout: 20_000 }).toBe(1);

    await admin.getByRole("button", { name: "Send now" }).click();
    // The screen asks again every few seconds while it sends, until it is sent.
    await expect
      .poll(() => admin.getByTestId("newsletter-counts").textContent(), { timeout: 30_000 })
      .toContain("Sent2");
    await expect.poll(() => admin.locator("main").textContent()).toContain("Sent");
    expect(
      mails(SUBJECT)
        .map((m) => m.to[0])
        .sort(),
    ).toEqual(["one@example.org", "two@example.org"]);
    // What was typed is text: in the HTML part, escaped, never markup.
    const html = mails(SUBJECT)[0]!
      .raw.split("Content-Type: text/html")[1]!
      .replace(/=\r?\n/g, "");
    expect(html).toContain("&lt;script&gt;x&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    await admin.goto("/newsletters");
    expect(await admin.getByTestId("newsletters").textContent()).toContain(SUBJECT);
  }, 90_000);

  it("adds an address to the suppression list and takes it off again", async () => {
    await admin.goto("/suppressions");
    await admin.getByLabel("Email").fill("Gone@Example.org");
    await admin.getByRole("button", { name: "Add to the list" }).click();
    await expect.poll(() => admin.getByTestId("suppressions").textContent()).toContain("gone@example.org");
    await admin.getByTestId("suppressions").getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => admin.getByTestId("suppressions").textContent()).not.toContain("gone@example.org");
  }, 60_000);
});
