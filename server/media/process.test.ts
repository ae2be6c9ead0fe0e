import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  decompressionBomb,
  executable,
  hasGpsDirectory,
  imageOf,
  jpegWithGps,
  svgWithScript,
} from "#tests/support/images.ts";
import { processImage } from "./process";

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => ({ status: 0 }),
    (e: { status?: number; message: string }) => ({ status: e.status ?? -1, message: e.message }),
  );

// Image encoding on a shared two-core machine: generous timeouts.
describe("processImage", { timeout: 60_000 }, () => {
  it("orients by the EXIF tag, keeps no metadata, and writes each width in WebP", async () => {
    const photo = await jpegWithGps(1200, 800);
    expect(hasGpsDirectory((await sharp(photo).metadata()).exif)).toBe(true);
    const out = await processImage(photo);
    // Orientation 6: the picture stands upright, 800 wide and 1200 high.
    expect([out.width, out.height]).toEqual([800, 1200]);
    const webp = out.variants.filter((v) => v.format === "webp");
    expect(webp.map((v) => v.width)).toEqual([320, 640, 800]);
    for (const v of out.variants) {
      const meta = await sharp(v.data).metadata();
      expect([meta.width, meta.height]).toEqual([v.width, v.height]);
      expect(v.height).toBe(Math.round((v.width * 1200) / 800));
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(v.data.includes("TestCam")).toBe(false);
    }
    expect(out.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("keeps AVIF only beside WebP, at the same widths", async () => {
    const out = await processImage(await imageOf("png", 700, 500));
    const widths = (f: string) => out.variants.filter((v) => v.format === f).map((v) => v.width);
    expect(widths("webp")).toEqual([320, 700]);
    if (widths("avif").length) expect(widths("avif")).toEqual(widths("webp"));
  });

  it("refuses what is not an accepted image (415), too many pixels (413) and damaged files (400)", async () => {
    expect(await refusal(processImage(executable()))).toMatchObject({ status: 415 });
    expect(await refusal(processImage(svgWithScript()))).toMatchObject({ status: 415, message: /SVG/ });
    expect(await refusal(processImage(decompressionBomb()))).toMatchObject({ status: 413, message: /megapixels/ });
    const jpeg = await imageOf("jpeg", 600, 400);
    expect(await refusal(processImage(jpeg.subarray(0, Math.floor(jpeg.length * 0.6))))).toMatchObject({
      status: 400,
    });
  });
});

describe("the placeholder colour", () => {
  it("is the picture's dominant colour, transparency seen on white", async () => {
    const red = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#c03020" } })
      .png()
      .toBuffer();
    // The dominant colour comes from a histogram of 16 levels per channel: within one level of the truth.
    const near = (color: string, [r, g, b]: number[]) =>
      [1, 3, 5].every((at, i) => Math.abs(parseInt(color.slice(at, at + 2), 16) - [r, g, b][i]!) <= 16);
    expect(near((await processImage(red)).color, [0xc0, 0x30, 0x20])).toBe(true);
    const clear = await sharp({ create: { width: 400, height: 300, channels: 4, background: "#00000000" } })
      .png()
      .toBuffer();
    expect(near((await processImage(clear)).color, [255, 255, 255])).toBe(true);
  });
});

describe("unusual but valid inputs", { timeout: 60_000 }, () => {
  it("16-bit, greyscale, grey with alpha and CMYK images all become 8-bit sRGB WebP", async () => {
    const base = () => sharp({ create: { width: 500, height: 300, channels: 3, background: "#7a5c3e" } });
    const inputs = [
      await base().png({ force: true }).toColourspace("rgb16").toBuffer(),
      await base().greyscale().png().toBuffer(),
      await sharp({ create: { width: 500, height: 300, channels: 4, background: "#80808080" } })
        .greyscale()
        .png()
        .toBuffer(),
      await base().toColourspace("cmyk").jpeg().toBuffer(),
    ];
    for (const input of inputs) {
      const out = await processImage(input);
      expect([out.width, out.height]).toEqual([500, 300]);
      for (const v of out.variants) {
        const meta = await sharp(v.data).metadata();
        expect(meta.space).toBe("srgb");
        expect(meta.depth).toBe("uchar");
      }
    }
  });
});
