import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toZonedInput } from "#domain/zoned-time.ts";
import { CUSTOMER_PASSWORD, signIn, signUpMember, signUpStaff } from "../support/accounts";
import { newPage } from "../support/browser";
import { ADMIN, logIn, startE2E, type E2EEnv } from "../support/e2e";
import { outbox, type ReceivedMail } from "../support/mail";
import { heading, main, toast } from "../support/pages";
import type { CookieJar } from "../support/session";

/**
 * Issue 36's whole journey in Chromium ("Done when"): an Editor writes an article with a library image and a
 * members-only part and schedules it; the job queue publishes it at its time; a visitor sees the public part and the
 * call to join, a member all of it; the feed and the sitemap list it; a newsletter from it goes to 3 confirmed
 * subscribers and 2 members (5 mails: the members' with the members' part, the subscribers' without); one subscriber
 * unsubscribes with one click and is not mailed the next time; an older version restored shows on the page.
 */
let env: E2EEnv;
let adminJar: CookieJar;
const ZONE = "Europe/London";
const EDITOR = "journey-editor@example.org";
const TITLE = "Warm whites for a north-facing hall";
const PUBLIC_TEXT = "A pale oak floor bounces what light there is.";
const MEMBERS_TEXT = "The three paint names, with their codes, for members.";
const SUBSCRIBERS = ["sub-one@example.org", "sub-two@example.org", "sub-three@example.org"];
const MEMBERS = ["member-one@example.org", "member-two@example.org"];

/** The outbox the mails are written to (DATA_DIR/outbox), made if there is none yet. */
const outboxDir = () => {
  const dir = path.join(env.server.dataDir, "outbox");
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  return dir;
};
const mailsOf = (subject: string) => outbox(env.server.dataDir).filter((m) => m.subject === subject);
/** A mail's text as read (quoted-printable undone). */
const textOf = (mail: ReceivedMail) =>
  mail.raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const unsubscribeOf = (mail: ReceivedMail) => {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  return /^List-Unsubscribe: <([^>]+)>/m.exec(head)![1]!;
};

/** The admin writes a newsletter (from the article, or a message of its own) to subscribers and members; sends it. */
async function sendNewsletter(admin: Page, subject: string, article: string | null, expected: number) {
  await admin.goto("/newsletters/new");
  await expect.poll(() => heading(admin).textContent()).toBe("New newsletter");
  await admin.getByLabel("Subject", { exact: true }).fill(subject);
  await admin.getByLabel("Preview text", { exact: false }).fill("From the studio's notebook.");
  if (article) await admin.getByLabel("Article", { exact: true }).selectOption({ label: article });
  else await admin.getByLabel("Message", { exact: false }).fill("A short note from the studio.");
  await admin.getByLabel("Active members").check();
  await expect.poll(() => admin.getByTestId("audience-count").textContent()).toContain(`${expected} addresses`);
  await admin.getByRole("button", { name: "Save the draft" }).click();
  await expect.poll(() => heading(admin).textContent()).toBe(subject);
  await admin.getByRole("button", { name: "Send now" }).click();
  await expect
    .poll(() => admin.getByTestId("newsletter-counts").textContent(), { timeout: 60_000 })
    .toContain(`Sent${expected}`);
  await expect.poll(() => mailsOf(subject).length, { timeout: 30_000 }).toBe(expected);
  return mailsOf(subject);
}

beforeAll(async () => {
  // A scheduled article is published by the run its scheduling queued for its time (a work queue, which runs in tests
  // as in production; the every-minute net is a recurring task, which tests leave to themselves).
  env = await startE2E({ TZ: ZONE, NEWSLETTER_RATE_PER_MINUTE: "6000" });
  adminJar = await signIn(env.server, ADMIN.email, ADMIN.password);
  await signUpStaff(env.server, env.db.pool, EDITOR, "Editor");
  // Three confirmed subscribers (their double opt-in is issue 13's journey, tests/e2e/newsletter.test.ts).
  await env.db.pool.query(
    `insert into subscribers (subemail, state, confirmed_at) select unnest($1::text[]), 'confirmed', now()`,
    [SUBSCRIBERS],
  );
  for (const email of MEMBERS) await signUpMember(env.server, adminJar, email);
}, 120_000);
afterAll(() => env?.close());

describe("publish and send (issue 36)", () => {
  it("an Editor's scheduled article goes out at its time, gated, listed, sent, unsubscribed from, restored", async () => {
    // A second try (CI retries once) starts as the first did: every subscriber confirmed, nobody suppressed, no article
    // or newsletter of a first try's.
    await env.db.pool.query(
      "update subscribers set state = 'confirmed', unsubscribed_at = null where subemail = any($1::text[])",
      [SUBSCRIBERS],
    );
    await env.db.pool.query("delete from suppressions");
    await env.db.pool.query("delete from newsletters");
    await env.db.pool.query("delete from articles where title = any($1::text[])", [[TITLE, "A title nobody liked"]]);
    await env.db.pool.query("delete from article_slugs");
    for (const file of readdirSync(outboxDir())) rmSync(path.join(outboxDir(), file));
    // ── The Editor writes the article: a heading, a library image, the members-only marker, then schedules it.
    const editor = await newPage(env.browser, env.server.url);
    await logIn(editor, EDITOR, CUSTOMER_PASSWORD);
    await editor.goto("/articles/new");
    const form = main(editor).getByTestId("article-form");
    await form.getByLabel("Title", { exact: true }).fill(TITLE);
    await form.getByLabel("Excerpt (shown in lists and under the title)").fill("Three whites we trust in cool light.");
    const body = form.getByTestId("rich-text-body");
    await expect.poll(() => body.isVisible(), { timeout: 20_000 }).toBe(true);
    await body.click();
    await form.getByRole("button", { name: "H2: heading" }).click();
    await editor.keyboard.type("Start with the floor");
    await editor.keyboard.press("Enter");
    await editor.keyboard.type(PUBLIC_TEXT);
    await editor.keyboard.press("Enter");
    await form.getByTestId("editor-image").click();
    const picker = editor.getByTestId("media-picker");
    await expect.poll(() => picker.isVisible()).toBe(true);
    await picker.getByTestId("media-picker-items").getByRole("button").first().click();
    await expect.poll(() => picker.isVisible()).toBe(false);
    await form.getByTestId("editor-marker").click();
    // The line is drawn before anything is typed below it (typed at once, its first keys could go before it).
    await expect.poll(() => body.getByText("Members only below this line").count()).toBe(1);
    await editor.keyboard.type(MEMBERS_TEXT);
    await form.getByLabel("Who may read it").selectOption("split");
    await form.getByRole("button", { name: "Save draft" }).click();
    await editor.waitForURL((u) => /^\/articles\/[0-9a-f-]{36}$/.test(u.pathname));
    const id = new URL(editor.url()).pathname.split("/").pop()!;
    const { slug } = (await env.db.pool.query("select slug from articles where id = $1", [id])).rows[0] as {
      slug: string;
    };
    expect(slug).toBe("warm-whites-for-a-north-facing-hall");

    // Scheduled for the next whole minute at least 15 s away (the form's times are whole minutes).
    const when = new Date(Math.ceil((Date.now() + 15_000) / 60_000) * 60_000);
    const edit = main(editor).getByTestId("article-form");
    await edit.getByLabel(`Publish at (${ZONE} time)`).fill(toZonedInput(when, ZONE));
    await edit.getByRole("button", { name: "Schedule" }).click();
    await expect.poll(() => main(editor).getByTestId("article-state").textContent()).toMatch(/^Scheduled: goes out/);
    // Not out before its time.
    expect((await fetch(`${env.server.url}/blog/${slug}`)).status).toBe(404);

    // ── At its time the job queue publishes it.
    await expect
      .poll(async () => (await fetch(`${env.server.url}/blog/${slug}`)).status, { timeout: 100_000, interval: 1_000 })
      .toBe(200);
    const published = (await env.db.pool.query("select state, published_at from articles where id = $1", [id]))
      .rows[0] as { state: string; published_at: Date };
    expect(published.state).toBe("published");
    expect(published.published_at.getTime()).toBeGreaterThanOrEqual(when.getTime());

    // ── A visitor: the public part, the image, the call to join; not a word of the members' part.
    const visitor = await newPage(env.browser, env.server.url);
    await visitor.goto(`/blog/${slug}`);
    expect(await visitor.locator("h1").textContent()).toBe(TITLE);
    const article = visitor.locator("article");
    expect(await article.textContent()).toContain(PUBLIC_TEXT);
    expect(await article.locator("img[src^='/media/']").count()).toBeGreaterThan(0);
    expect(await visitor.content()).not.toContain(MEMBERS_TEXT);
    const join = visitor.getByTestId("article-locked");
    expect(await join.isVisible()).toBe(true);
    expect(await join.getByRole("link").first().getAttribute("href")).toBe("/pricing");

    // ── A member: all of it.
    const member = await newPage(env.browser, env.server.url);
    await logIn(member, MEMBERS[0]!, CUSTOMER_PASSWORD);
    await member.goto(`/blog/${slug}`);
    expect(await member.locator("article").textContent()).toContain(MEMBERS_TEXT);
    expect(await member.getByTestId("article-locked").count()).toBe(0);

    // ── The feed and the sitemap list it.
    const feed = await (await fetch(`${env.server.url}/blog/rss.xml`)).text();
    expect(feed).toContain(TITLE);
    expect(feed).toContain(`<link>${env.server.url}/blog/${slug}</link>`);
    expect(feed).not.toContain(MEMBERS_TEXT);
    expect(await (await fetch(`${env.server.url}/sitemap.xml`)).text()).toContain(
      `<loc>${env.server.url}/blog/${slug}</loc>`,
    );

    // ── A newsletter from it: 3 confirmed subscribers and 2 members, 5 mails.
    const admin = await newPage(env.browser, env.server.url);
    await logIn(admin, ADMIN.email, ADMIN.password);
    const first = await sendNewsletter(admin, TITLE, TITLE, 5);
    const to = (m: ReceivedMail) => m.to[0]!.toLowerCase();
    expect(first.map(to).sort()).toEqual([...MEMBERS, ...SUBSCRIBERS].sort());
    for (const mail of first) {
      const text = textOf(mail);
      expect(text, to(mail)).toContain(PUBLIC_TEXT);
      if (MEMBERS.includes(to(mail))) expect(text, to(mail)).toContain(MEMBERS_TEXT);
      else expect(text, to(mail)).not.toContain(MEMBERS_TEXT);
    }

    // ── One subscriber unsubscribes with one click (RFC 8058: the mail program posts to the header's address) …
    const leaving = first.find((m) => to(m) === SUBSCRIBERS[1])!;
    const click = await fetch(unsubscribeOf(leaving), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(click.status).toBeLessThan(300);
    // … and is not mailed the next time.
    const second = await sendNewsletter(admin, "A note from the studio", null, 4);
    expect(second.map(to).sort()).toEqual([...MEMBERS, SUBSCRIBERS[0]!, SUBSCRIBERS[2]!].sort());

    // ── An older version restored shows on the page.
    await editor.goto(`/articles/${id}`);
    const again = main(editor).getByTestId("article-form");
    await again.getByLabel("Title", { exact: true }).fill("A title nobody liked");
    await again.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(async () => (await visitor.goto(`/blog/${slug}`))?.status()).toBe(200);
    await expect
      .poll(async () => {
        await visitor.goto(`/blog/${slug}`);
        return visitor.locator("h1").textContent();
      })
      .toBe("A title nobody liked");
    await main(editor).getByRole("button", { name: "Restore this version (number 1)" }).click();
    const dialog = editor.getByTestId("restore-version-dialog");
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByTestId("confirm-restore").click();
    await expect.poll(() => toast(editor, "Restored: the article is now version").count()).toBeGreaterThan(0);
    await expect
      .poll(async () => {
        await visitor.goto(`/blog/${slug}`);
        return visitor.locator("h1").textContent();
      })
      .toBe(TITLE);
    // Restoring brings back its fields, never its state: it is still published.
    expect((await env.db.pool.query("select state from articles where id = $1", [id])).rows[0].state).toBe("published");
  }, 420_000);
});
