import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAIN_PAGE_SCRIPT } from "#app/lib/plain-page-script.ts";
import type { PageCache } from "#server/http/page-cache.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { builtApp } from "../support/server";
import { until } from "../support/wait";

/**
 * The page cache's mechanisms (decisions 007 and 025), in process with the real build: hits answered before every
 * middleware with the headers a miss sends, query strings that share an entry, 304 and HEAD, and signed-in visitors
 * served their role's copy without a database round trip and without anyone else's data.
 */
let app: TestApp;
/** Calls of a middleware placed right before the pages: every render passes it, no hit may. */
let passed = 0;
const spy: RequestHandler = (_req, _res, next) => {
  passed++;
  next();
};

beforeAll(async () => {
  const build = await builtApp();
  app = await startTestApp(
    { ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-1" },
    {
      build,
      beforePages: spy,
    },
  );
  await app.services.accounts.ensureFirstAdmin();
}, 180_000);
afterAll(() => app?.close());

const get = (p: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(app.url + p, { headers, method, redirect: "manual" });
/** Headers as a plain object, without those that differ by nature between two answers (each has its own id). */
const headersOf = (res: Response) => {
  const out = Object.fromEntries(res.headers);
  expect(out["x-request-id"]).toMatch(/^[\w-]+$/);
  delete out["date"];
  delete out["x-cache"];
  delete out["x-request-id"];
  return out;
};
/** The header's account links (Login; Dashboard; Dashboard and Admin). */
const accountLinks = (html: string) =>
  [...(/data-testid="header-account"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? "").matchAll(/href="([^"]+)"/g)]
    .map((m) => m[1])
    .join(" ");
const cacheSize = () => (app.express.locals.pageCache as PageCache).size;

describe("anonymous hits", () => {
  it("are answered before any middleware, with the very headers and bytes of the miss", async () => {
    for (const encoding of ["identity", "gzip", "gzip, deflate, br"]) {
      await app.services.content.invalidate();
      const before = passed;
      const miss = await get("/pricing", { "accept-encoding": encoding });
      expect(miss.headers.get("x-cache")).toBe("MISS");
      expect(passed).toBe(before + 1);
      const hit = await get("/pricing", { "accept-encoding": encoding });
      expect(hit.headers.get("x-cache")).toBe("HIT");
      expect(passed, "a hit passes no middleware").toBe(before + 1);
      expect(headersOf(hit)).toEqual(headersOf(miss));
      expect(await hit.text()).toBe(await miss.text());
    }
  });

  it("carry the security headers, the page's CSP, an ETag and the encoding variants' lengths", async () => {
    await get("/");
    const res = await get("/", { "accept-encoding": "br" });
    expect(res.headers.get("x-cache")).toBe("HIT");
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
    // The policy stored with the page: a public page is plain HTML whose one inline script is the small plain-page
    // script (decisions 027, 051): the site's own files and that script's hash only.
    const hash = createHash("sha256").update(PLAIN_PAGE_SCRIPT).digest("base64");
    expect(res.headers.get("content-security-policy")).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(res.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("etag")).toMatch(/^W\/"[\w-]+"$/);
    expect(res.headers.get("x-page-cache")).toBeNull();
  });

  it("answer 304 to If-None-Match and HEAD with the headers only", async () => {
    const page = await get("/service/");
    const etag = page.headers.get("etag")!;
    const before = passed;
    const again = await get("/service/", { "if-none-match": `"other", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    expect((await get("/service/", { "if-none-match": '"other"' })).status).toBe(200);
    const head = await get("/service/", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("x-cache")).toBe("HIT");
    expect(head.headers.get("content-length")).toBe(page.headers.get("content-length"));
    expect(await head.text()).toBe("");
    expect(passed).toBe(before);
  });
});

describe("a burst of views after a change", () => {
  it("costs one render: the others wait for it and get its copy", async () => {
    await get("/contact-us");
    // The content is locked, so that the render waits for it while every view arrives.
    const lock = await app.db.pool.connect();
    await lock.query("begin; lock table content_entries in access exclusive mode");
    await app.services.content.invalidate();
    let arrived = 0;
    const count = () => arrived++;
    app.server.on("request", count);
    const views = Array.from({ length: 20 }, () => get("/contact-us"));
    // Every view has arrived, and the render is waiting on the lock.
    await until("twenty views arrived", () => arrived === 20);
    await until("the render waiting on the lock", async () => {
      const { rows } = await app.db.pool.query(
        "select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%content_entries%'",
      );
      return rows.length > 0;
    });
    app.server.off("request", count);
    await lock.query("commit");
    lock.release();
    const answers = await Promise.all(views);
    const outcomes = answers.map((r) => r.headers.get("x-cache")).sort();
    expect(outcomes).toEqual([...Array<string>(19).fill("HIT"), "MISS"]);
    expect(new Set(answers.map((r) => r.headers.get("etag"))).size).toBe(1);
  });
});

describe("query strings", () => {
  it("that a page does not read share its entry, and random ones neither bypass nor grow the cache", async () => {
    const plain = await get("/contact");
    await get("/contact");
    const before = passed;
    const size = cacheSize();
    for (const q of ["utm_source=news&utm_medium=mail", "fbclid=abc", "gclid=1&x=2", "contact=1&contact=2"]) {
      const res = await get(`/contact?${q}`);
      expect(res.headers.get("x-cache")).toBe("HIT");
      expect(res.headers.get("etag")).toBe(plain.headers.get("etag"));
    }
    for (let i = 0; i < 300; i++) {
      const res = await get(`/contact?r${Math.random().toString(36).slice(2)}=${i}`);
      expect(res.headers.get("x-cache")).toBe("HIT");
    }
    expect(passed, "no render for a query string").toBe(before);
    expect(cacheSize()).toBe(size);
  });

  it("before a page said what it reads: rendered, not stored under the address with the query string", async () => {
    await app.services.content.invalidate();
    const first = await get("/thanks?utm_campaign=1");
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect((await get("/thanks?utm_campaign=1")).headers.get("x-cache")).toBe("MISS"); // rendered as /thanks, stored
    expect((await get("/thanks")).headers.get("x-cache")).toBe("HIT");
  });
});

describe("signed-in visitors on public pages", () => {
  it("get their role's copy: the same HTML for every customer, with nobody's data in it", async () => {
    const ana = await signUp(app, "ana.page@example.org", { password: "secret-pass-1", name: "Ana Pagecache" });
    const ben = await signUp(app, "ben.page@example.org", { password: "secret-pass-1", name: "Ben Pagecache" });
    await app.services.content.invalidate();
    const first = await app.request("/", { jar: ana });
    expect(first.headers.get("x-cache")).toBe("MISS");
    expect(first.headers.getSetCookie().some((c) => c.startsWith("atelier.role=customer."))).toBe(true);
    const anaHtml = await first.text();
    expect(accountLinks(anaHtml)).toBe("/dashboard /account");

    // Ben: the first time his role is looked up (and a role cookie set), then proved by it, before any middleware.
    expect((await app.request("/", { jar: ben })).headers.get("x-cache")).toBe("HIT");
    const before = passed;
    const hit = await app.request("/", { jar: ben });
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(passed, "a signed-in hit passes no middleware").toBe(before);
    const benHtml = await hit.text();
    expect(benHtml).toBe(anaHtml);
    for (const other of [
      "ana.page@example.org",
      "Ana Pagecache",
      (await app.services.accounts.userByEmail("ana.page@example.org"))!.id,
    ])
      expect(benHtml).not.toContain(other);

    // The cached copy is what a fresh render for Ben is (an Authorization header bypasses the cache).
    const fresh = await app.request("/", { jar: ben, headers: { authorization: "none" } });
    expect(fresh.headers.get("x-cache")).toBe("BYPASS");
    expect(await fresh.text()).toBe(benHtml);

    expect(accountLinks(await (await get("/")).text())).toBe("/login");
  });

  it("an administrator gets the admin copy; a role cookie never outlives its session cookie", async () => {
    const owner = await signInAsAdmin(app);
    const html = await (await app.request("/pricing", { jar: owner })).text();
    expect(accountLinks(html)).toBe("/dashboard /admin /account");
    const cookies = owner.header();
    expect(cookies).toMatch(/atelier\.role=admin\./);

    // Signed out (the session cookie gone), the role cookie left behind: the visitor's copy.
    const roleOnly = cookies
      .split("; ")
      .filter((c) => c.startsWith("atelier.role="))
      .join("; ");
    const signedOut = await get("/pricing", { cookie: roleOnly });
    expect(accountLinks(await signedOut.text())).toBe("/login");

    // A role cookie moved to another session is not believed: that session's own role is looked up.
    const customer = await signUp(app, "carl.page@example.org", { password: "secret-pass-1", name: "Carl Pagecache" });
    const session = customer
      .header()
      .split("; ")
      .find((c) => c.includes("session_token"))!;
    const moved = await get("/pricing", { cookie: `${session}; ${roleOnly}` });
    const movedHtml = await moved.text();
    expect(accountLinks(movedHtml)).toBe("/dashboard /account");
    expect(moved.headers.getSetCookie().some((c) => c.startsWith("atelier.role=customer."))).toBe(true);
  });
});
