import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createMailLogo, renderMailLogo, siteFileReader } from "./logo";

const PUBLIC = path.resolve(import.meta.dirname, "../../public");
const siteLogo = readFileSync(path.join(PUBLIC, "images/logo.svg"));

describe("the mails' logo", () => {
  it("draws the site's SVG logo as a PNG twice as big as it is shown, 36 px tall, its proportions kept", async () => {
    const png = await renderMailLogo(siteLogo);
    const meta = await sharp(png.data).metadata();
    expect(meta.format).toBe("png");
    expect(meta.hasAlpha).toBe(true);
    // public/images/logo.svg is 180 × 48: 135 × 36 shown, 270 × 72 drawn.
    expect({ width: png.width, height: png.height }).toEqual({ width: 135, height: 36 });
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 270, height: 72 });
    expect(png.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it("keeps a very wide logo within 240 px", async () => {
    const wide = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="20"><rect width="1000" height="20"/></svg>',
    );
    const png = await renderMailLogo(wide);
    expect(png.width).toBe(240);
    expect(png.height).toBeLessThanOrEqual(36);
  });

  it("reads shipped files and nothing outside them; a logo on another site has no PNG", async () => {
    const read = siteFileReader({ publicDirs: [PUBLIC], mediaFile: async () => null });
    expect(await read("/images/logo.svg")).toEqual(siteLogo);
    expect(await read("/../package.json")).toBeUndefined();
    expect(await read("/%2e%2e/package.json")).toBeUndefined();
    expect(await read("/images/none.png")).toBeUndefined();
    const logo = createMailLogo(read);
    expect(await logo("https://elsewhere.example/logo.png")).toBeUndefined();
    expect(await logo("//elsewhere.example/logo.png")).toBeUndefined();
    expect(await logo(undefined)).toBeUndefined();
    const first = await logo("/images/logo.svg");
    expect(first?.width).toBe(135);
    // Drawn once per logo address.
    expect(await logo("/images/logo.svg")).toBe(first);
  });

  it("asks the media library for a media file's bytes", async () => {
    const asked: unknown[] = [];
    const read = siteFileReader({
      publicDirs: [PUBLIC],
      mediaFile: async (...args) => (asked.push(args), { data: siteLogo }),
    });
    expect(await read(`/media/${"a".repeat(24)}-640.webp`)).toEqual(siteLogo);
    expect(asked).toEqual([["a".repeat(24), 640, "webp"]]);
  });

  it("is drawn again after a failed read rather than left out for good", async () => {
    let fail = true;
    const logo = createMailLogo(async () => {
      if (fail) throw new Error("database away");
      return siteLogo;
    });
    expect(await logo("/images/logo.svg")).toBeUndefined();
    fail = false;
    expect((await logo("/images/logo.svg"))?.height).toBe(36);
  });
});
