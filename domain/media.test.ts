import { describe, expect, it } from "vitest";
import { defaultUrl, formatBytes, heightAt, mediaUrl, parseMediaUrl, servedUrl, srcSet, variantWidths } from "./media";

describe("variantWidths", () => {
  it("gives the five standard widths to anything 1920 px wide or wider", () => {
    expect(variantWidths(1920)).toEqual([320, 640, 960, 1280, 1920]);
    expect(variantWidths(6000)).toEqual([320, 640, 960, 1280, 1920]);
  });
  it("never goes beyond the original, and ends with its own width", () => {
    expect(variantWidths(1000)).toEqual([320, 640, 1000]); // 960 is within 15% of 1000
    expect(variantWidths(1500)).toEqual([320, 640, 960, 1280, 1500]);
    expect(variantWidths(700)).toEqual([320, 700]);
    expect(variantWidths(320)).toEqual([320]);
    expect(variantWidths(64)).toEqual([64]);
    for (const w of [1, 50, 333, 959, 1281, 1919, 4000]) {
      const widths = variantWidths(w);
      expect(Math.max(...widths)).toBeLessThanOrEqual(w);
      expect([...widths].sort((a, b) => a - b)).toEqual(widths);
    }
  });
});

describe("library addresses", () => {
  const key = "0123456789abcdef01234567";
  it("round-trip through parseMediaUrl", () => {
    expect(parseMediaUrl(mediaUrl(key, 640, "webp"))).toEqual({ key, width: 640, format: "webp" });
    expect(parseMediaUrl(mediaUrl(key, 96, "svg"))).toEqual({ key, width: 96, format: "svg" });
  });
  it("are not confused with typed URLs or tampered names", () => {
    for (const url of [
      "/images/hero.svg",
      "https://example.com/media/0123456789abcdef01234567-640.webp",
      `/media/${key}-640.png`,
      `/media/${key}-0640.webp`,
      `/media/${key.toUpperCase()}-640.webp`,
      `/media/${key}-640.webp?x=1`,
      `/media/../${key}-640.webp`,
      null,
      42,
    ]) {
      expect(parseMediaUrl(url)).toBeNull();
    }
  });
  it("build srcset and the field's address from what exists", () => {
    const info = { key, widths: [320, 640, 1000], svg: false };
    expect(srcSet(info, "webp")).toBe(
      `/media/${key}-320.webp 320w, /media/${key}-640.webp 640w, /media/${key}-1000.webp 1000w`,
    );
    expect(defaultUrl(info)).toBe(`/media/${key}-1000.webp`);
    expect(defaultUrl({ key, widths: [96], svg: true })).toBe(`/media/${key}-96.svg`);
    expect(heightAt({ width: 6000, height: 4000 }, 640)).toBe(427);
  });
  it("point pages at the CDN when the image has a base (decision 081); the field keeps the app's address", () => {
    const info = { key, widths: [320, 640], svg: false, base: "https://cdn.agency.example/media/" };
    expect(srcSet(info, "avif")).toBe(
      `https://cdn.agency.example/media/${key}-320.avif 320w, https://cdn.agency.example/media/${key}-640.avif 640w`,
    );
    expect(servedUrl(info, 640, "webp")).toBe(`https://cdn.agency.example/media/${key}-640.webp`);
    expect(servedUrl({ key }, 640, "webp")).toBe(`/media/${key}-640.webp`);
    expect(defaultUrl(info)).toBe(`/media/${key}-640.webp`);
  });
});

describe("formatBytes", () => {
  it("says sizes as people do", () => {
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MB");
    expect(formatBytes(2.45 * 1024 * 1024)).toBe("2.5 MB");
    expect(formatBytes(310 * 1024)).toBe("310 KB");
    expect(formatBytes(12)).toBe("1 KB");
  });
});
