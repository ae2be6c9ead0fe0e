import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TEXT } from "../../domain/fields";
import { sections, type FieldDef, type SectionDef } from "../../domain/registry";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { PUBLIC_PAGES } from "../support/routes";

/**
 * Issue 28, part 3: content cannot break the layout. Every text field of every section of the registry holds one
 * unbroken word as long as a text field takes (300 characters; wide letters), every email field an address as long as
 * one may be, written through the REST calls the back office uses; then no public page scrolls sideways, on a phone
 * or a desktop.
 */
const WORD = "Wm".repeat(MAX_TEXT / 2);
const EMAIL = `${"w".repeat(240)}@example.org`;

let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()), 120_000);
afterAll(() => env?.close());

/** A field's long value, or undefined to keep what the record holds (links, images, numbers). */
function long(field: FieldDef): string | undefined {
  if (field.kind === "text" || field.kind === "longText") return WORD;
  if (field.kind === "email") return EMAIL;
  return undefined;
}

/** A new record's value for a field that keeps what a record holds: a site path, an image of the seed, a number. */
function plain(field: FieldDef): string | number {
  if (field.kind === "number") return Math.max(field.min ?? 1, 1);
  if (field.kind === "image" || field.kind === "media") return "/images/logo.svg";
  return "/";
}

async function write(section: SectionDef) {
  const send = async (method: "POST" | "PUT", path: string, data: Record<string, unknown>) => {
    const res = await admin.request.fetch(`/api${path}`, { method, data, headers: { origin: env.server.url } });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  };
  const { rows } = await env.db.pool.query<{ id: string; data: Record<string, unknown> }>(
    "select id, data from content_entries where type = $1 order by position",
    [section.type],
  );
  if (rows.length === 0) {
    const data = Object.fromEntries(section.fields.map((f) => [f.name, long(f) ?? plain(f)]));
    await send("POST", section.api.add, data);
    return;
  }
  for (const row of rows) {
    const data = { ...row.data };
    for (const f of section.fields) {
      const value = long(f);
      if (value !== undefined) data[f.name] = value;
    }
    await send("PUT", section.api.update.replace(":id", row.id), data);
  }
}

describe("a 300-character word in every text field of every section", () => {
  it("is saved in every section", async () => {
    for (const section of sections) await write(section);
    const { rows } = await env.db.pool.query<{ type: string }>(
      "select distinct type from content_entries where data::text like '%' || $1 || '%'",
      [WORD],
    );
    const withText = sections.filter((s) => s.fields.some((f) => long(f) !== undefined)).map((s) => s.type);
    expect(rows.map((r) => r.type).sort()).toEqual([...withText].sort());
  }, 120_000);

  for (const viewport of [PHONE, DESKTOP]) {
    it(`leaves no public page wider than the screen at ${viewport.width} px`, async () => {
      const page = await newPage(env.browser, env.server.url, { viewport });
      const wide: string[] = [];
      let shown = 0;
      for (const path of PUBLIC_PAGES) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(200);
        const { scroll, client, words } = await page.evaluate(
          (word) => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
            words: document.body.innerText.split(word).length - 1,
          }),
          WORD,
        );
        shown += words;
        if (scroll !== client) wide.push(`${path}: ${scroll} px wide in a ${client} px window`);
      }
      expect(wide).toEqual([]);
      // The word is on the pages (the footer alone carries it to each), or the test would prove nothing.
      expect(shown).toBeGreaterThan(PUBLIC_PAGES.length);
      await page.context().close();
    }, 120_000);
  }
});
