import { describe, expect, it } from "vitest";
import { getSection, sections } from "./registry";
import { validateSection } from "./validation";

const banner = getSection("banner")!;
const pricing = getSection("pricing")!;
const validBanner = {
  bannerHeading: "Spaces people remember",
  buttonTwoLink: "Interior Design & SEO",
  bannerDetails: "We design interiors.",
  bannerImage: "/images/hero.svg",
  buttonOneText: "Explore",
  buttonOneLink: "/pricing",
};

describe("the registry", () => {
  it("has unique types and unique REST paths", () => {
    const types = sections.map((s) => s.type);
    expect(new Set(types).size).toBe(types.length);
    const paths = sections.flatMap((s) => [`GET ${s.api.list}`, `POST ${s.api.add}`, `PUT ${s.api.update}`]);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("spells the spec's odd paths and field names exactly", () => {
    expect(getSection("serviceHeading")!.api.add).toBe("/add-Service");
    expect(getSection("featureItem")!.api.add).toBe("/add-feature-Item");
    expect(getSection("teamMember")!.api.add).toBe("/add-team-Item");
    expect(getSection("workStep")!.fields.map((f) => f.name)).toContain("stapIcon");
    expect(getSection("faqItem")!.fields.map((f) => f.name)).toEqual(["accodingTitle", "accodingText"]);
    expect(getSection("banner")!.fields.find((f) => f.name === "buttonTwoLink")!.label).toBe("Banner Heading Two");
  });

  it("caps about at two and makes the spec's singletons singletons", () => {
    expect(getSection("about")!.max).toBe(2);
    // The spec's sections; the search listings (decision 047) are settings records of their own.
    const singletons = sections
      .filter((s) => s.cardinality === "singleton" && !(s.admin as { own?: boolean }).own)
      .map((s) => s.type)
      .sort();
    expect(singletons).toEqual(
      [
        "action",
        "banner",
        "copyright",
        "counter",
        "experience",
        "faqText",
        "featuresText",
        "footerAbout",
        "footerAddress",
        "footerSocial",
        "logo",
        "privacy",
        "serviceHeading",
        "teamText",
        "terms",
        "testimonialText",
        "videoSection",
      ].sort(),
    );
  });

  it("gives pricing ten points, the first seven required", () => {
    const points = pricing.fields.filter((f) => f.name.startsWith("packagePoint"));
    expect(points).toHaveLength(10);
    expect(points.filter((f) => !f.optional)).toHaveLength(7);
  });
});

describe("validateSection", () => {
  it("accepts a valid record, trims text and drops unknown keys", () => {
    const result = validateSection(banner, { ...validBanner, bannerHeading: "  Spaces  ", _id: "x", extra: 1 });
    expect(result).toEqual({ ok: true, data: { ...validBanner, bannerHeading: "Spaces" } });
  });

  it("names every missing required field with its label", () => {
    const result = validateSection(banner, {});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.map((e) => e.field)).toEqual(banner.fields.map((f) => f.name));
      expect(result.errors[1]).toEqual({ field: "buttonTwoLink", message: "Banner Heading Two is required" });
    }
  });

  it("refuses blank text", () => {
    const result = validateSection(banner, { ...validBanner, bannerHeading: "   " });
    expect(result).toMatchObject({
      ok: false,
      errors: [{ field: "bannerHeading", message: "Banner Heading is required" }],
    });
  });

  it("refuses javascript: and protocol-relative links", () => {
    for (const bad of ["javascript:alert(1)", "//evil.example/x", "data:text/html,hi", "ftp://x.example/a"]) {
      const result = validateSection(banner, { ...validBanner, buttonOneLink: bad });
      expect(result.ok, bad).toBe(false);
    }
  });

  it("parses numbers from form text and enforces validity >= 1 in whole days", () => {
    const base = Object.fromEntries(
      pricing.fields.filter((f) => !f.optional && f.kind !== "number").map((f) => [f.name, "x"]),
    );
    const ok = validateSection(pricing, { ...base, packagePrice: "49.5", packageValidity: "30" });
    expect(ok).toMatchObject({ ok: true, data: { packagePrice: 49.5, packageValidity: 30 } });
    expect(validateSection(pricing, { ...base, packagePrice: 49, packageValidity: 0 })).toMatchObject({
      ok: false,
      errors: [{ field: "packageValidity", message: "Package Validity (Number only) must be at least 1" }],
    });
    expect(validateSection(pricing, { ...base, packagePrice: 49, packageValidity: 1.5 })).toMatchObject({ ok: false });
    expect(validateSection(pricing, { ...base, packagePrice: "abc", packageValidity: 30 })).toMatchObject({
      ok: false,
      errors: [{ field: "packagePrice", message: "Package Price must be a number" }],
    });
    expect(validateSection(pricing, { ...base, packageValidity: 30 })).toMatchObject({
      ok: false,
      errors: [{ field: "packagePrice", message: "Package Price is required" }],
    });
  });

  it("leaves optional fields out when empty", () => {
    const base = Object.fromEntries(
      pricing.fields.filter((f) => !f.optional && f.kind !== "number").map((f) => [f.name, "x"]),
    );
    const result = validateSection(pricing, { ...base, packagePrice: 1, packageValidity: 1, packagePointEight: "" });
    expect(result.ok && "packagePointEight" in result.data).toBe(false);
  });

  it("refuses a body that is not an object", () => {
    for (const body of [null, [], "text", 3]) expect(validateSection(banner, body).ok).toBe(false);
  });

  it("limits text length", () => {
    expect(validateSection(banner, { ...validBanner, bannerHeading: "x".repeat(301) })).toMatchObject({
      ok: false,
      errors: [{ field: "bannerHeading", message: "Banner Heading must be at most 300 characters" }],
    });
  });
});
