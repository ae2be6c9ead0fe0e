import { describe, expect, it } from "vitest";
import { itemFormSchema, slugify } from "#domain/catalogue.ts";
import { categories } from "#domain/vocabulary.ts";
import { loadTemplates } from "../catalogue/categories";
import { demoCatalogue } from "./demo-catalogue";

describe("demo catalogue", () => {
  it("has one item per category, in the categories' order", () => {
    expect(demoCatalogue.map((i) => i.itemDatabaseUrl)).toEqual([...categories.values]);
  });

  it("passes the item form's rules, with distinct names and slugs", () => {
    for (const item of demoCatalogue) {
      const parsed = itemFormSchema.safeParse(item);
      expect(parsed.success, `${item.itemName}: ${parsed.error?.message}`).toBe(true);
    }
    expect(new Set(demoCatalogue.map((i) => slugify(i.itemName))).size).toBe(demoCatalogue.length);
  });

  it("gives every item a real description and guideline, never a placeholder", () => {
    for (const item of demoCatalogue) {
      expect(item.itemsDescription.length, item.itemName).toBeGreaterThan(120);
      expect(item.itemsGuideline.length, item.itemName).toBeGreaterThan(120);
      expect(`${item.itemsDescription} ${item.itemsGuideline}`).not.toMatch(/lorem|todo|tbd|xxx/i);
    }
  });

  it("points at categories whose templates exist", async () => {
    for (const item of demoCatalogue) expect((await loadTemplates(item.itemDatabaseUrl)).length).toBeGreaterThan(0);
  });
});
