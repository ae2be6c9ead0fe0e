/**
 * Catalogue rules shared by the server and the browser (spec 2, section 5): the five categories and their labels,
 * the slug of an item's name, which categories a form may offer, the item and simple-item forms, and the pick of one
 * template from a category.
 */
import { z } from "zod";

/** The five categories: the key is the template file's name without .json (what an item stores as itemDatabaseUrl). */
export const CATEGORY_KEYS = [
  "web-design",
  "video-editing",
  "seo-service",
  "graphic-design",
  "facebook-marketing",
] as const;
export type CategoryKey = (typeof CATEGORY_KEYS)[number];

export const isCategoryKey = (value: string): value is CategoryKey =>
  (CATEGORY_KEYS as readonly string[]).includes(value);

/** 'web-design' → 'WEB DESIGN': file name without extension, hyphens to spaces, capitals (spec 2, section 5). */
export function categoryLabel(key: string): string {
  const base = key
    .trim()
    .split(/[\\/]/)
    .pop()!
    .replace(/\.json$/i, "");
  return base.replace(/-+/g, " ").trim().toUpperCase();
}

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

/** Fisher–Yates: a shuffled copy, every order equally likely for a uniform `random` in [0, 1). */
export function shuffle<T>(list: readonly T[], random: () => number = Math.random): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The generator shows one template: the first of a shuffled list (undefined for an empty list). */
export function pickTemplate<T>(templates: readonly T[], random: () => number = Math.random): T | undefined {
  return shuffle(templates, random)[0];
}

export const MAX_ITEM_NAME = 200;
export const MAX_ITEM_TEXT = 5000;

/** A required text: absent or blank after trimming is `required`. */
const requiredText = (required: string, label: string, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? "" : v),
    z
      .string({ error: `${label} must be text` })
      .trim()
      .min(1, { error: required })
      .max(max, { error: `${label} must be at most ${max} characters` }),
  );

/** The item form of /items-management (spec 2, section 5): all four fields required after trimming. */
export const itemFormSchema = z.object({
  itemName: requiredText("Item name is required", "Item name", MAX_ITEM_NAME).refine((v) => slugify(v) !== "", {
    error: "Item name needs at least one letter or digit",
  }),
  itemsDescription: requiredText("Description is required", "Description", MAX_ITEM_TEXT),
  itemDatabaseUrl: requiredText("Category is required", "Category", 300)
    .transform(categoryKeyOf)
    .refine(isCategoryKey, { error: `Category must be one of: ${CATEGORY_KEYS.join(", ")}` }),
  itemsGuideline: requiredText("Guideline is required", "Guideline", MAX_ITEM_TEXT),
});
export type ItemForm = z.infer<typeof itemFormSchema>;

export const FORMATS = ["Facebook", "Instagram", "YouTube"] as const;
export const ACCESS_TYPES = ["Paid", "Free"] as const;

const httpUrl = (label: string) =>
  requiredText(`${label} is required`, label, 2000).refine(
    (v) => {
      try {
        const url = new URL(v);
        return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
      } catch {
        return false;
      }
    },
    { error: `${label} must be an http(s) address, such as https://…` },
  );

const choice = <T extends readonly [string, ...string[]]>(values: T, required: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? "" : v),
    z
      .string({ error: required })
      .trim()
      .min(1, { error: required })
      .pipe(z.enum(values, { error: `Choose ${values.slice(0, -1).join(", ")} or ${values.at(-1)}` })),
  );

/** The simple form of /add-item: every field required, links http(s) only. */
export const simpleItemSchema = z.object({
  format: choice(FORMATS, "Format is required"),
  canvaLink: httpUrl("Canva link"),
  imageLink: httpUrl("Image link"),
  category: requiredText("Category is required", "Category", 200),
  freeOrPaid: choice(ACCESS_TYPES, "Free or paid is required"),
});
export type SimpleItemForm = z.infer<typeof simpleItemSchema>;
