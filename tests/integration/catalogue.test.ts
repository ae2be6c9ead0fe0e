import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTemplates } from "#server/catalogue/categories.ts";
import { categories } from "#domain/vocabulary.ts";
import { demoCatalogue } from "#server/seed/demo-catalogue.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

let app: TestApp;
const admin = new CookieJar();
const customer = new CookieJar(); // signed in, never bought anything
const member = new CookieJar(); // Paid + Delivered, valid for the package's days
const expired = new CookieJar(); // Paid + Delivered, validity in the past
const visitor = undefined;

const item = (over: Record<string, unknown> = {}) => ({
  itemName: "Web Design Leads",
  itemsDescription: "Agencies and studios that build websites.",
  itemDatabaseUrl: "web-design",
  itemsGuideline: "Mention a page of theirs you looked at.",
  ...over,
});

type Envelope<T = unknown> = {
  success: boolean;
  data?: T;
  error?: string;
  errors?: { field: string; message: string }[];
};
type Item = {
  _id: string;
  itemName: string;
  itemsDescription: string;
  itemDatabaseUrl?: string;
  itemsGuideline?: string;
  itemURL: string;
};

async function call<T = unknown>(method: string, path: string, jar?: CookieJar, json?: unknown) {
  const res = await app.request(path, { method, jar, json });
  return { status: res.status, body: (await res.json()) as Envelope<T> };
}

/** An order of the Basic package made Paid and Delivered by the admin, through the REST calls. */
async function makeMember(jar: CookieJar): Promise<string> {
  const pricing = (await (await app.request("/api/pricings")).json()) as { _id: string; packageName: string }[];
  const basic = pricing.find((p) => p.packageName === "Basic")!;
  const placed = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: basic._id, customerName: "Mia Member", customerAddress: "1 Dock St", customerCountry: "UK" },
    jar,
  });
  expect(placed.status).toBe(201);
  const id = ((await placed.json()) as { insertedId: string }).insertedId;
  expect((await call("PUT", `/api/order/${id}`, admin, { paymentStatus: "Paid" })).status).toBe(200);
  expect((await call("PUT", `/api/order-status/${id}`, admin, { orderStatus: "Delivered" })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "boss@example.org", ADMIN_PASSWORD: "boss-pass-12" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  await signUp(app, "customer@example.org", { jar: customer });
  await signUp(app, "member@example.org", { jar: member });
  await signUp(app, "expired@example.org", { jar: expired });
  await makeMember(member);
  const old = await makeMember(expired);
  await app.db.pool.query("update orders set membership_valid = now() - interval '1 day' where id = $1", [old]);
});
afterAll(() => app?.close());

/** Empties the catalogue behind the services' back, then drops their copy of it (as a change notification would). */
const clearItems = async () => {
  await app.db.pool.query("delete from catalogue_items");
  app.services.content.invalidate();
};

describe("items: add, edit, delete (admin)", () => {
  it("adds an item with the slug computed on the server, lists, edits and deletes it", async () => {
    await clearItems();
    const added = await call<Item>(
      "POST",
      "/api/add-database",
      admin,
      item({ itemName: "  Web Design -- Leads! ", itemURL: "ignored-by-the-server" }),
    );
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      success: true,
      data: {
        _id: expect.any(String),
        itemName: "Web Design -- Leads!",
        itemsDescription: "Agencies and studios that build websites.",
        itemDatabaseUrl: "web-design",
        itemsGuideline: "Mention a page of theirs you looked at.",
        itemURL: "web-design-leads",
      },
    });
    const id = added.body.data!._id;

    const list = await call<Item[]>("GET", "/api/all-database", admin);
    expect(list).toEqual({ status: 200, body: { success: true, data: [added.body.data] } });

    const updated = await call<Item>(
      "PUT",
      `/api/database/${id}`,
      admin,
      item({ itemName: "Studio Owners", itemDatabaseUrl: "graphic-design" }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ _id: id, itemURL: "studio-owners", itemDatabaseUrl: "graphic-design" });
    const stored = (await app.db.pool.query("select * from catalogue_items where id = $1", [id])).rows[0];
    expect(stored).toMatchObject({
      item_name: "Studio Owners",
      item_url: "studio-owners",
      item_database_url: "graphic-design",
    });

    expect(await call("DELETE", `/api/database/${id}`, admin)).toEqual({
      status: 200,
      body: { success: true, data: { _id: id } },
    });
    expect((await app.db.pool.query("select count(*)::int as n from catalogue_items")).rows[0].n).toBe(0);
  });

  it("answers 404 with the envelope for an unknown or malformed id; an update creates nothing", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const [method, path, body] of [
      ["PUT", `/api/database/${unknown}`, item({ itemDatabaseUrl: "seo-service" })],
      ["PUT", "/api/database/not-an-id", item({ itemDatabaseUrl: "seo-service" })],
      ["DELETE", `/api/database/${unknown}`, undefined],
      ["DELETE", "/api/database/not-an-id", undefined],
      ["GET", `/api/database/${unknown}`, undefined],
      ["GET", `/api/database/${unknown}/templates`, undefined],
    ] as const) {
      expect(await call(method, path, admin, body), `${method} ${path}`).toEqual({
        status: 404,
        body: { success: false, error: "Item not found" },
      });
    }
    expect((await app.db.pool.query("select count(*)::int as n from catalogue_items")).rows[0].n).toBe(0);
  });

  it("refuses missing or blank fields with the spec's messages, field by field", async () => {
    const empty = await call("POST", "/api/add-database", admin, {});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      success: false,
      error: "Item name is required",
      field: "itemName",
      errors: [
        { field: "itemName", message: "Item name is required" },
        { field: "itemsDescription", message: "Description is required" },
        { field: "itemDatabaseUrl", message: "Category is required" },
        { field: "itemsGuideline", message: "Guideline is required" },
      ],
    });
    const blank = await call(
      "POST",
      "/api/add-database",
      admin,
      item({ itemsDescription: "   ", itemsGuideline: "\n" }),
    );
    expect(blank.body.errors).toEqual([
      { field: "itemsDescription", message: "Description is required" },
      { field: "itemsGuideline", message: "Guideline is required" },
    ]);
    const unknownCategory = await call(
      "POST",
      "/api/add-database",
      admin,
      item({ itemDatabaseUrl: "../../etc/passwd" }),
    );
    expect(unknownCategory.status).toBe(400);
    expect(unknownCategory.body.error).toMatch(/^Category must be one of/);
    const put = await call("POST", "/api/add-database", admin, item());
    const bad = await call("PUT", `/api/database/${(put.body.data as Item)._id}`, admin, item({ itemName: "" }));
    expect(bad).toMatchObject({ status: 400, body: { success: false, error: "Item name is required" } });
    const notJson = await app.request("/api/add-database", {
      method: "POST",
      body: "itemName=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      jar: admin,
    });
    expect(notJson.status).toBe(415);
    await clearItems();
  });

  it("gives a category to one item only: a second add or an edit onto it is a 409 that says what to do", async () => {
    await clearItems();
    const first = await call<Item>("POST", "/api/add-database", admin, item());
    expect(first.status).toBe(201);
    const second = await call("POST", "/api/add-database", admin, item({ itemName: "Other" }));
    expect(second).toEqual({
      status: 409,
      body: {
        success: false,
        error:
          "The category WEB DESIGN is already used by another item. Choose another category, or delete that item first.",
      },
    });
    const other = await call<Item>("POST", "/api/add-database", admin, item({ itemDatabaseUrl: "seo-service" }));
    const moved = await call(
      "PUT",
      `/api/database/${other.body.data!._id}`,
      admin,
      item({ itemDatabaseUrl: "web-design" }),
    );
    expect(moved.status).toBe(409);
    // Keeping its own category is fine.
    const kept = await call(
      "PUT",
      `/api/database/${other.body.data!._id}`,
      admin,
      item({ itemDatabaseUrl: "seo-service", itemName: "Renamed" }),
    );
    expect(kept.status).toBe(200);
    await clearItems();
  });

  it("two admins adding the same category at once: exactly one succeeds", async () => {
    await clearItems();
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(
        ["A", "B", "C"].map((n) =>
          call("POST", "/api/add-database", admin, item({ itemName: n, itemDatabaseUrl: "video-editing" })),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const { rows } = await app.db.pool.query(
        "select item_name from catalogue_items where item_database_url = 'video-editing'",
      );
      expect(rows).toHaveLength(1);
      await clearItems();
    }
  });
});

describe("who may do what", () => {
  let id: string;
  beforeAll(async () => {
    await clearItems();
    id = (await call<Item>("POST", "/api/add-database", admin, item())).body.data!._id;
  });

  it("the list: signed-in people only; guidelines and categories only for members and admins", async () => {
    expect(await call("GET", "/api/all-database", visitor)).toEqual({
      status: 401,
      body: { success: false, error: "Sign in to use this call." },
    });
    for (const jar of [customer, expired]) {
      const locked = await call<Item[]>("GET", "/api/all-database", jar);
      expect(locked.status).toBe(200);
      expect(locked.body.data).toEqual([
        {
          _id: id,
          itemName: "Web Design Leads",
          itemsDescription: "Agencies and studios that build websites.",
          itemURL: "web-design-leads",
        },
      ]);
    }
    for (const jar of [member, admin]) {
      const open = await call<Item[]>("GET", "/api/all-database", jar);
      expect(open.body.data![0]).toMatchObject({ itemDatabaseUrl: "web-design", itemsGuideline: expect.any(String) });
    }
  });

  it("one item: 401 signed out, 403 'No active membership found' without an active membership, the item otherwise", async () => {
    expect((await call("GET", `/api/database/${id}`, visitor)).status).toBe(401);
    for (const jar of [customer, expired]) {
      expect(await call("GET", `/api/database/${id}`, jar)).toEqual({
        status: 403,
        body: { success: false, error: "No active membership found" },
      });
    }
    // Whether the item exists is not revealed to someone without access.
    expect((await call("GET", "/api/database/00000000-0000-4000-8000-000000000000", customer)).status).toBe(403);
    for (const jar of [member, admin]) {
      expect(await call("GET", `/api/database/${id}`, jar)).toEqual({
        status: 200,
        body: {
          success: true,
          data: {
            _id: id,
            itemName: "Web Design Leads",
            itemsDescription: "Agencies and studios that build websites.",
            itemDatabaseUrl: "web-design",
            itemsGuideline: "Mention a page of theirs you looked at.",
            itemURL: "web-design-leads",
          },
        },
      });
    }
  });

  it("templates: refused to a visitor, a customer without membership and an expired member; served to a member and an admin", async () => {
    expect((await call("GET", `/api/database/${id}/templates`, visitor)).status).toBe(401);
    for (const jar of [customer, expired]) {
      expect(await call("GET", `/api/database/${id}/templates`, jar)).toEqual({
        status: 403,
        body: { success: false, error: "No active membership found" },
      });
    }
    const expected = await loadTemplates("web-design");
    for (const jar of [member, admin]) {
      const res = await call<{ subject: string; body: string }[]>("GET", `/api/database/${id}/templates`, jar);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toEqual(expected.map((t) => ({ subject: t.subject, body: t.body })));
    }
  });

  it("a membership that ends closes the templates at once", async () => {
    const jar = await signUp(app, "lapsing@example.org");
    const order = await makeMember(jar);
    expect((await call("GET", `/api/database/${id}/templates`, jar)).status).toBe(200);
    await app.db.pool.query("update orders set membership_valid = now() - interval '1 second' where id = $1", [order]);
    expect((await call("GET", `/api/database/${id}/templates`, jar)).status).toBe(403);
  });

  it("the email parameter unlocks nothing: the session decides", async () => {
    for (const email of ["member@example.org", "boss@example.org"]) {
      const q = `?email=${encodeURIComponent(email)}`;
      expect((await call("GET", `/api/database/${id}${q}`, visitor)).status).toBe(401);
      expect((await call("GET", `/api/database/${id}${q}`, customer)).status).toBe(403);
      expect((await call("GET", `/api/database/${id}/templates${q}`, customer)).status).toBe(403);
      expect((await call("GET", `/api/database/${id}/templates${q}`, expired)).status).toBe(403);
    }
    // A member asking with someone else's address still gets their own answer.
    expect((await call("GET", `/api/database/${id}?email=customer%40example.org`, member)).status).toBe(200);
  });

  it("changes are for admins: 401 signed out, 403 for customers and members", async () => {
    const writes = [
      ["POST", "/api/add-database", item({ itemDatabaseUrl: "facebook-marketing" })],
      ["PUT", `/api/database/${id}`, item({ itemName: "Hijacked" })],
      ["DELETE", `/api/database/${id}`, undefined],
    ] as const;
    for (const [method, path, body] of writes) {
      expect(await call(method, path, visitor, body), `${method} ${path}`).toEqual({
        status: 401,
        body: { success: false, error: "Sign in to use this call." },
      });
      for (const jar of [customer, member, expired]) {
        expect(await call(method, path, jar, body), `${method} ${path}`).toEqual({
          status: 403,
          body: { success: false, error: "You don't have any permission" },
        });
      }
    }
    const { rows } = await app.db.pool.query("select item_name, item_database_url from catalogue_items");
    expect(rows).toEqual([{ item_name: "Web Design Leads", item_database_url: "web-design" }]);
  });
});

describe("simple items (/add-item)", () => {
  const simple = {
    format: "Instagram",
    canvaLink: "https://www.canva.com/design/DAF123/view",
    imageLink: "https://images.example/cover.png",
    category: "Living rooms",
    freeOrPaid: "Paid",
  };

  it("an admin adds one: {acknowledged, insertedId}, stored as sent", async () => {
    const res = await app.request("/api/add-item", { method: "POST", json: simple, jar: admin });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { acknowledged: boolean; insertedId: string };
    expect(body).toEqual({ acknowledged: true, insertedId: expect.any(String) });
    const row = (await app.db.pool.query("select * from simple_items where id = $1", [body.insertedId])).rows[0];
    expect(row).toMatchObject({
      format: "Instagram",
      canva_link: simple.canvaLink,
      image_link: simple.imageLink,
      category: "Living rooms",
      free_or_paid: "Paid",
    });
  });

  it("checks every field and names it", async () => {
    const res = await app.request("/api/add-item", {
      method: "POST",
      json: { ...simple, format: "TikTok", canvaLink: "javascript:alert(1)" },
      jar: admin,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      field: "format",
      errors: [
        { field: "format", message: "Choose Facebook, Instagram or YouTube" },
        { field: "canvaLink", message: "Canva link must be an http(s) address, such as https://…" },
      ],
    });
  });

  it("is for admins only", async () => {
    expect((await app.request("/api/add-item", { method: "POST", json: simple })).status).toBe(401);
    for (const jar of [customer, member]) {
      expect((await app.request("/api/add-item", { method: "POST", json: simple, jar })).status).toBe(403);
    }
  });
});

describe("the category files", () => {
  it.each([
    "/server/catalogue/categories/web-design.json",
    "/catalogue/categories/web-design.json",
    "/categories/web-design.json",
    "/web-design.json",
    "/api/web-design.json",
    "/api/categories/web-design",
  ])("are not served at %s", async (path) => {
    const res = await app.request(path, { jar: member });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("[Your Name]");
  });
});

describe("the demo catalogue of a fresh install", () => {
  it("seeds one item per category into an empty catalogue, usable by a member at once; never twice", async () => {
    await clearItems();
    const [first, again] = await Promise.all([
      app.services.catalogue.seedIfEmpty(demoCatalogue),
      app.services.catalogue.seedIfEmpty(demoCatalogue),
    ]);
    expect(first + again).toBe(5);
    expect(await app.services.catalogue.seedIfEmpty(demoCatalogue)).toBe(0);

    const list = await call<Item[]>("GET", "/api/all-database", member);
    expect(list.status).toBe(200);
    expect(list.body.data!.map((i) => i.itemDatabaseUrl)).toEqual([...categories.values]);
    for (const i of list.body.data!) {
      expect(i.itemsGuideline!.length).toBeGreaterThan(100);
      expect(i.itemURL).toMatch(/^[a-z0-9-]+-cold-emails$/);
    }
    const seo = list.body.data!.find((i) => i.itemDatabaseUrl === "seo-service")!;
    const templates = await call<unknown[]>("GET", `/api/database/${seo._id}/templates`, member);
    expect(templates.status).toBe(200);
    expect(templates.body.data).toEqual(await loadTemplates("seo-service"));
  });
});

describe("the items kept in memory", () => {
  const names = async () =>
    ((await call<Item[]>("GET", "/api/all-database", admin)).body.data ?? []).map((i) => i.itemName);

  it("are read once, until a change: what an admin changes shows at once, a change behind their back once told", async () => {
    await clearItems();
    const added = await call<Item>("POST", "/api/add-database", admin, item());
    expect(added.status).toBe(201);
    expect(await names()).toEqual(["Web Design Leads"]);

    // Changed behind the services' back: the kept copy answers (no query per view) ...
    await app.db.pool.query("update catalogue_items set item_name = 'Renamed In SQL'");
    expect(await names()).toEqual(["Web Design Leads"]);
    // ... until another instance says something changed (the same NOTIFY content changes send).
    await app.db.pool.query("select pg_notify('content_changed', '')");
    await expect.poll(names).toEqual(["Renamed In SQL"]);

    // The admin's own changes: an edit, a second item, a delete, each seen by the next read.
    const id = added.body.data!._id;
    expect((await call("PUT", `/api/database/${id}`, admin, item({ itemName: "Edited" }))).status).toBe(200);
    expect(await names()).toEqual(["Edited"]);
    expect(
      (await call("POST", "/api/add-database", admin, item({ itemName: "Seo", itemDatabaseUrl: "seo-service" })))
        .status,
    ).toBe(201);
    expect(await names()).toEqual(["Edited", "Seo"]);
    expect((await call("DELETE", `/api/database/${id}`, admin)).status).toBe(200);
    expect(await names()).toEqual(["Seo"]);
  });
});
