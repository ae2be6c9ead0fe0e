import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/** Deleting and reordering content records over REST: who may, what it answers, what the lists and the log say. */
let app: TestApp;
const admin = new CookieJar();
const customer = new CookieJar();

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "curator@example.org", ADMIN_PASSWORD: "curator-pass-1" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signUp(app, "reader@example.org", { jar: customer });
  await signInAsAdmin(app, { jar: admin });
});
afterAll(() => app?.close());

type Faq = { _id: string; accodingTitle: string };
const faqs = async () => (await (await app.request("/api/faq-items")).json()) as Faq[];

describe("deleting a record", () => {
  it("a visitor 401, a customer 403, an unknown id 404; the admin deletes it, the list and the log follow", async () => {
    const [first, second] = await faqs();
    const path = `/api/faq-item/${first!._id}`;
    expect((await app.request(path, { method: "DELETE" })).status).toBe(401);
    expect((await app.request(path, { method: "DELETE", jar: customer })).status).toBe(403);
    expect(
      (await app.request("/api/faq-item/00000000-0000-4000-8000-000000000000", { method: "DELETE", jar: admin }))
        .status,
    ).toBe(404);
    // A record of another section is not found through this section's path.
    expect((await app.request(`/api/testimonial/${first!._id}`, { method: "DELETE", jar: admin })).status).toBe(404);

    const res = await app.request(path, { method: "DELETE", jar: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ acknowledged: true, deletedCount: 1 });
    expect((await faqs()).map((f) => f._id)).not.toContain(first!._id);
    expect((await faqs())[0]!._id).toBe(second!._id);
    expect((await app.request(path, { method: "DELETE", jar: admin })).status).toBe(404);

    const { rows } = await app.db.pool.query(
      "select actor_email, action, changes from activity_log where record_id = $1",
      [first!._id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_email: "curator@example.org", action: "delete" });
    expect(rows[0].changes.accodingTitle).toEqual({ before: first!.accodingTitle, after: null });
  });

  it("a singleton can be deleted, and then added again", async () => {
    const [copyright] = (await (await app.request("/api/copyrights")).json()) as { _id: string }[];
    expect((await app.request(`/api/copyrights/${copyright!._id}`, { method: "DELETE", jar: admin })).status).toBe(200);
    expect(await (await app.request("/api/copyrights")).json()).toEqual([]);
    const again = await app.request("/api/add-footer-copyright", {
      method: "POST",
      json: { copyrightText: "© 2026 Again" },
      jar: admin,
    });
    expect(again.status).toBe(201);
  });
});

describe("reordering a list", () => {
  it("stores the order given; the list (and so the public pages) follow it; the log names the moves", async () => {
    const before = (await faqs()).map((f) => f._id);
    const reversed = [...before].reverse();
    const path = "/api/reorder/faq-items";
    expect((await app.request(path, { method: "PUT", json: { ids: reversed } })).status).toBe(401);
    expect((await app.request(path, { method: "PUT", json: { ids: reversed }, jar: customer })).status).toBe(403);
    const res = await app.request(path, { method: "PUT", json: { ids: reversed }, jar: admin });
    expect(await res.json()).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    expect((await faqs()).map((f) => f._id)).toEqual(reversed);
    const same = await app.request(path, { method: "PUT", json: { ids: reversed }, jar: admin });
    expect(await same.json()).toMatchObject({ modifiedCount: 0 });
    const { rows } = await app.db.pool.query(
      "select changes from activity_log where record_id = $1 and action = 'update'",
      [before[0]],
    );
    expect(rows.at(-1).changes).toEqual({ position: { before: 1, after: before.length } });
  });

  it("refuses a list that is not the section's (409) and a body that is not a list (400)", async () => {
    const ids = (await faqs()).map((f) => f._id);
    const put = (json: unknown) => app.request("/api/reorder/faq-items", { method: "PUT", json, jar: admin });
    expect((await put({ ids: ids.slice(1) })).status).toBe(409);
    expect((await put({ ids: [...ids, ids[0]] })).status).toBe(409);
    expect((await put({ ids: [ids[0], ids[0], ...ids.slice(2)] })).status).toBe(409);
    expect((await put({ ids: "all" })).status).toBe(400);
    expect((await put({})).status).toBe(400);
    expect((await faqs()).map((f) => f._id)).toEqual(ids);
  });

  it("moves one record up or down (the admin screens' buttons)", async () => {
    const ids = (await faqs()).map((f) => f._id);
    const viewer = { id: "x", email: "curator@example.org" };
    await app.services.content.move("faqItem", ids[1]!, "up", viewer);
    expect((await faqs()).map((f) => f._id)).toEqual([ids[1], ids[0], ...ids.slice(2)]);
    expect(await app.services.content.move("faqItem", ids[1]!, "up", viewer)).toEqual({ modified: false });
    await app.services.content.move("faqItem", ids[1]!, "down", viewer);
    expect((await faqs()).map((f) => f._id)).toEqual(ids);
  });
});
