import { SIGNUP_NEXT_STEP } from "#domain/public-texts.ts";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newPage, PHONE } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox, type ReceivedMail } from "../support/mail";
import { heading, main } from "../support/pages";

/** Issue 13, part 3, end to end: subscribe in the footer, confirm from the mail in the outbox, unsubscribe in one click. */
let env: E2EEnv;
let admin: Page;
const SHOTS = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), "newsletter-shots");

beforeAll(async () => {
  ({ env, admin } = await startAdminE2E());
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(() => env?.close());

/** The confirmation mail sent to `address`, once the queue has written it to DATA_DIR/outbox. */
async function confirmationFor(address: string): Promise<ReceivedMail> {
  const find = () =>
    outbox(env.server.dataDir).find((m) => m.to[0]!.includes(address) && /^Confirm your subscription/.test(m.subject));
  await expect.poll(() => find() !== undefined, { timeout: 20_000 }).toBe(true);
  return find()!;
}
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const confirmPathOf = (mail: ReceivedMail) => /\/newsletter\/confirm\/[\w-]+/.exec(decoded(mail.raw))![0];
const unsubscribeUrlOf = (mail: ReceivedMail) => {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  return /^List-Unsubscribe: <([^>]+)>/m.exec(head)![1]!;
};
const stateOf = async (email: string) =>
  (await env.db.pool.query("select state from subscribers where subemail = $1", [email])).rows[0]?.state as string;

/** The page is as wide as the screen (nothing pushes it sideways), and a screenshot is kept to look at. */
async function looksRight(page: Page, name: string) {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll, `${name} scrolls sideways`).toBeLessThanOrEqual(width);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: false });
}

async function subscribeInFooter(page: Page, email: string) {
  await page.locator("footer").getByLabel("Email address").fill(email);
  await page.locator("footer").getByRole("button", { name: "Subscribe" }).click();
  // Public pages are plain HTML (decision 027): their small script posts the form in place, and the footer shows the
  // spec's text and what to do next from /newsletter's answer, the same whatever the address's state.
  const answer = page.locator("footer").getByRole("status");
  await expect.poll(() => answer.textContent()).toBe("Subscribers is Updated");
  expect(await page.locator("footer").textContent()).toContain(SIGNUP_NEXT_STEP);
}

describe("the newsletter, double opt-in", () => {
  it("a visitor subscribes, confirms from the mail in the outbox, then unsubscribes with one click", async () => {
    const email = "reader@example.org";
    const visitor = await newPage(env.browser, env.server.url);
    await visitor.goto("/pricing");
    await subscribeInFooter(visitor, email);
    expect(await stateOf(email)).toBe("pending");

    // Not a subscriber yet: the admin sees the address among the pending ones only.
    await admin.goto("/all-subscriber");
    expect(await admin.getByTestId("subscribers").textContent()).not.toContain(email);
    await admin
      .getByRole("navigation", { name: "Subscriber states" })
      .getByRole("link", { name: /Pending/ })
      .click();
    await expect.poll(() => admin.getByTestId("subscribers").textContent()).toContain(email);

    const mail = await confirmationFor(email);
    await visitor.goto(confirmPathOf(mail));
    await expect.poll(() => heading(visitor).textContent()).toBe("Confirm your subscription");
    expect(await visitor.getByTestId("newsletter-confirm").textContent()).toContain(email);
    expect(await stateOf(email)).toBe("pending"); // opening the link (as a mail scanner would) changes nothing
    await looksRight(visitor, "confirm");
    await visitor.getByRole("button", { name: "Confirm my subscription" }).click();
    await expect.poll(() => heading(visitor).textContent()).toBe("You are subscribed");
    expect(await stateOf(email)).toBe("confirmed");
    await looksRight(visitor, "confirmed");

    await admin.goto("/all-subscriber");
    await expect.poll(() => admin.getByTestId("subscribers").textContent()).toContain(email);
    await looksRight(admin, "admin-subscribers");

    // The link in the mail's List-Unsubscribe header: GET shows the button, the button unsubscribes.
    const unsubscribe = new URL(unsubscribeUrlOf(mail));
    await visitor.goto(unsubscribe.pathname);
    await expect.poll(() => heading(visitor).textContent()).toBe("Unsubscribe from the newsletter?");
    expect(await stateOf(email)).toBe("confirmed");
    await looksRight(visitor, "unsubscribe");
    await visitor.getByRole("button", { name: "Unsubscribe" }).click();
    await expect.poll(() => heading(visitor).textContent()).toBe("You are unsubscribed");
    expect(await stateOf(email)).toBe("unsubscribed");
    await looksRight(visitor, "unsubscribed");

    // The used confirmation link now offers a new one instead of subscribing again by itself.
    await visitor.goto(confirmPathOf(mail));
    await expect.poll(() => heading(visitor).textContent()).toBe("This link was already used");
    expect(await visitor.getByRole("button", { name: "Send me a new link" }).count()).toBe(1);
    await visitor.context().close();
  });

  it("the pages read well on a phone", async () => {
    const email = "phone@example.org";
    const phone = await newPage(env.browser, env.server.url, { viewport: PHONE, isMobile: true, hasTouch: true });
    await phone.goto("/");
    await subscribeInFooter(phone, email);
    const mail = await confirmationFor(email);
    await phone.goto(confirmPathOf(mail));
    await expect.poll(() => heading(phone).textContent()).toBe("Confirm your subscription");
    await looksRight(phone, "confirm");
    await phone.getByRole("button", { name: "Confirm my subscription" }).click();
    await expect.poll(() => heading(phone).textContent()).toBe("You are subscribed");
    await looksRight(phone, "confirmed");
    await phone.goto(new URL(unsubscribeUrlOf(mail)).pathname);
    await expect.poll(() => heading(phone).textContent()).toBe("Unsubscribe from the newsletter?");
    await looksRight(phone, "unsubscribe");
    await phone.goto("/newsletter/confirm/not-a-real-token");
    await expect.poll(() => heading(phone).textContent()).toBe("This link does not work");
    await looksRight(phone, "invalid-link");
    await phone.context().close();
  });

  it("a mail provider's RFC 8058 one-click POST unsubscribes, with no cookie, Origin or form id", async () => {
    const visitor = await newPage(env.browser, env.server.url);
    for (const email of ["one-click@example.org", "multipart@example.org", "cross-site@example.org"]) {
      await visitor.goto("/");
      await subscribeInFooter(visitor, email);
    }
    await visitor.context().close();

    const urlencoded = unsubscribeUrlOf(await confirmationFor("one-click@example.org"));
    const res = await fetch(urlencoded, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toContain("You are unsubscribed");
    const page = await fetch(urlencoded);
    expect(page.headers.get("cache-control")).toBe("no-store"); // a page per link: never kept by a cache
    expect(await stateOf("one-click@example.org")).toBe("unsubscribed");

    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    const multipart = await fetch(unsubscribeUrlOf(await confirmationFor("multipart@example.org")), {
      method: "POST",
      body: form,
      redirect: "manual",
    });
    expect(multipart.status).toBe(200);
    expect(await stateOf("multipart@example.org")).toBe("unsubscribed");

    // A browser posting from another site is still refused (no page takes a cross-site form).
    const crossSite = await fetch(unsubscribeUrlOf(await confirmationFor("cross-site@example.org")), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);
    expect(await stateOf("cross-site@example.org")).toBe("pending");

    // A forged link unsubscribes nobody and says so.
    const forged = await fetch(`${env.server.url}/newsletter/unsubscribe/not-a-token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
      redirect: "manual",
    });
    expect(forged.status).toBe(404);
  });

  it("without JavaScript: the footer form, the confirm button and the unsubscribe button work as plain posts", async () => {
    const email = "plain@example.org";
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    const press = async (name: string) => {
      await page.getByRole("button", { name }).click();
      await page.waitForLoadState();
    };
    await page.goto("/");
    await page.locator("footer").getByLabel("Email address").fill(email);
    await press("Subscribe");
    expect(await heading(page).textContent()).toBe("Subscribers is Updated");
    expect(await main(page).textContent()).toContain("open the link we emailed");
    const mail = await confirmationFor(email);
    await page.goto(confirmPathOf(mail));
    await press("Confirm my subscription");
    expect(await heading(page).textContent()).toBe("You are subscribed");
    expect(await stateOf(email)).toBe("confirmed");
    await page.goto(new URL(unsubscribeUrlOf(mail)).pathname);
    await press("Unsubscribe");
    expect(await heading(page).textContent()).toBe("You are unsubscribed");
    expect(await stateOf(email)).toBe("unsubscribed");
    await context.close();
  });

  it("the admin's CSV export holds every address with its state and dates", async () => {
    const res = await admin.request.get("/admin/export/subscribers.csv");
    expect(res.status()).toBe(200);
    const lines = (await res.text()).trim().split(/\r?\n/);
    // Moments are written in the site's time zone, which the headers name.
    expect(lines[0]!.replace(/^\uFEFF/, "")).toMatch(
      /^Email,State,Subscribed At \([\w/+-]+\),Confirmed At \([\w/+-]+\),Unsubscribed At \([\w/+-]+\)$/,
    );
    const reader = lines.find((l) => l.startsWith("reader@example.org,"))!.split(",");
    expect(reader[1]).toBe("Unsubscribed");
    for (const date of reader.slice(2)) expect(date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const pending = lines.find((l) => l.startsWith("cross-site@example.org,"))!.split(",");
    expect(pending.slice(1)).toEqual(["Pending", expect.stringMatching(/^\d{4}-/), "", ""]);
  });
});
