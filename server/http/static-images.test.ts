import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { staticImagesUsed } from "../../app/lib/static-images.server";
import { loadStaticImages } from "./static-images";

describe("loadStaticImages", () => {
  it("reads the build's map, keeping only shipped images mapped to built assets", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "static-images-"));
    writeFileSync(
      path.join(dir, "static-images.json"),
      JSON.stringify({
        "/images/logo.svg": "/assets/logo-0123456789ab.svg",
        "/etc/passwd": "/assets/x.svg",
        "/images/odd.svg": "https://elsewhere.example/odd.svg",
      }),
    );
    expect(loadStaticImages(dir)).toEqual({ "/images/logo.svg": "/assets/logo-0123456789ab.svg" });
  });

  it("is empty without a build (development, API-only tests)", () => {
    expect(loadStaticImages(mkdtempSync(path.join(tmpdir(), "static-images-")))).toEqual({});
  });
});

describe("staticImagesUsed", () => {
  const all = { "/images/logo.svg": "/assets/logo-a.svg", "/images/hero.svg": "/assets/hero-b.svg" };

  it("gives only the images the content names, as whole values", () => {
    const content = {
      logo: [{ _id: "1", logo: "/images/logo.svg" }],
      banner: [{ bannerImage: "/images/hero.svg.bak" }],
    };
    expect(staticImagesUsed(content, all)).toEqual({ "/images/logo.svg": "/assets/logo-a.svg" });
  });

  it("works once per content snapshot", () => {
    const content = { logo: [{ logo: "/images/hero.svg" }] };
    const first = staticImagesUsed(content, all);
    expect(staticImagesUsed(content, all)).toBe(first);
    expect(staticImagesUsed({ logo: [] }, all)).toEqual({});
  });
});
