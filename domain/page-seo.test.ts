import { describe, expect, it } from "vitest";
import { allPageSeo, clip, descriptionHint, pageSeo, searchPreview, SEO_PAGES, titleHint } from "./page-seo";
import { sections, type ContentSnapshot } from "./registry";

const SITE = "Atelier North Studio";
const content = {
  banner: [
    {
      _id: "b",
      bannerHeading: "Spaces people remember",
      buttonTwoLink: "",
      bannerDetails: "We design interiors and the websites that sell them.",
      bannerImage: "/images/banner.webp",
      buttonOneText: "Go",
      buttonOneLink: "/",
    },
  ],
  serviceHeading: [{ _id: "s", serviceHeading: "Our Services", servicesubHeading: "Rooms and rankings." }],
  serviceItem: [],
  pricing: [
    { _id: "p", packageName: "Basic", packagePrice: 49, packageValidity: 30, packageButtonText: "Buy" },
  ] as unknown as ContentSnapshot["pricing"],
  privacy: [
    {
      _id: "v",
      documentHeading: "Privacy notice",
      lastUpdated: "1 May 2026",
      documentText:
        "Who we are\n\nAtelier North Studio keeps the personal information you give us safe, and uses it only to run your account.",
    },
  ],
} satisfies Partial<ContentSnapshot>;

const withListing = (type: string, data: Record<string, string>) => ({ ...content, [type]: [{ _id: "x", ...data }] });

describe("page SEO defaults", () => {
  it("takes the home page's title, description and image from its banner, the title with the site's name", () => {
    const seo = pageSeo("home", content, { siteName: SITE });
    expect(seo.title).toEqual({ value: `Spaces people remember | ${SITE}`, custom: false });
    expect(seo.description).toEqual({ value: "We design interiors and the websites that sell them.", custom: false });
    expect(seo.image).toEqual({ value: "/images/banner.webp", custom: false });
    expect(seo.path).toBe("/");
  });

  it("leaves out a banner video or drawing (SVG), and other pages share the home page's image", () => {
    const isImage = (href: string) => !href.includes("youtube");
    const video = { ...content, banner: [{ ...content.banner[0]!, bannerImage: "https://youtube.com/watch?v=x" }] };
    expect(pageSeo("home", video, { siteName: SITE, isImage }).image.value).toBe("");
    const drawing = { ...content, banner: [{ ...content.banner[0]!, bannerImage: "/images/hero.svg" }] };
    expect(pageSeo("home", drawing, { siteName: SITE }).image.value).toBe("");
    expect(pageSeo("pricing", content, { siteName: SITE }).image.value).toBe("/images/banner.webp");
  });

  it("names the service page by its heading and the documents by theirs, described by their first paragraph", () => {
    expect(pageSeo("service", content, { siteName: SITE }).title.value).toBe(`Our Services | ${SITE}`);
    const privacy = pageSeo("privacy", content, { siteName: SITE });
    expect(privacy.title.value).toBe(`Privacy notice | ${SITE}`);
    expect(privacy.description.value).toMatch(/^Atelier North Studio keeps the personal information/);
    expect(pageSeo("terms", {}, { siteName: SITE }).title.value).toBe(`Terms | ${SITE}`);
  });

  it("describes the pricing page by its plans", () => {
    expect(pageSeo("pricing", content, { siteName: SITE }).description.value).toBe(
      "Membership plans: Basic $49. Cold-email generators, design and SEO support.",
    );
  });

  it("uses what the studio wrote as typed, field by field (spaces tidied), and its share image", () => {
    const seo = pageSeo(
      "home",
      withListing("seoHome", {
        seoTitle: "  Interior design in Leeds  ",
        seoDescription: "",
        shareImage: "/media/k/1200.webp",
      }),
      { siteName: SITE },
    );
    expect(seo.title).toEqual({ value: "Interior design in Leeds", custom: true });
    expect(seo.description.custom).toBe(false);
    expect(seo.image).toEqual({ value: "/media/k/1200.webp", custom: true });
  });

  it("has a listing for every page the registry has a record type for, and every page resolves", () => {
    const registryTypes = sections.filter((s) => s.type.startsWith("seo")).map((s) => s.type);
    expect(Object.values(SEO_PAGES).map((p) => p.type)).toEqual(registryTypes);
    for (const seo of allPageSeo({}, { siteName: SITE })) {
      expect(seo.title.value.length).toBeGreaterThan(0);
      expect(seo.description.value.length).toBeGreaterThan(0);
    }
  });

  it("cuts a long default description to what results show", () => {
    const long = { ...content, banner: [{ ...content.banner[0]!, bannerDetails: "word ".repeat(80) }] };
    expect(pageSeo("home", long, { siteName: SITE }).description.value.length).toBeLessThanOrEqual(160);
  });
});

describe("length hints", () => {
  it("says an empty field takes the page's own text", () => {
    expect(titleHint("")).toEqual({
      verdict: "default",
      text: "Empty: the page's own title is used. Type one to choose yours.",
    });
  });

  it("says how much to cut from a long title, and how many to add to a short one", () => {
    expect(titleHint("x".repeat(64))).toEqual({
      verdict: "long",
      text: "64 characters: search results cut titles after about 60. Shorten it by 4.",
    });
    expect(titleHint("Interior design")).toEqual({
      verdict: "short",
      text: "15 characters: room for a few words on what the page offers. Aim for 30 to 60 (15 more).",
    });
    expect(titleHint("x".repeat(60)).verdict).toBe("good");
    expect(titleHint("x".repeat(30)).verdict).toBe("good");
  });

  it("warns that a short description is often replaced, and counts a long one's excess", () => {
    expect(descriptionHint("x".repeat(100)).text).toBe(
      "100 characters: search engines often replace a short description with text of their own. Aim for 120 to 155 (20 more).",
    );
    expect(descriptionHint("x".repeat(156))).toEqual({
      verdict: "long",
      text: "156 characters: search results cut descriptions after about 155. Shorten it by 1.",
    });
    expect(descriptionHint("x".repeat(140)).text).toBe("140 characters: a good length (120 to 155).");
  });
});

describe("search preview", () => {
  it("cuts title and description where results do, on a word, and shows the address without its scheme", () => {
    const preview = searchPreview(
      { title: { value: "word ".repeat(20), custom: true }, description: { value: "more ".repeat(40), custom: true } },
      "https://studio.example/pricing",
    );
    expect(preview.title.length).toBeLessThanOrEqual(60);
    expect(preview.title.endsWith("…")).toBe(true);
    expect(preview.description.length).toBeLessThanOrEqual(155);
    expect(preview.url).toBe("studio.example/pricing");
    expect(clip("short", 60)).toBe("short");
  });
});
