import { describe, expect, it } from "vitest";
import { blockType, pages, pagesShowing, pageTypes, pickContent, type PageKey } from "./pages";
import { getSection, sections, type ContentSnapshot } from "#domain/registry.ts";

const pageKeys = Object.keys(pages) as PageKey[];

describe("public page composition", () => {
  it("shows every section of the registry on at least one page (the search listings are page settings, not sections)", () => {
    for (const s of sections) if (!("own" in s.admin)) expect(pagesShowing(s.type), s.type).not.toEqual([]);
  });

  it("lists sections, never headings: a heading comes with its list, just before it", () => {
    const headings = new Set(sections.flatMap((s) => ("heading" in s ? [s.heading] : [])));
    for (const page of pageKeys) {
      for (const block of pages[page].blocks)
        expect(headings.has(blockType(block) as never), blockType(block)).toBe(false);
    }
    for (const page of pageKeys) {
      const types = pageTypes(page);
      for (const s of sections) {
        if ("heading" in s && types.includes(s.type)) {
          expect(types[types.indexOf(s.type) - 1], `${page}: ${s.type}`).toBe(s.heading);
        }
      }
    }
    expect(pageTypes("pricing")).toEqual(["pricing", "faqText", "faqItem"]);
  });

  it("names only singletons as headings, of lists", () => {
    for (const s of sections) {
      if (!("heading" in s)) continue;
      expect(s.cardinality, s.type).toBe("list");
      expect(getSection(s.heading)?.cardinality, s.heading).toBe("singleton");
    }
  });

  it("picks exactly a page's sections from the snapshot", () => {
    const snapshot = Object.fromEntries(
      sections.map((s) => [s.type, [{ _id: `${s.type}-1` }]]),
    ) as unknown as ContentSnapshot;
    for (const page of pageKeys) {
      const picked = pickContent(snapshot, page);
      expect(Object.keys(picked).sort(), page).toEqual([...new Set(pageTypes(page))].sort());
      for (const [type, records] of Object.entries(picked)) {
        expect(records, type).toBe(snapshot[type as keyof ContentSnapshot]);
      }
    }
    expect(Object.keys(pickContent(snapshot, "chrome"))).toEqual([
      "logo",
      "footerAbout",
      "footerAddress",
      "footerSocial",
      "copyright",
    ]);
  });
});
