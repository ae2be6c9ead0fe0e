import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { categories } from "#domain/vocabulary.ts";
import { loadTemplates, templateListSchema, type EmailTemplate } from "./categories";

const here = path.dirname(fileURLToPath(import.meta.url));

const ALLOWED_PLACEHOLDERS = new Set([
  "[First Name]",
  "[Company Name]",
  "[Website]",
  "[City]",
  "[Industry]",
  "[Competitor]",
  "[Your Name]",
  "[Your Company]",
  "[Your Phone]",
  "[Result]",
  "[Month]",
]);

function readRaw(key: string): unknown {
  return JSON.parse(readFileSync(path.join(here, "categories", key + ".json"), "utf8"));
}

const all: { key: string; templates: EmailTemplate[] }[] = categories.values.map((key) => ({
  key,
  templates: templateListSchema.parse(readRaw(key)),
}));

describe.each(categories.values)("category %s", (key) => {
  const raw = readRaw(key);
  const templates = templateListSchema.safeParse(raw);

  it("parses with templateListSchema and has at least 15 templates", () => {
    expect(templates.success, templates.error?.message).toBe(true);
    expect(templates.data!.length).toBeGreaterThanOrEqual(15);
  });

  it("has distinct subjects and distinct bodies", () => {
    const list = templates.data!;
    expect(new Set(list.map((t) => t.subject)).size).toBe(list.length);
    expect(new Set(list.map((t) => t.body)).size).toBe(list.length);
  });

  it("every body greets, signs off with [Your Name] and has a call to action", () => {
    for (const t of templates.data!) {
      expect(t.body, t.subject).toMatch(/^(Hi|Hello|Dear) /);
      expect(t.body, t.subject).toContain("[Your Name]");
      const hasCta = t.body.includes("?") || /\b(call|reply|chat|audit)\b/i.test(t.body);
      expect(hasCta, t.subject).toBe(true);
    }
  });

  it("uses only the allowed square-bracket placeholders and no curly braces", () => {
    for (const t of templates.data!) {
      for (const text of [t.subject, t.body]) {
        expect(text, t.subject).not.toMatch(/[{}]/);
        for (const token of text.match(/\[[^\]]*\]/g) ?? []) {
          expect(ALLOWED_PLACEHOLDERS.has(token), `${token} in "${t.subject}"`).toBe(true);
        }
        // No stray brackets outside a complete placeholder.
        expect(text.replace(/\[[^\]]*\]/g, ""), t.subject).not.toMatch(/[[\]]/);
      }
    }
  });

  it("loadTemplates returns the validated file contents and caches the array", async () => {
    const first = await loadTemplates(key);
    expect(first).toEqual(templates.data);
    const second = await loadTemplates(key);
    expect(second).toBe(first);
  });
});

describe("across categories", () => {
  it("no subject or body is repeated in another file", () => {
    const subjects = all.flatMap((c) => c.templates.map((t) => t.subject));
    const bodies = all.flatMap((c) => c.templates.map((t) => t.body));
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(new Set(bodies).size).toBe(bodies.length);
  });
});

describe("loadTemplates", () => {
  it("rejects an unknown category", async () => {
    await expect(loadTemplates("no-such-category" as never)).rejects.toThrow(/Unknown/);
  });
});
