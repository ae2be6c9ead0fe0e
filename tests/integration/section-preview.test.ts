import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSection } from "#domain/registry.ts";
import { validateSection } from "#domain/validation.ts";
import { FORM_ID_FIELD } from "#app/lib/form.ts";
import type { PageCache } from "#server/http/page-cache.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { builtApp } from "../support/server";
import { CookieJar } from "../support/session";

/**
 * Issue 36, part 6 (decision 074): the preview of a content form's unsaved change, with the real build and the page
 * cache on. Staff of the content area only; the public page drawn with the change; nothing saved, nothing cached,
 * nothing for search engines.
 */
let app: TestApp;
const admin = new CookieJar();
const customer = new CookieJar();
let editor: CookieJar;
type Record = { _id: string } & { [field: string]: unknown };
let banner: Record;

beforeAll(async () => {
  const build = await builtApp();
  app = await startTestApp({ ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-1" }, { build });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  await signUp(app, "reader@example.org", { jar: customer });
  editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
  banner = ((await (await app.request("/api/banner")).json()) as Record[])[0]!;
}, 240_000);
afterAll(() => app?.close());

/** What a content screen's form posts (the one form pattern's hidden fields, then the record's fields). */
function formOf(fields: { [name: string]: unknown }) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) body.set(name, String(value));
  return body;
}
const bannerForm = (changes: { [field: string]: unknown } = {}) => {
  const { _id, ...fields } = banner;
  return formOf({
    [FORM_ID_FIELD]: `update:banner:${_id}`,
    intent: "update",
    type: "banner",
    id: _id,
    ...fields,
    ...changes,
  });
};
const preview = (body: URLSearchParams, jar?: CookieJar) =>
  app.request("/preview", {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    jar,
  });
const page = async (path: string, jar?: CookieJar) => {
  const res = await app.request(path, { jar });
  return { res, html: await res.text() };
};
const contentRows = async () =>
  (await app.db.pool.query("select id, data from content_entries order by id")).rows as unknown[];
const logged = async () => (await app.db.pool.query("select count(*)::int as n from activity_log")).rows[0].n as number;

describe("who may preview", () => {
  it("staff of the content area (Admin, Editor); a visitor is sent to sign in, a customer refused", async () => {
    const body = bannerForm({ bannerHeading: "A heading nobody else sees" });
    const visitor = await preview(body);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\b/);
    expect((await app.request("/preview")).status).toBe(302);

    const refused = await preview(body, customer);
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("A heading nobody else sees");
    expect((await app.request("/preview", { jar: customer })).status).toBe(403);

    for (const jar of [admin, editor]) {
      const res = await preview(body, jar);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("A heading nobody else sees");
      // Opened by its address, the page says where previews come from.
      const bare = await page("/preview", jar);
      expect(bare.res.status).toBe(200);
      expect(bare.html).toContain("Nothing to preview");
    }
  });
});

describe("the preview of an unsaved banner", () => {
  it("draws the landing page with the new heading while / keeps the saved one, and saves nothing", async () => {
    const rows = await contentRows();
    const entries = await logged();
    const res = await preview(bannerForm({ bannerHeading: "Rooms that rank" }), editor);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Rooms that rank");
    expect(html).not.toContain(String(banner.bannerHeading));
    // The landing page's own sections around it, in the site's frame, with the bar that says what it is.
    expect(html).toContain('id="service-sec"');
    expect(html).toContain('data-testid="header-account"');
    expect(html).toContain("Preview — not saved");
    // Never kept, never indexed.
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    expect(res.headers.get("x-cache")).toBeNull();
    expect(html).toMatch(/<meta name="robots" content="noindex[^"]*"/);
    expect(html).not.toContain('rel="canonical"');

    for (const jar of [undefined, customer, editor]) {
      const { html: home } = await page("/", jar);
      expect(home).toContain(String(banner.bannerHeading));
      expect(home).not.toContain("Rooms that rank");
    }
    expect(await contentRows()).toEqual(rows);
    expect(await logged()).toBe(entries);
  });

  it("is never kept by the page cache: the cached / stays the saved page, and a save then shows at once", async () => {
    const cache = app.express.locals.pageCache as PageCache;
    await page("/");
    const hit = await page("/");
    expect(hit.res.headers.get("x-cache")).toBe("HIT");
    const size = cache.size;

    await preview(bannerForm({ bannerHeading: "Not in any cache" }), editor);
    await preview(bannerForm({ bannerHeading: "Not in any cache" }), admin);
    expect(cache.size).toBe(size);
    const after = await page("/");
    expect(after.res.headers.get("x-cache")).toBe("HIT");
    expect(after.html).not.toContain("Not in any cache");
    // The preview's address gives nothing of it back.
    expect((await page("/preview", editor)).html).not.toContain("Not in any cache");

    const { _id, ...fields } = banner;
    const saved = await app.request(`/api/update-banner/${_id}`, {
      method: "PUT",
      json: { ...fields, bannerHeading: "Not in any cache" },
      jar: editor,
    });
    expect(saved.status).toBe(200);
    expect((await page("/")).html).toContain("Not in any cache");
    banner = { ...banner, bannerHeading: "Not in any cache" };
  });

  it("is refused with a save's own messages when a save would be, naming the fields", async () => {
    const changes = { bannerHeading: "", buttonOneLink: "javascript:alert(1)" };
    const expected = validateSection(getSection("banner")!, { ...banner, ...changes });
    expect(expected.ok).toBe(false);
    const res = await preview(bannerForm(changes), editor);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The preview cannot be drawn yet");
    for (const error of expected.ok ? [] : expected.errors) {
      const label = getSection("banner")!.fields.find((f) => f.name === error.field)!.label;
      expect(html).toContain(`${label}: ${error.message.replace(/'/g, "&#x27;")}`);
    }
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("draws an image picked from the library and not saved yet", async () => {
    const upload = new FormData();
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#a87" } })
      .jpeg()
      .toBuffer();
    upload.set("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "sofa.jpg");
    upload.set("alt", "A green sofa");
    const { item } = (await (
      await app.request("/api/media", { method: "POST", body: upload, jar: editor })
    ).json()) as {
      item: { key: string; url: string };
    };
    const html = await (await preview(bannerForm({ bannerImage: item.url }), editor)).text();
    // Drawn as a library image (its described variants and alt text), not a bare address.
    expect(html).toContain(`/media/${item.key}-`);
    expect(html).toMatch(new RegExp(`srcSet="[^"]*/media/${item.key}-\\d+\\.avif`, "i"));
    expect(html).toContain('alt="A green sofa"');
    expect((await page("/")).html).not.toContain(item.key);
  });
});

describe("every kind of change, on the page that shows it", () => {
  it("an added FAQ item on /pricing, and the page asked for when several show a section", async () => {
    const added = await preview(
      formOf({
        [FORM_ID_FIELD]: "add:faqItem:",
        intent: "add",
        type: "faqItem",
        accodingTitle: "Do you work outside London?",
        accodingText: "Yes.",
      }),
      admin,
    );
    const html = await added.text();
    expect(html).toContain("Do you work outside London?");
    expect(html).toContain("Pricing page as it will look once you save this FAQ Item");

    const [item] = (await (await app.request("/api/service-items")).json()) as Record[];
    const { _id, ...fields } = item!;
    const edit = (page?: string) =>
      formOf({ intent: "update", type: "serviceItem", id: _id, ...fields, serviceTitle: "Edited service", page });
    const home = await (await preview(edit(), admin)).text();
    expect(home).toContain("Edited service");
    expect(home).toContain("Show on Service page");
    const service = await (await preview(edit("service"), admin)).text();
    expect(service).toContain("Service page as it will look");
    expect(service).toContain("Edited service");
  });

  it("a record about to be deleted is left out; the footer's copyright is drawn in the frame", async () => {
    const [first] = (await (await app.request("/api/faq-items")).json()) as Record[];
    const gone = await (await preview(formOf({ intent: "delete", type: "faqItem", id: first!._id }), editor)).text();
    expect(gone).not.toContain(String(first!.accodingTitle));
    expect(gone).toContain("once you delete this FAQ Item");
    expect((await page("/pricing")).html).toContain(String(first!.accodingTitle));

    const [copyright] = (await (await app.request("/api/copyrights")).json()) as Record[];
    const footer = await (
      await preview(
        formOf({ intent: "update", type: "copyright", id: copyright!._id, copyrightText: "© 2026 Preview Studio" }),
        editor,
      )
    ).text();
    expect(footer).toContain("© 2026 Preview Studio");
  });

  it("refuses what a save would: a record no longer there, a second banner, a form that is no section", async () => {
    const missing = await preview(
      formOf({
        intent: "update",
        type: "faqItem",
        id: "00000000-0000-4000-8000-000000000000",
        accodingTitle: "A",
        accodingText: "B",
      }),
      editor,
    );
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("no longer on the site");
    const second = await preview(formOf({ ...Object.fromEntries(bannerForm()), intent: "add", id: undefined }), editor);
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("Banner already exists");
    for (const body of [formOf({ intent: "update", type: "nothing" }), formOf({ intent: "update", type: "seoHome" })]) {
      const res = await preview(body, editor);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Nothing to preview");
    }
    expect((await preview(formOf({ intent: "move", type: "faqItem" }), editor)).status).toBe(400);
  });
});
