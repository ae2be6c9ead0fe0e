import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_CHARS, MEMBERS_MARKER } from "#domain/articles.ts";
import { toZonedInput } from "#domain/zoned-time.ts";
import {
  ARTICLE_PUBLISH_QUEUE,
  type ArticleListRow,
  type ArticleRecord,
  type ArticleVersion,
} from "#server/services/articles.ts";
import { JOBS_SCHEMA } from "#server/services/jobs.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { imageOf } from "../support/images";
import { DEMO_BYLINE, seedDemoArticles } from "#server/seed/demo-articles.ts";
import { CookieJar } from "../support/session";
import { until } from "../support/wait";

/**
 * Issue 36, part 1: the back office's articles against the real database and app. Each call with each role (a visitor,
 * a customer, an Editor, the Admin); the body cleaned on the server and bounded; addresses unique, an old one kept
 * for its article; scheduling refused in the past and published once by the job however many run it; every save a
 * version, a version restored as a new one; deleted to the trash and restored whole; the content change signal sent
 * when the public site's articles change.
 */
let app: TestApp;
/** The services' clock: real time, moved forward by the scheduling tests. */
let shift = 0;
const jars = { customer: new CookieJar(), editor: new CookieJar(), admin: new CookieJar() };
const ADMIN = "chief@example.org";
let editorId = "";
let seeded = 0;

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: "chief-pass-12", TZ: "Europe/London" },
    { now: () => new Date(Date.now() + shift) },
  );
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: jars.admin });
  await signUp(app, "reader@example.org", { jar: jars.customer });
  jars.editor = await signUpStaff(app, app.db.pool, "writer@example.org", "Editor");
  seeded = await seedDemoArticles(app.services.articles, "");
  editorId = (await app.db.pool.query(`select id from "user" where email = 'writer@example.org'`)).rows[0].id;
}, 60_000);
afterAll(() => app?.close());

const send = (method: string, path: string, json: unknown, jar?: CookieJar) =>
  app.request(`/api${path}`, { method, json, jar });
async function ok<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const body = (await r.json()) as T;
  expect(r.status, JSON.stringify(body)).toBe(status);
  return body;
}
const create = async (fields: Record<string, unknown>, jar = jars.editor) =>
  (await ok<{ insertedId: string }>(send("POST", "/articles", fields, jar), 201)).insertedId;
const get = (id: string) => ok<ArticleRecord>(app.request(`/api/articles/${id}`, { jar: jars.editor }));
const versions = (id: string) =>
  ok<ArticleVersion[]>(app.request(`/api/articles/${id}/versions`, { jar: jars.editor }));
const errorOf = async (res: Promise<Response>, status = 400) => {
  const r = await res;
  expect(r.status).toBe(status);
  return ((await r.json()) as { error: string }).error;
};
const londonInput = (ms: number) => toZonedInput(new Date(ms), "Europe/London");

describe("the demo articles", () => {
  it("are published once, into an empty blog only, one with a members-only part, two sharing a tag", async () => {
    expect(seeded).toBe(3);
    expect(await seedDemoArticles(app.services.articles, "")).toBe(0);
    const rows = await ok<ArticleListRow[]>(app.request("/api/articles?state=published", { jar: jars.editor }));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.authorName === DEMO_BYLINE)).toBe(true);
    expect(rows.filter((r) => r.tags.includes("Interiors"))).toHaveLength(2);
    const split = rows.find((r) => r.access === "split")!;
    expect((await get(split.id)).bodyHtml).toContain("<hr data-members-only");
    expect((await versions(split.id)).map((v) => v.version)).toEqual([2, 1]);
  });
});

describe("each article call with each role", () => {
  it("refuses visitors and customers, and lets an Editor and the Admin write and read", async () => {
    const id = await create({ title: "Roles and rights" });
    const calls: [string, string, unknown][] = [
      ["GET", "/articles", undefined],
      ["GET", `/articles/${id}`, undefined],
      ["POST", "/articles", { title: "Someone else's" }],
      ["PUT", `/articles/${id}`, { title: "Roles and rights, again" }],
      ["PUT", `/articles/${id}/state`, { intent: "publish" }],
      ["GET", `/articles/${id}/versions`, undefined],
      ["POST", `/articles/${id}/versions/1/restore`, {}],
      ["DELETE", `/articles/${id}`, {}],
    ];
    for (const [method, path, body] of calls) {
      expect((await send(method, path, body)).status, `${method} ${path} as a visitor`).toBe(401);
      expect((await send(method, path, body, jars.customer)).status, `${method} ${path} as a customer`).toBe(403);
    }
    for (const jar of [jars.editor, jars.admin]) {
      const mine = await create({ title: `Written by ${jar === jars.admin ? "the Admin" : "an Editor"}` }, jar);
      const answers = [
        await send("GET", "/articles", undefined, jar),
        await send("GET", `/articles/${mine}`, undefined, jar),
        await send("PUT", `/articles/${mine}`, { title: "Changed", slug: `changed-${mine.slice(0, 6)}` }, jar),
        await send("PUT", `/articles/${mine}/state`, { intent: "publish" }, jar),
        await send("GET", `/articles/${mine}/versions`, undefined, jar),
        await send("POST", `/articles/${mine}/versions/1/restore`, {}, jar),
        await send("DELETE", `/articles/${mine}`, {}, jar),
      ];
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    }
  });
});

describe("an article's save", () => {
  it("cleans the body on the server, keeps the marker, and writes version 1 and a log entry", async () => {
    const id = await create({
      title: "Pasted from a word processor",
      bodyHtml: `<h2 style="color:red">Heading</h2><script>alert(1)</script><p onclick="x()">Text <a href="javascript:alert(1)">link</a></p>${MEMBERS_MARKER}<p>For members</p>`,
      access: "split",
      tags: "SEO, Interiors, seo",
    });
    const a = await get(id);
    expect(a.bodyHtml).not.toMatch(/script|onclick|javascript|style=/);
    expect(a.bodyHtml).toContain("<h2>Heading</h2>");
    expect(a.bodyHtml).toMatch(/<hr data-members-only/);
    expect(a).toMatchObject({
      slug: "pasted-from-a-word-processor",
      state: "draft",
      version: 1,
      tags: ["SEO", "Interiors"],
    });
    expect(a.authorId).toBe(editorId);
    const history = await versions(id);
    expect(history).toEqual([expect.objectContaining({ version: 1, savedBy: "writer@example.org" })]);
    const log = await app.db.pool.query("select action, entity from activity_log where record_id = $1", [id]);
    expect(log.rows).toEqual([{ action: "create", entity: "article" }]);
  });

  it("refuses a split article without its marker, an unknown author, a missing image and an over-long body", async () => {
    expect(
      await errorOf(send("POST", "/articles", { title: "Split", access: "split", bodyHtml: "<p>x</p>" }, jars.editor)),
    ).toMatch(/Members only below this line/);
    expect(await errorOf(send("POST", "/articles", { title: "Who?", authorId: "nobody" }, jars.editor))).toBe(
      "Choose the author from the staff list.",
    );
    expect(
      await errorOf(
        send("POST", "/articles", { title: "Cover", coverImage: "/media/0123456789abcdef-800.webp" }, jars.editor),
      ),
    ).toMatch(/media library/);
    // Over the stored bound once cleaned, under the request's bound: refused with the sizes in words.
    const long = "<p>" + "word ".repeat(Math.ceil(MAX_BODY_CHARS / 5) + 10) + "</p>";
    expect(await errorOf(send("POST", "/articles", { title: "Long", bodyHtml: long }, jars.editor))).toMatch(
      /The body is too long: 1,000,0\d\d characters of HTML, the most is 1,000,000/,
    );
    // Over the request's bound (3 MB): refused before it is read.
    const huge = "x".repeat(3 * 1024 * 1024 + 10);
    expect(await errorOf(send("POST", "/articles", { title: "Huge", bodyHtml: huge }, jars.editor), 413)).toMatch(
      /3 MB/,
    );
    // Any other call keeps the default bound.
    expect((await send("POST", "/discount-codes", { note: "x".repeat(100 * 1024) }, jars.admin)).status).toBe(413);
  });

  it("takes library images for the cover and the share image, by their addresses", async () => {
    const image = await app.services.media.importTrusted({
      bytes: await imageOf("png", 640, 400),
      fileName: "sofa.png",
      alt: "A green velvet sofa",
    });
    const id = await create({ title: "With a cover", coverImage: image.url, seoImage: image.url });
    expect(await get(id)).toMatchObject({ coverImage: image.url, seoImage: image.url });
  });

  it("takes a body of 1 MB of HTML (the editor's largest)", async () => {
    const body = "<p>" + "words ".repeat(Math.floor((MAX_BODY_CHARS - 20) / 6)) + "</p>";
    const id = await create({ title: "A very long read", bodyHtml: body });
    expect((await get(id)).bodyHtml.length).toBe(body.length);
  });

  it("a form post of the editing screen up to 3 MB reaches the page (not refused at 64 KB)", async () => {
    const form = new FormData();
    form.set("title", "x".repeat(200 * 1024));
    const res = await app.request("/articles/new", { method: "POST", body: form, jar: jars.editor });
    expect(res.status).not.toBe(413);
    const other = await app.request("/discount-codes/new", { method: "POST", body: form, jar: jars.admin });
    expect(other.status).toBe(413);
  });
});

describe("an article's address", () => {
  it("is unique, keeps the old one for its article, and lets no other take it", async () => {
    const first = await create({ title: "Choosing a sofa" });
    expect(await errorOf(send("POST", "/articles", { title: "Choosing a sofa" }, jars.editor))).toBe(
      "Another article already has the address /blog/choosing-a-sofa: choose another.",
    );
    const answer = await ok<{ slug: string }>(
      send("PUT", `/articles/${first}`, { title: "Choosing a sofa", slug: "How to Choose a Sofa" }, jars.editor),
    );
    expect(answer.slug).toBe("how-to-choose-a-sofa");
    expect((await get(first)).oldSlugs).toEqual(["choosing-a-sofa"]);
    expect(await errorOf(send("POST", "/articles", { title: "Other", slug: "choosing-a-sofa" }, jars.editor))).toBe(
      "The address /blog/choosing-a-sofa was an earlier address of “Choosing a sofa” and still leads there: choose another.",
    );
    // Its own article takes it back: no longer an old address.
    await ok(send("PUT", `/articles/${first}`, { title: "Choosing a sofa", slug: "choosing-a-sofa" }, jars.editor));
    const back = await get(first);
    expect(back.slug).toBe("choosing-a-sofa");
    expect(back.oldSlugs).toEqual(["how-to-choose-a-sofa"]);
  });

  it("two articles saved at once with one address: one gets it, the other a sentence", async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() => send("POST", "/articles", { title: "Race for an address" }, jars.editor)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400]);
  });
});

describe("an article's state", () => {
  it("refuses a time past, schedules one to come, and the job publishes it once with several hosts", async () => {
    const id = await create({ title: "Spring colour trends", bodyHtml: "<p>Sage and ochre.</p>" });
    const past = await errorOf(
      send(
        "PUT",
        `/articles/${id}/state`,
        { intent: "schedule", publishAt: londonInput(Date.now() - 3600_000) },
        jars.editor,
      ),
    );
    expect(past).toMatch(/The time to publish has passed .*Europe\/London time/);
    const when = Date.now() + 2 * 3600_000;
    await ok(send("PUT", `/articles/${id}/state`, { intent: "schedule", publishAt: londonInput(when) }, jars.editor));
    const scheduled = await get(id);
    expect(scheduled.state).toBe("scheduled");
    expect(Math.abs(new Date(scheduled.publishAt!).getTime() - when)).toBeLessThan(60_000);
    // Its own publishing run waits in the queue, due at its time (the every-minute run is the net).
    const { rows: runs } = await app.db.pool.query<{ start_after: Date }>(
      `select start_after from ${JOBS_SCHEMA}.job where name = $1 and singleton_key = $2`,
      [ARTICLE_PUBLISH_QUEUE, `${id}@${scheduled.publishAt}`],
    );
    expect(runs).toHaveLength(1);
    expect(Math.abs(runs[0]!.start_after.getTime() - new Date(scheduled.publishAt!).getTime())).toBeLessThan(5_000);

    expect(await app.services.articles.publishDue()).toBe(0); // not yet
    shift = 3 * 3600_000;
    // Three runs at the same moment (as on three hosts), each its own transaction; another connection listens.
    const listener = await app.db.pool.connect();
    const heard: string[] = [];
    listener.on("notification", (n) => heard.push(n.channel));
    await listener.query("listen content_changed");
    try {
      const runs = await Promise.all([
        app.services.articles.publishDue(),
        app.services.articles.publishDue(),
        app.services.articles.publishDue(),
      ]);
      expect(runs.sort()).toEqual([0, 0, 1]);
      await until("the change heard", () => heard.includes("content_changed"), 5_000);
    } finally {
      await listener.query("unlisten content_changed");
      listener.release();
      shift = 0;
    }
    const published = await get(id);
    expect(published).toMatchObject({ state: "published", publishAt: null, version: 3 });
    expect((await versions(id))[0]).toMatchObject({ version: 3, savedBy: "Scheduled publishing" });
  });

  it("publishes now, unpublishes, and refuses what does not follow", async () => {
    const id = await create({ title: "Lighting a north-facing room", intent: "publish" });
    const a = await get(id);
    expect(a.state).toBe("published");
    expect(a.publishedAt).not.toBeNull();
    expect(await errorOf(send("PUT", `/articles/${id}/state`, { intent: "draft" }, jars.editor))).toMatch(
      /unpublish it/,
    );
    await ok(send("PUT", `/articles/${id}/state`, { intent: "unpublish" }, jars.editor));
    expect(await errorOf(send("PUT", `/articles/${id}/state`, { intent: "unpublish" }, jars.editor))).toMatch(
      /Only a published article can be unpublished/,
    );
    await ok(send("PUT", `/articles/${id}/state`, { intent: "publish" }, jars.editor));
    expect((await get(id)).publishedAt).toBe(a.publishedAt); // its first date kept
    expect(await errorOf(send("PUT", `/articles/${id}/state`, { intent: "go" }, jars.editor))).toMatch(
      /Choose what to do/,
    );
  });

  it("lists a page at a time, by state", async () => {
    const all = await app.request("/api/articles?limit=2", { jar: jars.editor });
    expect(all.status).toBe(200);
    expect(((await all.json()) as ArticleListRow[]).length).toBe(2);
    expect(Number(all.headers.get("X-Total-Count"))).toBeGreaterThan(4);
    const published = await ok<ArticleListRow[]>(
      app.request("/api/articles?state=published&limit=100", { jar: jars.editor }),
    );
    expect(published.length).toBeGreaterThan(0);
    expect(published.every((a) => a.state === "published")).toBe(true);
    expect(await errorOf(app.request("/api/articles?state=gone", { jar: jars.editor }))).toMatch(/Choose a state/);
  });
});

describe("an article's history and trash", () => {
  it("restores an older version as a new one, its state unchanged", async () => {
    const id = await create({ title: "First title", bodyHtml: "<p>First body</p>", intent: "publish" });
    await ok(send("PUT", `/articles/${id}`, { title: "Second title", bodyHtml: "<p>Second body</p>" }, jars.editor));
    expect((await get(id)).slug).toBe("first-title"); // a title edit moves no address
    const restored = await ok<{ version: number; modifiedCount: number }>(
      send("POST", `/articles/${id}/versions/1/restore`, {}, jars.admin),
    );
    expect(restored).toMatchObject({ version: 3, modifiedCount: 1 });
    const a = await get(id);
    expect(a).toMatchObject({
      title: "First title",
      bodyHtml: "<p>First body</p>",
      state: "published",
      version: 3,
      slug: "first-title",
    });
    expect((await versions(id)).map((v) => v.version)).toEqual([3, 2, 1]);
    expect(await errorOf(send("POST", `/articles/${id}/versions/9/restore`, {}, jars.admin), 404)).toBe(
      "No such version of this article.",
    );
  });

  it("goes to the trash with its versions and old addresses, and comes back whole", async () => {
    const id = await create({ title: "Trash me", intent: "publish" });
    await ok(send("PUT", `/articles/${id}`, { title: "Trash me", slug: "trash-me-later" }, jars.editor));
    await ok(send("DELETE", `/articles/${id}`, {}, jars.editor));
    expect((await app.request(`/api/articles/${id}`, { jar: jars.editor })).status).toBe(404);
    const trash = await ok<{ recordId: string; what: string; title: string }[]>(
      app.request("/api/trash/content", { jar: jars.editor }),
    );
    expect(trash.find((t) => t.recordId === id)).toMatchObject({ what: "Article", title: "Trash me" });
    // Its address is free while it is in the trash; taken, the restore is refused with a sentence.
    const other = await create({ title: "Squatter", slug: "trash-me-later" });
    expect(await errorOf(send("POST", `/trash/content/${id}/restore`, {}, jars.editor), 409)).toMatch(
      /Another article has the address \/blog\/trash-me-later now/,
    );
    await ok(send("DELETE", `/articles/${other}`, {}, jars.editor));
    await ok(send("POST", `/trash/content/${id}/restore`, {}, jars.editor));
    const back = await get(id);
    expect(back).toMatchObject({
      title: "Trash me",
      slug: "trash-me-later",
      state: "published",
      version: 2,
      oldSlugs: ["trash-me"],
    });
    expect((await versions(id)).map((v) => v.version)).toEqual([2, 1]);
  });
});
