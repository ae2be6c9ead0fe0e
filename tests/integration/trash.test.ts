import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaUrl } from "#domain/media.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { demoCatalogue } from "#server/seed/demo-catalogue.ts";
import type { MediaItem } from "#server/services/media.ts";
import type { TrashEntry } from "#server/services/trash.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { imageOf } from "../support/images";
import { CookieJar } from "../support/session";

/**
 * Issue 26, part 5 (decision 039): a deleted content record, catalogue item or image goes to the trash: gone from the
 * API, the pages' content and the caches, listed in the trash with who and when; restored, back exactly as it was;
 * deleted for good by "Delete now" or by the clean-up 30 days later (the services' clock moved). Each call with each
 * role: a visitor, a customer, an Editor (whose role opens content, items and media) and the Admin.
 */
let app: TestApp;
const DAY = 24 * 60 * 60 * 1000;
/** The services' clock: real time, moved forward by the clean-up test. */
let shift = 0;
const jars = { customer: new CookieJar(), editor: new CookieJar(), admin: new CookieJar() };
const ADMIN = "keeper@example.org";

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: "keeper-pass-1", JOB_WORKERS: "true" },
    { now: () => new Date(Date.now() + shift) },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.catalogue.seedIfEmpty(demoCatalogue);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: jars.admin });
  await signUp(app, "visitor-turned-customer@example.org", { jar: jars.customer });
  jars.editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
}, 60_000);
afterAll(() => app?.close());

type Rec = { _id: string } & Record<string, unknown>;
const json = async <T>(path: string, jar?: CookieJar) => {
  const res = await app.request(path, { jar });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};
const call = (method: string, path: string, jar?: CookieJar) => app.request(path, { method, json: {}, jar });
const row = async (table: string, id: string) =>
  (await app.db.pool.query(`select * from ${table} where id = $1`, [id])).rows[0] as
    Record<string, unknown> | undefined;
const logOf = async (id: string) =>
  (
    await app.db.pool.query(
      "select action, actor_email from activity_log where record_id = $1 order by created_at, action",
      [id],
    )
  ).rows as { action: string; actor_email: string }[];

describe("a deleted testimonial", () => {
  it("leaves the API and the pages' content, is listed in the trash, and comes back identical", async () => {
    const before = await json<Rec[]>("/api/testimonials");
    expect(before.length).toBeGreaterThan(2);
    const victim = before[1]!;
    const stored = await row("content_entries", victim._id);
    const generation = app.services.content.generation();

    const del = await call("DELETE", `/api/testimonial/${victim._id}`, jars.admin);
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ acknowledged: true, deletedCount: 1 }); // the spec'd answer, unchanged
    // Gone from the API, the snapshot the pages render (and so from every cached page: a new generation).
    expect((await json<Rec[]>("/api/testimonials")).map((t) => t._id)).not.toContain(victim._id);
    expect((await app.request(`/api/testimonial/${victim._id}`)).status).toBe(404);
    expect((await app.services.content.snapshot()).testimonial.map((t) => t._id)).not.toContain(victim._id);
    expect(app.services.content.generation()).toBeGreaterThan(generation);
    expect(await row("content_entries", victim._id)).toBeUndefined();

    // Listed in the trash: what, its name, who, when, when it goes for good.
    const path = "/api/trash/content";
    expect((await app.request(path)).status).toBe(401);
    expect((await app.request(path, { jar: jars.customer })).status).toBe(403);
    for (const jar of [jars.editor, jars.admin]) {
      const [entry] = await json<TrashEntry[]>(path, jar);
      expect(entry).toMatchObject({
        recordId: victim._id,
        kind: "content",
        what: "Testimonial",
        title: victim.personName,
        deletedBy: ADMIN,
      });
      expect(Date.parse(entry!.purgeAt) - Date.parse(entry!.deletedAt)).toBe(30 * DAY);
    }
    // Other kinds' lists do not hold it; another kind's path does not restore it.
    expect(await json<TrashEntry[]>("/api/trash/items", jars.admin)).toEqual([]);
    expect((await call("POST", `/api/trash/items/${victim._id}/restore`, jars.admin)).status).toBe(404);

    // Restore: a visitor 401, a customer 403, the Editor (content is theirs) puts it back.
    const restore = `/api/trash/content/${victim._id}/restore`;
    expect((await call("POST", restore)).status).toBe(401);
    expect((await call("POST", restore, jars.customer)).status).toBe(403);
    const res = await call("POST", restore, jars.editor);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ acknowledged: true, restoredId: victim._id });
    // Identical: the same list in the same order, the same row (id, fields, place, dates).
    expect(await json<Rec[]>("/api/testimonials")).toEqual(before);
    expect(await row("content_entries", victim._id)).toEqual(stored);
    expect((await app.services.content.snapshot()).testimonial.map((t) => t._id)).toEqual(before.map((t) => t._id));
    expect(await json<TrashEntry[]>(path, jars.admin)).toEqual([]);
    expect((await call("POST", restore, jars.editor)).status).toBe(404);
    expect(await logOf(victim._id)).toEqual([
      { action: "delete", actor_email: ADMIN },
      { action: "restore", actor_email: "editor@example.org" },
    ]);
  });

  it("a single record added again since, or a list grown full, refuses the restore with a sentence (409)", async () => {
    const [banner] = await json<Rec[]>("/api/banner");
    expect((await call("DELETE", `/api/banner/${banner!._id}`, jars.admin)).status).toBe(200);
    const add = await app.request("/api/add-banner", {
      method: "POST",
      json: { ...banner, _id: undefined, bannerHeading: "A new banner" },
      jar: jars.admin,
    });
    expect(add.status).toBe(201);
    const refused = await call("POST", `/api/trash/content/${banner!._id}/restore`, jars.admin);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toBe(
      "A new Banner was added since: delete that one first, then restore this one.",
    );
    // Still in the trash, the new banner untouched.
    expect((await json<TrashEntry[]>("/api/trash/content", jars.admin)).map((e) => e.recordId)).toContain(banner!._id);
    expect((await json<Rec[]>("/api/banner")).map((b) => b.bannerHeading)).toEqual(["A new banner"]);
  });
});

describe("a deleted catalogue item", () => {
  it("leaves the dashboard's catalogue (kept in memory) and comes back identical; a taken category refuses it", async () => {
    const items = await json<{ success: true; data: Rec[] }>("/api/all-database", jars.admin);
    const item = items.data[0]!;
    const stored = await row("catalogue_items", item._id);
    expect((await call("DELETE", `/api/database/${item._id}`, jars.customer)).status).toBe(403);
    const del = await call("DELETE", `/api/database/${item._id}`, jars.editor);
    expect(await del.json()).toEqual({ success: true, data: { _id: item._id } });
    expect((await json<{ data: Rec[] }>("/api/all-database", jars.admin)).data.map((i) => i._id)).not.toContain(
      item._id,
    );
    const [entry] = await json<TrashEntry[]>("/api/trash/items", jars.editor);
    expect(entry).toMatchObject({ recordId: item._id, what: "Catalogue item", title: item.itemName });

    // Its category given to a new item meanwhile: refused, with what to do.
    const taken = await app.request("/api/add-database", {
      method: "POST",
      json: {
        itemName: "Stand-in",
        itemsDescription: "For a while",
        itemDatabaseUrl: item.itemDatabaseUrl,
        itemsGuideline: "None",
      },
      jar: jars.admin,
    });
    expect(taken.status).toBe(201);
    const standIn = ((await taken.json()) as { data: Rec }).data;
    const refused = await call("POST", `/api/trash/items/${item._id}/restore`, jars.admin);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/is used by another item now/);

    expect((await call("DELETE", `/api/database/${standIn._id}`, jars.admin)).status).toBe(200);
    expect((await call("POST", `/api/trash/items/${item._id}/restore`, jars.admin)).status).toBe(200);
    expect(await row("catalogue_items", item._id)).toEqual(stored);
    expect((await json<{ data: Rec[] }>("/api/all-database", jars.admin)).data).toContainEqual(item);
  });
});

describe("a deleted image", () => {
  it("is no longer served; restored, its files are served again byte for byte; Delete now removes its files", async () => {
    const form = new FormData();
    form.set("alt", "A quiet room");
    form.set("file", new Blob([new Uint8Array(await imageOf("png", 600, 400))], { type: "image/png" }), "room.png");
    const up = await app.request("/api/media", { method: "POST", body: form, jar: jars.admin });
    expect(up.status).toBe(201);
    const { item } = (await up.json()) as { item: MediaItem };
    const file = mediaUrl(item.key, item.widths[0]!, "webp");
    const bytes = Buffer.from(await (await app.request(file)).arrayBuffer());
    const files = async () =>
      (await app.db.pool.query("select count(*)::int as n from trash_files")).rows[0].n as number;

    expect((await call("DELETE", `/api/media/${item._id}`, jars.editor)).status).toBe(200);
    expect((await app.request(file)).status).toBe(404);
    expect(await files()).toBeGreaterThan(0);
    const [entry] = await json<TrashEntry[]>("/api/trash/media", jars.admin);
    expect(entry).toMatchObject({ recordId: item._id, what: "Image", title: "room.png" });

    expect((await call("POST", `/api/trash/media/${item._id}/restore`, jars.customer)).status).toBe(403);
    expect((await call("POST", `/api/trash/media/${item._id}/restore`, jars.editor)).status).toBe(200);
    expect(Buffer.from(await (await app.request(file)).arrayBuffer())).toEqual(bytes);
    expect((await json<MediaItem>(`/api/media/${item._id}`, jars.admin)).alt).toBe("A quiet room");
    expect(await files()).toBe(0);

    // Delete now: the trash entry and its files go for good, in the log.
    expect((await call("DELETE", `/api/media/${item._id}`, jars.admin)).status).toBe(200);
    expect((await call("DELETE", `/api/trash/media/${item._id}`)).status).toBe(401);
    expect((await call("DELETE", `/api/trash/media/${item._id}`, jars.customer)).status).toBe(403);
    const purge = await call("DELETE", `/api/trash/media/${item._id}`, jars.admin);
    expect(await purge.json()).toEqual({ acknowledged: true, deletedCount: 1 });
    expect(await files()).toBe(0);
    expect(await json<TrashEntry[]>("/api/trash/media", jars.admin)).toEqual([]);
    expect((await call("POST", `/api/trash/media/${item._id}/restore`, jars.admin)).status).toBe(404);
    expect((await logOf(item._id)).map((e) => e.action)).toEqual(["create", "delete", "restore", "delete", "purge"]);
  });
});

describe("the clean-up job", () => {
  it("deletes for good what has been in the trash 30 days, and nothing younger, as 'Automatic clean-up'", async () => {
    const [faq] = await json<Rec[]>("/api/faq-items");
    expect((await call("DELETE", `/api/faq-item/${faq!._id}`, jars.admin)).status).toBe(200);
    const inTrash = async () =>
      (await app.db.pool.query("select record_id from trash")).rows.map((r) => r.record_id as string);
    const others = (await inTrash()).filter((id) => id !== faq!._id);

    shift = 29 * DAY;
    await app.services.trash.purgeExpired();
    expect(await inTrash()).toContain(faq!._id);
    shift = 30 * DAY + 60_000;
    // Through the queue, as the daily tick runs it.
    await app.services.jobs.trigger("trash-clean-up");
    await expect.poll(inTrash, { timeout: 15_000 }).not.toContain(faq!._id);
    expect((await logOf(faq!._id)).at(-1)).toEqual({ action: "purge", actor_email: "Automatic clean-up" });
    // Everything deleted earlier in this file went with it; the trash is empty.
    expect(others.every((id) => id !== faq!._id)).toBe(true);
    expect(await inTrash()).toEqual([]);
    shift = 0;
  });
});
