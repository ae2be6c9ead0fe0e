import { mkdirSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, signUpMember } from "../support/accounts";
import { axeViolations } from "../support/axe";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { ADMIN, notifyContentChanged, openUntil, startE2E, type E2EEnv } from "../support/e2e";
import { photo } from "../support/images";
import { ROOT } from "../support/server";
import type { CookieJar } from "../support/session";

/**
 * The blog in Chromium against the built server (issue 36, parts 2 and 3): a visitor opens /blog, then an article with
 * a members-only part, and sees the public part and the call to join; a member sees all of it; the feed and the
 * sitemap list it. Screenshots of /blog and the article at 390 and 1280 px go to BLOG_SCREENSHOTS when it is set.
 */
let env: E2EEnv;
let admin: CookieJar;
const SECRET = "The studio's schedule of undercoats for north light";
const SHOTS = process.env.BLOG_SCREENSHOTS;

const site = () => ({ url: env.server.url });

/** A library image, uploaded by the admin: its address as an image field stores it. */
async function cover(): Promise<string> {
  const form = new FormData();
  form.set("alt", "A pale living room in the morning light");
  const bytes = await (await photo(1600, 900)).jpeg({ quality: 80 }).toBuffer();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "room.jpg");
  const res = await fetch(`${env.server.url}/api/media`, {
    method: "POST",
    body: form,
    headers: { cookie: admin.header(), origin: env.server.url },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { url: string } }).item.url;
}

/** A customer made a member by the admin. */
const member = (email: string) => signUpMember(site(), admin, email);

/** A browser context signed in with the cookies of `jar`. */
async function signedInPage(jar: CookieJar, viewport = DESKTOP): Promise<Page> {
  const page = await newPage(env.browser, env.server.url, { viewport });
  const { hostname } = new URL(env.server.url);
  await page.context().addCookies(
    jar
      .header()
      .split("; ")
      .map((pair) => {
        const eq = pair.indexOf("=");
        return { name: pair.slice(0, eq), value: pair.slice(eq + 1), domain: hostname, path: "/" };
      }),
  );
  return page;
}

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(path.resolve(ROOT, SHOTS), `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  env = await startE2E();
  admin = await signIn(site(), ADMIN.email, ADMIN.password);
  const image = await cover();
  const body = [
    "<p>Light is the first material of any room: before colour, before furniture, the way daylight enters decides how a space feels.</p>",
    "<h2>Start with the windows</h2><p>Note where the sun falls through the day, and put the rooms you use most where their hours of light are.</p>",
    "<ul><li>Keep sills pale.</li><li>Hang curtains wider than the frame.</li></ul>",
    "<blockquote><p>A room is finished when the light has somewhere to go.</p></blockquote>",
    '<div data-youtube-video=""><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0" title="A tour of a north-facing flat" allowfullscreen=""></iframe></div>',
    "<hr data-members-only />",
    `<h2>For members</h2><p>${SECRET}.</p>`,
  ].join("");
  // The blog of this test alone: the demo articles out.
  await env.db.pool.query("delete from articles");
  await env.db.pool.query(
    `insert into articles (slug, title, excerpt, cover_image, body_html, access, tags, tag_slugs, author_name, state, published_at)
     values ('designing-with-daylight', 'Designing with daylight', 'How light moves through a room, and how to plan for it.',
             $1, $2, 'split', '{Light,Planning}', '{light,planning}', 'Ada Lane', 'published', now() - interval '1 hour'),
            ('colour-in-small-rooms', 'Colour in small rooms', 'Why a dark wall can make a small room feel larger.',
             $1, '<p>Dark walls blur corners.</p>', 'public', '{Colour,Light}', '{colour,light}', 'Ada Lane', 'published',
             now() - interval '2 days')`,
    [image, body],
  );
  await notifyContentChanged(env.db);
}, 240_000);
afterAll(() => env?.close());

describe("the blog in a browser", () => {
  let context: BrowserContext | undefined;
  afterAll(() => context?.close());

  it("a visitor opens /blog from the header, then the article: its public part and the call to join", async () => {
    const page = await newPage(env.browser, env.server.url);
    context = page.context();
    await openUntil(
      page,
      "/",
      async () =>
        (await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).count()) === 1,
    );
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/blog");
    expect(await page.locator("h1").textContent()).toBe("Blog");
    const cards = page.getByTestId("article-card");
    expect(await cards.count()).toBe(2);
    expect(await cards.first().locator("h2").textContent()).toBe("Designing with daylight");
    // The cover through the responsive images: a srcset of the library's widths.
    expect(await cards.first().locator("img").getAttribute("srcset")).toMatch(/\d+w/);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, "blog-1280");

    await cards.first().getByRole("link", { name: "Designing with daylight" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/blog/designing-with-daylight");
    expect(await page.locator("h1").textContent()).toBe("Designing with daylight");
    const body = page.getByTestId("article-body");
    expect(await body.textContent()).toContain("Start with the windows");
    expect(await page.content()).not.toContain(SECRET);
    const locked = page.getByTestId("article-locked");
    expect(await locked.getByRole("link", { name: "See the plans" }).getAttribute("href")).toBe("/pricing");
    // The video is a link to YouTube: no third-party frame on the page.
    expect(await page.locator("iframe").count()).toBe(0);
    expect(
      await body.getByRole("link", { name: /Watch “A tour of a north-facing flat” on YouTube/ }).getAttribute("href"),
    ).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    // Related by tag.
    expect(
      await page
        .getByRole("region", { name: "Related articles" })
        .getByRole("link", { name: "Colour in small rooms" })
        .count(),
    ).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, "article-1280");

    await locked.getByRole("link", { name: "See the plans" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/pricing");
  });

  it("a member reads all of it; the call to action is gone; a visitor after them gets the visitors' copy", async () => {
    const page = await signedInPage(await member("reader.member@example.org"));
    await page.goto("/blog/designing-with-daylight");
    expect(await page.getByTestId("article-body").textContent()).toContain(SECRET);
    expect(await page.getByTestId("article-locked").count()).toBe(0);
    await page.context().close();
    // Then a visitor, with the page cache on: never the member's copy.
    const visitor = await newPage(env.browser, env.server.url);
    const res = await visitor.goto("/blog/designing-with-daylight");
    expect(res?.headers()["x-cache"]).toBe("HIT");
    expect(await visitor.content()).not.toContain(SECRET);
    expect(await visitor.getByTestId("article-locked").count()).toBe(1);
    await visitor.context().close();
  });

  it("at 390 px: /blog and the article fit the screen", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    for (const [address, name] of [
      ["/blog", "blog-390"],
      ["/blog/designing-with-daylight", "article-390"],
    ] as const) {
      await page.goto(address);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, address).toBeLessThanOrEqual(0);
      await shot(page, name);
    }
    await page.context().close();
  });

  it("the feed and the sitemap list it", async () => {
    const rss = await (await fetch(`${env.server.url}/blog/rss.xml`)).text();
    expect(rss).toContain(`<link>${env.server.url}/blog/designing-with-daylight</link>`);
    expect(rss).not.toContain(SECRET);
    const sitemap = await (await fetch(`${env.server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${env.server.url}/blog/designing-with-daylight</loc>`);
    expect(sitemap).toContain(`<loc>${env.server.url}/blog</loc>`);
  });
});
