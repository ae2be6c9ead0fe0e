import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageSeo, SEO_PAGES } from "#domain/page-seo.ts";
import { siteName } from "#domain/site.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Search listings over REST (decision 047): the calls the registry makes for each page's listing, who may use them,
 * what they refuse, the log, and the listing the pages then read from the content snapshot.
 */
let app: TestApp;
const admin = new CookieJar();
let editor: CookieJar;
const customer = new CookieJar();

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "seo-owner@example.org", ADMIN_PASSWORD: "seo-owner-pass-12" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  editor = await signUpStaff(app, app.db.pool, "seo-editor@example.org", "Editor");
  await signUp(app, "seo-reader@example.org", { jar: customer });
});
afterAll(() => app?.close());

const listing = async (page: string) =>
  ((await (await app.request(`/api/page-seo/${page}`)).json()) as { _id: string; seoTitle?: string }[])[0];

describe("a page's search listing over REST", () => {
  it("every page has one listing to read, empty in the demo content", async () => {
    for (const page of Object.keys(SEO_PAGES)) {
      const res = await app.request(`/api/page-seo/${page}`);
      expect(res.status, page).toBe(200);
      const records = (await res.json()) as Record<string, unknown>[];
      expect(records, page).toHaveLength(1);
      expect(Object.keys(records[0]!), page).toEqual(["_id"]);
    }
  });

  it("a visitor 401, a customer 403; an editor and an admin update it, and the log names them", async () => {
    const { _id: id } = (await listing("home"))!;
    const body = { seoTitle: "Interior design in Leeds", seoDescription: "Rooms and rankings.", shareImage: "" };
    expect((await app.request(`/api/page-seo/home/${id}`, { method: "PUT", json: body })).status).toBe(401);
    expect((await app.request(`/api/page-seo/home/${id}`, { method: "PUT", json: body, jar: customer })).status).toBe(
      403,
    );
    const byEditor = await app.request(`/api/page-seo/home/${id}`, { method: "PUT", json: body, jar: editor });
    expect(byEditor.status).toBe(200);
    expect((await listing("home"))!.seoTitle).toBe("Interior design in Leeds");
    const byAdmin = await app.request(`/api/page-seo/home/${id}`, {
      method: "PUT",
      json: { ...body, seoTitle: "Interiors and SEO, Leeds" },
      jar: admin,
    });
    expect(byAdmin.status).toBe(200);
    const { rows } = await app.db.pool.query(
      "select actor_email, action from activity_log where record_id = $1 order by created_at",
      [id],
    );
    expect(rows.map((r) => [r.actor_email, r.action])).toEqual([
      ["seo-editor@example.org", "update"],
      ["seo-owner@example.org", "update"],
    ]);
  });

  it("the pages' listing follows at once: the snapshot is dropped, the written title used as typed", async () => {
    const snapshot = await app.services.content.snapshot();
    const seo = pageSeo("home", snapshot, { siteName: siteName(snapshot) });
    expect(seo.title).toEqual({ value: "Interiors and SEO, Leeds", custom: true });
    expect(seo.description).toEqual({ value: "Rooms and rankings.", custom: true });
    // The image was left empty: the banner's.
    expect(seo.image.custom).toBe(false);
    expect(pageSeo("pricing", snapshot, { siteName: siteName(snapshot) }).title.custom).toBe(false);
  });

  it("refuses a second listing for a page, and a share image that is not a link, with a message per field", async () => {
    const second = await app.request("/api/add-page-seo/pricing", { method: "POST", json: {}, jar: admin });
    expect(second.status).toBe(409);
    const { _id: id } = (await listing("pricing"))!;
    const bad = await app.request(`/api/page-seo/pricing/${id}`, {
      method: "PUT",
      json: { shareImage: "javascript:alert(1)", seoTitle: "x".repeat(301) },
      jar: admin,
    });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(await bad.json());
    expect(text).toContain("Share image must be an http(s) address or a path starting with /");
    expect(text).toContain("Page title must be at most 300 characters");
  });

  it("a deleted listing can be added again (the page then uses its defaults in between)", async () => {
    const { _id: id } = (await listing("terms"))!;
    expect((await app.request(`/api/page-seo/terms/${id}`, { method: "DELETE", jar: admin })).status).toBe(200);
    expect(await (await app.request("/api/page-seo/terms")).json()).toEqual([]);
    const added = await app.request("/api/add-page-seo/terms", {
      method: "POST",
      json: { seoTitle: "Membership terms" },
      jar: editor,
    });
    expect(added.status).toBe(201);
    expect((await listing("terms"))!.seoTitle).toBe("Membership terms");
  });
});
