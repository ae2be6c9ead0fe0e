import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { violations } from "../support/axe";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { ADMIN, openUntil, startAdminE2E, type E2EEnv } from "../support/e2e";
import { logIn, main, toast } from "../support/pages";

/**
 * Issue 28 part 5 (decision 047): an administrator writes the home page's search listing; the public page's title,
 * meta description, Open Graph and Twitter card tags, its JSON-LD and the sitemap then show it.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()), 120_000);
afterAll(() => env?.close());

const TITLE = "Interior design and SEO in Leeds | Atelier North";
const DESCRIPTION =
  "Calm, hard-working interiors for homes and offices, and the search rankings that bring design-led businesses their clients. Book a first call today.";
const IMAGE = "/images/share-card.png";

const metaContent = (page: Page, selector: string) => page.locator(`head ${selector}`).getAttribute("content");

describe("search listings", () => {
  it("the overview shows every public page's search result, each with its edit link", async () => {
    await admin.goto("/search-listings");
    for (const name of [
      "Home",
      "Service page",
      "Pricing page",
      "Contact page",
      "Thank-you page",
      "Privacy notice",
      "Terms",
    ])
      await main(admin)
        .getByRole("link", { name: `Edit ${name}` })
        .waitFor();
    const home = main(admin).getByTestId("listing-home");
    expect(await home.getByTestId("preview-title").textContent()).toMatch(/\| Atelier North Studio$|…$/);
    expect(await home.textContent()).toContain("From the page's content.");
  });

  it("the edit screen previews what is typed and says what to do about its length", async () => {
    await admin.goto("/search-listings");
    await main(admin).getByRole("link", { name: "Edit Home" }).click();
    await admin.waitForURL("**/search-listings/home");
    const title = admin.getByLabel("Page title (optional)");
    const description = admin.getByLabel("Meta description (optional)");
    // Empty: the page's own text, as the placeholder and the preview show.
    expect(await title.getAttribute("placeholder")).toContain("| Atelier North Studio");
    expect(await admin.locator("#seoTitle-hint").textContent()).toBe(
      "Empty: the page's own title is used. Type one to choose yours.",
    );
    await title.fill("x".repeat(70));
    await expect
      .poll(() => admin.locator("#seoTitle-hint").textContent())
      .toBe("70 characters: search results cut titles after about 60. Shorten it by 10.");
    await title.fill(TITLE);
    await expect.poll(() => admin.getByTestId("preview-title").textContent()).toBe(TITLE);
    expect(await admin.locator("#seoTitle-hint").getAttribute("data-verdict")).toBe("good");
    await description.fill("Too short.");
    await expect.poll(() => admin.locator("#seoDescription-hint").getAttribute("data-verdict")).toBe("short");
    await description.fill(DESCRIPTION);
    await expect.poll(() => admin.getByTestId("preview-description").textContent()).toBe(DESCRIPTION);
    expect(await admin.locator("#seoDescription-hint").textContent()).toBe(
      `${DESCRIPTION.length} characters: a good length (120 to 155).`,
    );
    await admin.getByLabel("Share image (optional)").fill(IMAGE);
    await admin.getByRole("button", { name: "Save search listing" }).click();
    await toast(admin, "Search listing saved").waitFor();
    // Saved: the overview says so.
    await admin.goto("/search-listings");
    const home = main(admin).getByTestId("listing-home");
    expect(await home.getByTestId("preview-title").textContent()).toBe(TITLE);
    expect(await home.textContent()).toContain("Written for search.");
  });

  it("the public home page's tags, its JSON-LD and the sitemap use the listing once the cache has dropped", async () => {
    const visitor = await newPage(env.browser, env.server.url);
    await openUntil(visitor, "/", async () => (await visitor.title()) === TITLE);
    const base = env.server.url;
    expect(await metaContent(visitor, 'meta[name="description"]')).toBe(DESCRIPTION);
    expect(await metaContent(visitor, 'meta[property="og:title"]')).toBe(TITLE);
    expect(await metaContent(visitor, 'meta[property="og:description"]')).toBe(DESCRIPTION);
    expect(await metaContent(visitor, 'meta[property="og:image"]')).toBe(base + IMAGE);
    expect(await metaContent(visitor, 'meta[name="twitter:card"]')).toBe("summary_large_image");

    const ld = JSON.parse((await visitor.getByTestId("structured-data").textContent())!) as unknown;
    const items = (Array.isArray(ld) ? ld : [ld]) as Record<string, unknown>[];
    const webPage = items.find((i) => i["@type"] === "WebPage");
    expect(webPage).toMatchObject({
      name: TITLE,
      description: DESCRIPTION,
      url: `${base}/`,
      primaryImageOfPage: { "@type": "ImageObject", url: base + IMAGE },
    });

    const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
    expect(sitemap).toContain(
      `<url><loc>${base}/</loc><image:image><image:loc>${base}${IMAGE}</image:loc></image:image></url>`,
    );
    // Another page keeps its defaults, and shares the home page's image.
    await visitor.goto("/pricing");
    expect(await visitor.title()).toBe("Pricing | Atelier North Studio");
    expect(await metaContent(visitor, 'meta[property="og:image"]')).toBe(base + IMAGE);
    await visitor.context().close();
  });

  it("the screens pass axe at 1280 and 390 pixels", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await newPage(env.browser, env.server.url, { viewport });
      await logIn(page, ADMIN.email, ADMIN.password);
      const found = [
        ...(await violations(page, "/search-listings")),
        ...(await violations(page, "/search-listings/home")),
      ];
      expect(found, `${viewport.width} px`).toEqual([]);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
      await page.context().close();
    }
  });
});
