/**
 * Catalogue rules shared by the server and the browser (spec 2, section 5): the slug of an item's name, which
 * categories a form may offer, the item and simple-item forms, and the pick of one template from a category. The
 * categories, formats and access types themselves are in domain/vocabulary.ts.
 */
import { z } from "zod";
import { choice, httpLink, requiredText } from "./fields";
import { accessTypes, categories, itemFormats } from "./vocabulary";

/** A category given as a key, a file name or an address of the file ('…/web-design.json'): its key, lower-case. */
export function categoryKeyOf(value: string): string {
  return value
    .trim()
    .split(/[?#]/)[0]!
    .split(/[\\/]/)
    .pop()!
    .replace(/\.json$/i, "")
    .toLowerCase();
}

/**
 * The slug of an item's name: lower-case; characters other than letters, digits, spaces and hyphens removed;
 * whitespace runs become one hyphen; repeated hyphens collapse; leading and trailing hyphens trimmed.
 */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .replace(/\s+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The categories an item form may offer: those no item uses yet, plus the edited item's own, in the fixed order.
 */
export function availableCategories(
  all: readonly string[],
  used: readonly string[],
  editingKey?: string | null,
): string[] {
  const taken = new Set(used);
  return all.filter((key) => !taken.has(key) || key === editingKey);
}

// The generator's pick lives in a module without schemas, so that the item page's scripts carry no zod.
export { pickTemplate, shuffle } from "./shuffle";

export const MAX_ITEM_NAME = 200;
export const MAX_ITEM_TEXT = 5000;

/** The item form of /items-management (spec 2, section 5): all four fields required after trimming. */
export const itemFormSchema = z.object({
  itemName: requiredText("Item name", MAX_ITEM_NAME).refine((v) => slugify(v) !== "", {
    error: "Item name needs at least one letter or digit",
  }),
  itemsDescription: requiredText("Description", MAX_ITEM_TEXT),
  itemDatabaseUrl: requiredText("Category", 300)
    .transform(categoryKeyOf)
    .refine(categories.includes, { error: `Category must be one of: ${categories.values.join(", ")}` }),
  itemsGuideline: requiredText("Guideline", MAX_ITEM_TEXT),
});
export type ItemForm = z.infer<typeof itemFormSchema>;

/** The simple form of /add-item: every field required, links http(s) only. */
export const simpleItemSchema = z.object({
  format: choice(itemFormats.values, { required: "Format is required" }),
  canvaLink: httpLink("Canva link"),
  imageLink: httpLink("Image link"),
  category: requiredText("Category", 200),
  freeOrPaid: choice(accessTypes.values, { required: "Free or paid is required" }),
});
export type SimpleItemForm = z.infer<typeof simpleItemSchema>;
