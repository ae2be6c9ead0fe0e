import { describe, expect, it } from "vitest";
import { staticImagesUsed } from "./static-images.server";

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
