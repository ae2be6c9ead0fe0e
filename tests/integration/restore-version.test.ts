import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 26, part 5 (decision 039): "Restore this version" of a content change in the activity log writes the values
 * the change replaced back, as a new audited change through the content service (its rules, its log entry, the pages'
 * caches dropped), after a confirmation that lists each field; refused with a sentence when the record is in the
 * trash or gone for good, or when the change is not one of content. And archived messages (the inbox service).
 */
let app: TestApp;
const ADMIN = "historian@example.org";
const jars = { customer: new CookieJar(), editor: new CookieJar(), admin: new CookieJar() };

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: "historian-pass-1", RATE_LIMIT_PUBLIC_FORMS: "1000" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: jars.admin });
  await signUp(app, "someone@example.org", { jar: jars.customer });
  jars.editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
}, 60_000);
afterAll(() => app?.close());

type Banner = { _id: string; bannerHeading: string; bannerDetails: string } & Record<string, unknown>;
const banner = async () => ((await (await app.request("/api/banner")).json()) as Banner[])[0]!;
const update = (b: Banner, change: Partial<Banner>) =>
  app.request(`/api/update-banner/${b._id}`, {
    method: "PUT",
    json: { ...b, _id: undefined, ...change },
    jar: jars.admin,
  });
const entries = async (recordId: string) =>
  (
    await app.db.pool.query(
      "select id, action, actor_email, changes from activity_log where record_id = $1 order by created_at",
      [recordId],
    )
  ).rows as {
    id: string;
    action: string;
    actor_email: string;
    changes: Record<string, { before: unknown; after: unknown }>;
  }[];
const restore = (entryId: string, jar?: CookieJar) =>
  app.request(`/api/activity/${entryId}/restore`, { method: "POST", json: {}, jar });

describe("Restore this version", () => {
  it("writes back the values a change replaced, only those fields, as a new change in the log", async () => {
    const original = await banner();
    expect((await update(original, { bannerHeading: "Second heading" })).status).toBe(200);
    expect((await update(await banner(), { bannerDetails: "Second text" })).status).toBe(200);
    const [headingChange, textChange] = await entries(original._id);
    expect(headingChange!.changes).toEqual({
      bannerHeading: { before: original.bannerHeading, after: "Second heading" },
    });

    // The confirmation shows each field: its value now and the one it gets back.
    const plan = await app.services.versions.plan(headingChange!.id);
    expect(plan).toMatchObject({
      kind: "Banner",
      changes: [
        { field: "bannerHeading", label: "Banner Heading", now: "Second heading", restored: original.bannerHeading },
      ],
    });

    // Admin only (the log is the Admin's): a visitor 401, a customer and an Editor 403.
    expect((await restore(headingChange!.id)).status).toBe(401);
    expect((await restore(headingChange!.id, jars.customer)).status).toBe(403);
    expect((await restore(headingChange!.id, jars.editor)).status).toBe(403);
    const generation = app.services.content.generation();
    const res = await restore(headingChange!.id, jars.admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });

    // The older heading is back; the later text change is kept (only the entry's fields are written back).
    const now = await banner();
    expect(now).toMatchObject({ bannerHeading: original.bannerHeading, bannerDetails: "Second text" });
    expect(app.services.content.generation()).toBeGreaterThan(generation);
    expect((await app.services.content.snapshot()).banner[0]).toMatchObject({ bannerHeading: original.bannerHeading });
    const log = await entries(original._id);
    expect(log).toHaveLength(3);
    expect(log[2]).toMatchObject({
      action: "update",
      actor_email: ADMIN,
      changes: { bannerHeading: { before: "Second heading", after: original.bannerHeading } },
    });
    // Again: nothing to write (it has those values), and the log is unchanged.
    expect(await (await restore(headingChange!.id, jars.admin)).json()).toMatchObject({ modifiedCount: 0 });
    expect((await app.services.versions.plan(headingChange!.id)).changes).toEqual([]);
    expect(await entries(original._id)).toHaveLength(3);
    // The text change's version: the demo text again.
    expect((await restore(textChange!.id, jars.admin)).status).toBe(200);
    expect(await banner()).toMatchObject({ bannerDetails: original.bannerDetails });
  });

  it("a record's first entry gives back the values it was added with", async () => {
    const add = await app.request("/api/add-faq-item", {
      method: "POST",
      json: { accodingTitle: "Do you travel?", accodingText: "Within the county." },
      jar: jars.admin,
    });
    expect(add.status).toBe(201);
    const { insertedId } = (await add.json()) as { insertedId: string };
    const put = await app.request(`/api/faq-item/${insertedId}`, {
      method: "PUT",
      json: { accodingTitle: "Do you travel far?", accodingText: "Anywhere." },
      jar: jars.admin,
    });
    expect(put.status).toBe(200);
    const [created] = await entries(insertedId);
    expect(created!.action).toBe("create");
    expect((await restore(created!.id, jars.admin)).status).toBe(200);
    const faq = (await (await app.request(`/api/faq-item/${insertedId}`)).json()) as Record<string, unknown>;
    expect(faq).toMatchObject({ accodingTitle: "Do you travel?", accodingText: "Within the county." });
  });

  it("is refused with a sentence: the record in the trash, gone for good, a move only, not content, unknown", async () => {
    const [faq] = (await (await app.request("/api/faq-items")).json()) as { _id: string; accodingTitle: string }[];
    const put = await app.request(`/api/faq-item/${faq!._id}`, {
      method: "PUT",
      json: { ...faq, _id: undefined, accodingTitle: "Changed title" },
      jar: jars.admin,
    });
    expect(put.status).toBe(200);
    const change = (await entries(faq!._id)).at(-1)!;
    expect((await app.request(`/api/faq-item/${faq!._id}`, { method: "DELETE", jar: jars.admin })).status).toBe(200);

    const inTrash = await restore(change.id, jars.admin);
    expect(inTrash.status).toBe(409);
    expect(((await inTrash.json()) as { error: string }).error).toBe(
      "This FAQ Item has been deleted: it is in the trash. Restore it from the trash first.",
    );
    await expect(app.services.versions.plan(change.id)).rejects.toThrow(/in the trash/);
    // Restored from the trash, the version can be restored again.
    expect(
      (await app.request(`/api/trash/content/${faq!._id}/restore`, { method: "POST", json: {}, jar: jars.admin }))
        .status,
    ).toBe(200);
    expect((await restore(change.id, jars.admin)).status).toBe(200);
    expect((await (await app.request(`/api/faq-item/${faq!._id}`)).json()) as object).toMatchObject({
      accodingTitle: faq!.accodingTitle,
    });

    // Deleted for good.
    await app.request(`/api/faq-item/${faq!._id}`, { method: "DELETE", jar: jars.admin });
    await app.request(`/api/trash/content/${faq!._id}`, { method: "DELETE", jar: jars.admin });
    const gone = await restore(change.id, jars.admin);
    expect(gone.status).toBe(409);
    expect(((await gone.json()) as { error: string }).error).toMatch(/deleted for good/);

    // A move in a list only (position), a change that is not content, an unknown entry.
    const ids = ((await (await app.request("/api/faq-items")).json()) as { _id: string }[]).map((f) => f._id);
    await app.request("/api/reorder/faq-items", { method: "PUT", json: { ids: [...ids].reverse() }, jar: jars.admin });
    const move = (await entries(ids[0]!)).at(-1)!;
    expect(Object.keys(move.changes)).toEqual(["position"]);
    expect(((await (await restore(move.id, jars.admin)).json()) as { error: string }).error).toMatch(/arrows/);
    const staff = (await app.db.pool.query("select id from activity_log where entity not like 'content:%' limit 1"))
      .rows[0] as { id: string } | undefined;
    if (staff) expect((await restore(staff.id, jars.admin)).status).toBe(409);
    expect((await restore("00000000-0000-4000-8000-000000000000", jars.admin)).status).toBe(404);
    expect((await restore("not-an-id", jars.admin)).status).toBe(404);
  });

  it("a change whose field the registry no longer has is refused (409), nothing written", async () => {
    const b = await banner();
    // An entry as an older version of the site would have written it: a field the Banner no longer has.
    const { rows } = await app.db.pool.query(
      `insert into activity_log (actor_email, action, entity, record_id, changes)
       values ($1, 'update', 'content:banner', $2, $3) returning id`,
      [ADMIN, b._id, JSON.stringify({ bannerSubtitle: { before: "Old", after: "New" } })],
    );
    const res = await restore(rows[0].id, jars.admin);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe(
      "This change's fields no longer match the Banner's fields (it has no “bannerSubtitle” now): it cannot be restored.",
    );
    expect(await banner()).toEqual(b);
  });
});

describe("archived messages", () => {
  it("leave the Unread and Read tables and the unread count, stay listed as Archived, and come back", async () => {
    const send = async (subject: string) => {
      const res = await app.request("/api/add-message", {
        method: "POST",
        json: { name: "Ada", email: "ada@example.org", number: "", subject, message: "Hello there, a question." },
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { insertedId: string }).insertedId;
    };
    const first = await send("First question");
    const second = await send("Second question");
    const unread = async () =>
      (
        (await (await app.request("/api/messages?status=UnRead", { jar: jars.editor })).json()) as { _id: string }[]
      ).map((m) => m._id);
    expect(await unread()).toEqual(expect.arrayContaining([first, second]));
    const unreadCount = async () => (await app.services.backOffice.navCounts("Admin")).unread!.total;
    const count = await unreadCount();

    const archive = (id: string, body: unknown, jar?: CookieJar) =>
      app.request(`/api/message/${id}/archive`, { method: "PUT", json: body, jar });
    expect((await archive(first, { archived: true })).status).toBe(401);
    expect((await archive(first, { archived: true }, jars.customer)).status).toBe(403);
    expect((await archive(first, { archived: "yes" }, jars.editor)).status).toBe(400);
    expect((await archive(first, {}, jars.editor)).status).toBe(400);
    const res = await archive(first, { archived: true }, jars.editor);
    expect(await res.json()).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    expect(await (await archive(first, { archived: true }, jars.editor)).json()).toMatchObject({ modifiedCount: 0 });

    expect(await unread()).not.toContain(first);
    expect(await unreadCount()).toBe(count - 1);
    const archived = (await (await app.request("/api/messages?status=Archived", { jar: jars.editor })).json()) as {
      _id: string;
      messageStatus: string;
      archivedAt: string;
    }[];
    expect(archived).toEqual([expect.objectContaining({ _id: first, messageStatus: "UnRead" })]);
    expect(Date.parse(archived[0]!.archivedAt)).not.toBeNaN();

    expect((await archive(first, { archived: false }, jars.editor)).status).toBe(200);
    expect(await unread()).toContain(first);
    expect(await unreadCount()).toBe(count);
    const log = (
      await app.db.pool.query(
        "select actor_email, changes from activity_log where record_id = $1 order by created_at",
        [first],
      )
    ).rows;
    expect(log.map((l) => l.changes)).toEqual([
      { archived: { before: false, after: true } },
      { archived: { before: true, after: false } },
    ]);
  });
});
