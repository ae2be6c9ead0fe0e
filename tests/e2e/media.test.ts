import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PHONE, newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { imageOf } from "../support/images";
import { toast } from "../support/pages";

/** Issue 11: an administrator puts a photo on the site from the banner's edit screen; phones download a small file. */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

const ALT = "A sunlit reading corner with an oak armchair";
let key = "";

describe("the banner's image from the media library", () => {
  it("uploads in place from the edit screen, shows a preview, saves, and / draws it with srcset", async () => {
    const [banner] = (await env.db.pool.query("select id from content_entries where type = 'banner'")).rows;
    await admin.goto(`/banner/${banner.id}`);
    await admin.getByTestId("pick-bannerImage").click();
    const picker = admin.getByTestId("media-picker");
    await expect.poll(() => picker.isVisible()).toBe(true);
    // The library already holds the demo images, newest first.
    await expect.poll(() => picker.getByTestId("media-picker-items").getByRole("button").count()).toBeGreaterThan(0);

    await picker.getByLabel("Image file").setInputFiles({
      name: "reading-corner.jpg",
      mimeType: "image/jpeg",
      buffer: await imageOf("jpeg", 2400, 1600),
    });
    await picker.getByLabel("Alt text").fill(ALT);
    await picker.getByRole("button", { name: "Upload" }).click();
    await expect.poll(() => picker.isVisible(), { timeout: 60_000 }).toBe(false);

    const field = admin.getByLabel("Banner Image or Video Link");
    const url = await field.inputValue();
    expect(url).toMatch(/^\/media\/[0-9a-f]{24}-1920\.webp$/);
    key = url.slice("/media/".length, "/media/".length + 24);
    const preview = admin.getByTestId("image-preview");
    expect(await preview.getAttribute("src")).toBe(`/media/${key}-320.webp`);
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);

    await admin.getByRole("button", { name: "Update Banner" }).click();
    await expect.poll(() => toast(admin, "Banner is Updated").count()).toBe(1);

    const visitor = await newPage(env.browser, env.server.url);
    await visitor.goto("/");
    const hero = visitor.getByTestId("hero-image");
    expect(await hero.getAttribute("alt")).toBe(ALT);
    expect(await hero.getAttribute("srcset")).toContain(`/media/${key}-640.webp 640w`);
    expect(await hero.getAttribute("sizes")).toBeTruthy();
    expect([await hero.getAttribute("width"), await hero.getAttribute("height")]).toEqual(["2400", "1600"]);
    expect(await hero.getAttribute("fetchpriority")).toBe("high");
    expect(await hero.getAttribute("loading")).toBe("eager");
    // Below the fold: lazy.
    const about = visitor.locator("img[srcset]").nth(1);
    expect(await about.getAttribute("loading")).toBe("lazy");
    await visitor.context().close();
  });

  it("at 390 px (a phone's two device pixels per CSS pixel) the browser downloads a file no wider than 960 px", async () => {
    expect(key).not.toBe("");
    const phone = await newPage(env.browser, env.server.url, { viewport: PHONE, deviceScaleFactor: 2 });
    const fetched: string[] = [];
    phone.on("request", (request) => {
      if (request.url().includes(`/media/${key}-`)) fetched.push(new URL(request.url()).pathname);
    });
    await phone.goto("/");
    const hero = phone.getByTestId("hero-image");
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const widths = fetched.map((p) => Number(/-(\d+)\.(?:webp|avif)$/.exec(p)![1]));
    expect(widths.length).toBeGreaterThan(0);
    for (const w of widths) expect(w).toBeLessThanOrEqual(960);
    await phone.context().close();
  });
});

describe("the library screen", () => {
  it("lists the uploaded image with its alt text and where it is used; deleting it is refused naming the banner", async () => {
    await admin.goto("/media-library");
    const card = admin.getByTestId("media-item").filter({ hasText: "reading-corner.jpg" });
    expect(await card.getByLabel("Alt text").inputValue()).toBe(ALT);
    expect(await card.getByTestId("media-usages").textContent()).toContain("Banner (Banner Image or Video Link)");
    admin.once("dialog", (dialog) => void dialog.accept());
    await card.getByRole("button", { name: "Delete image" }).click();
    await expect
      .poll(() =>
        admin
          .getByRole("alert")
          .filter({ hasText: "This image is used by Banner (Banner Image or Video Link)." })
          .count(),
      )
      .toBeGreaterThan(0);
    expect((await env.db.pool.query("select count(*)::int as n from media where key = $1", [key])).rows[0].n).toBe(1);
  });
});
