import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { categories, type CategoryKey } from "#domain/vocabulary.ts";

export const templateSchema = z.object({
  subject: z.string().trim().min(3).max(120),
  body: z.string().trim().min(200).max(2000),
});
export const templateListSchema = z.array(templateSchema).min(15);
export type EmailTemplate = z.infer<typeof templateSchema>;

function isDirectory(p: string): boolean {
  try {
    return existsSync(p) && statSync(p).isDirectory();
  } catch {
    return false;
  }
}

let categoriesDir: string | undefined;

/**
 * The folder holding the category JSON files: next to this module in development and tests; from the bundle
 * (build/server/main.js) the source folder two levels up; last, the source folder under the working directory.
 */
function resolveCategoriesDir(): string {
  if (categoriesDir) return categoriesDir;
  const candidates: string[] = [];
  try {
    const here = path.dirname(fileURLToPath(import.meta.url));
    candidates.push(path.join(here, "categories"));
    candidates.push(path.resolve(here, "../../server/catalogue/categories"));
  } catch {
    // import.meta.url is not a file: URL (unusual bundling); use the cwd fallback.
  }
  const fallback = path.resolve(process.cwd(), "server/catalogue/categories");
  candidates.push(fallback);
  categoriesDir = candidates.find(isDirectory) ?? fallback;
  return categoriesDir;
}

const cache = new Map<CategoryKey, Promise<EmailTemplate[]>>();

async function readCategory(key: CategoryKey): Promise<EmailTemplate[]> {
  const file = path.join(resolveCategoriesDir(), key + ".json");
  let raw: string;
  try {
    raw = await readFile(file, "utf8");
  } catch (err) {
    throw new Error(`Cannot read email templates file ${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    throw new Error(`Email templates file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = templateListSchema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`Email templates file ${file} is invalid: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** Loads and validates one category's templates (reads the JSON file next to this module, once, then caches). */
export async function loadTemplates(key: CategoryKey): Promise<EmailTemplate[]> {
  if (!categories.includes(key)) {
    throw new Error(`Unknown email template category: ${String(key)}`);
  }
  let pending = cache.get(key);
  if (!pending) {
    pending = readCategory(key);
    cache.set(key, pending);
    // A failed read is not cached, so a fixed file is picked up on the next call.
    pending.catch(() => cache.delete(key));
  }
  return pending;
}
