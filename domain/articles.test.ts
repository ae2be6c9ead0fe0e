import { describe, expect, it } from "vitest";
import { articleSlug, isArticleSlug, normaliseTags, readingMinutes, splitAtMarker, wordCount } from "./articles";

describe("article words", () => {
  it("makes slugs of ASCII letters and digits", () => {
    expect(articleSlug("Décor & Light: 10 Ideas!")).toBe("decor-and-light-10-ideas");
    expect(articleSlug("  --  ")).toBe("");
    expect(articleSlug("a".repeat(300))).toHaveLength(120);
    expect(isArticleSlug("decor-ideas")).toBe(true);
    expect(isArticleSlug("Decor Ideas")).toBe(false);
    expect(isArticleSlug("-x")).toBe(false);
  });

  it("splits a body at the members-only marker", () => {
    expect(splitAtMarker('<p>a</p><hr data-members-only=""><p>b</p>')).toEqual({
      publicHtml: "<p>a</p>",
      membersHtml: "<p>b</p>",
    });
    expect(splitAtMarker("<p>a</p><hr><p>b</p>")).toEqual({ publicHtml: "<p>a</p><hr><p>b</p>", membersHtml: "" });
  });

  it("counts words and reading time", () => {
    expect(wordCount("<h2>Two words</h2><p>and &amp; three <b>more</b></p>")).toBe(5);
    expect(readingMinutes("<p>short</p>")).toBe(1);
    expect(readingMinutes(`<p>${"word ".repeat(2300)}</p>`)).toBe(10);
  });

  it("keeps each tag once, by its slug, as first typed", () => {
    expect(normaliseTags(" SEO , seo, Interior  design,, Décor")).toEqual(["SEO", "Interior design", "Décor"]);
  });
});
