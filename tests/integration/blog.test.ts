import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PageCache } from "#server/http/page-cache.ts";
import { articles, articleSlugs } from "#server/db/schema.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { builtApp } from "../support/server";
import { CookieJar } from "../support/session";

/**
 * The blog (issue 36, parts 2 and 3), in process with the real build and the page cache on: every page and REST call
 * for every role. What may never happen: a members' text reaching someone who may not read it, by the HTML, the
 * route's `.data`, the REST API, the feed, or a copy the page cache kept for someone else.
 */
let app: TestApp;
/** Renders: every page not answered from the cache passes this middleware, placed right before the pages. */
let rendered = 0;
const jars = {
  visitor: undefined as CookieJar | undefined,
  customer: new CookieJar(), // signed in, never bought anything
  expired: new CookieJar(), // Paid + Delivered, its window over
  member: new CookieJar(), // Paid + Delivered, valid
  editor: new CookieJar(),
  admin: new CookieJar(),
};
type Role = keyof typeof jars;
const ROLES = Object.keys(jars) as Role[];
/** Who may read a members' part: members and staff of every role. */
const READS_ALL: Record<Role, boolean> = {
  visitor: false,
  customer: false,
  expired: false,
  member: true,
  editor: true,
  admin: true,
};
/** The call to action a reader who may not read it gets. */
const LOCK: Partial<Record<Role, "join" | "renew">> = { visitor: "join", customer: "join", expired: "renew" };

const SPLIT_SECRET = "Mix the undercoat one part in four";
const FULL_SECRET = "The supplier list with trade prices";
const DRAFT_TEXT = "Not ready for anyone yet";
const ids: Record<string, string> = {};

async function call(path: string, jar?: CookieJar, init: RequestInit = {}) {
  return app.request(path, { ...init, jar });
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
  for (const [path, body] of [
    [`/api/order/${id}`, { paymentStatus: "Paid" }],
    [`/api/order-status/${id}`, { orderStatus: "Delivered" }],
  ] as const)
    expect((await app.request(path, { method: "PUT", json: body, jar: jars.admin })).status).toBe(200);
  return id;
}

const day = (n: number) => new Date(Date.UTC(2026, 9, 1 + n, 9));

async function insertArticle(values: Partial<typeof articles.$inferInsert> & { slug: string; title: string }) {
  const [row] = await app.db.db
    .insert(articles)
    .values({ state: "published", publishedAt: day(0), authorName: "Ada Lane", ...values })
    .returning({ id: articles.id });
  ids[values.slug] = row!.id;
  return row!.id;
}

beforeAll(async () => {
  const build = await builtApp();
  app = await startTestApp(
    { ADMIN_EMAIL: "blog-owner@example.org", ADMIN_PASSWORD: "owner-pass-1" },
    {
      build,
      beforePages: (_req, _res, next) => {
        rendered++;
        next();
      },
    },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: jars.admin });
  await signUp(app, "reader@example.org", { jar: jars.customer });
  await signUp(app, "lapsed@example.org", { jar: jars.expired });
  await signUp(app, "member@example.org", { jar: jars.member });
  jars.editor = await signUpStaff(app, app.db.pool, "writer@example.org", "Editor");
  await makeMember(jars.member);
  const old = await makeMember(jars.expired);
  await app.db.pool.query("update orders set membership_valid = now() - interval '1 day' where id = $1", [old]);

  await insertArticle({
    slug: "open-plan-light",
    title: "Open-plan light",
    excerpt: "How light moves through an open plan.",
    bodyHtml: "<h2>Windows</h2><p>Everyone may read this whole article.</p>",
    access: "public",
    tags: ["Light", "Open plan"],
    tagSlugs: ["light", "open-plan"],
    publishedAt: day(20),
  });
  await insertArticle({
    slug: "paint-secrets",
    title: "Paint secrets",
    excerpt: "What the trade knows about paint.",
    bodyHtml: `<p>The public part about primers.</p><hr data-members-only /><p>${SPLIT_SECRET}.</p>`,
    access: "split",
    tags: ["Paint", "Light"],
    tagSlugs: ["paint", "light"],
    publishedAt: day(19),
    seoTitle: "Paint secrets the trade keeps | Studio",
    seoDescription: "The primers, undercoats and finishes the trade uses.",
  });
  await insertArticle({
    slug: "supplier-guide",
    title: "Supplier guide",
    excerpt: "Our suppliers, for members.",
    bodyHtml: `<p>${FULL_SECRET}.</p>`,
    access: "members",
    tags: ["Suppliers"],
    tagSlugs: ["suppliers"],
    publishedAt: day(18),
  });
  await insertArticle({
    slug: "draft-one",
    title: "Draft one",
    bodyHtml: `<p>${DRAFT_TEXT}.</p><hr data-members-only /><p>${SPLIT_SECRET} (draft).</p>`,
    access: "split",
    state: "draft",
    publishedAt: null,
    tags: ["Light"],
    tagSlugs: ["light"],
  });
  // Older articles, enough for a second page of /blog.
  for (let i = 1; i <= 9; i++)
    await insertArticle({
      slug: `archive-${i}`,
      title: `Archive note ${i}`,
      bodyHtml: "<p>An older note.</p>",
      tags: ["Archive"],
      tagSlugs: ["archive"],
      publishedAt: day(i),
    });
  await app.db.db.insert(articleSlugs).values({ slug: "paint-tips", articleId: ids["paint-secrets"]! });
  // What the articles service does on publishing: tells every instance that content changed.
  app.services.content.invalidate();
}, 240_000);
afterAll(() => app?.close());

describe("who may read an article, by every way it is served", () => {
  for (const role of ROLES) {
    it(`${role}: the split article's members' part ${READS_ALL[role] ? "is" : "is not"} sent, by HTML, .data and REST`, async () => {
      const jar = jars[role];
      const html = await (await call("/blog/paint-secrets", jar)).text();
      const page = await call("/blog/paint-secrets.data", jar);
      expect(page.status).toBe(200);
      const dataText = await page.text();
      const rest = await call("/api/blog/paint-secrets", jar);
      expect(rest.status).toBe(200);
      const json = (await rest.json()) as { html: string; locked: string | null; bodyHtml?: string };
      expect(json.bodyHtml).toBeUndefined();
      for (const [channel, text] of [
        ["HTML", html],
        [".data", dataText],
        ["REST", JSON.stringify(json)],
      ]) {
        expect(text, channel).toContain("The public part about primers");
        if (READS_ALL[role]) expect(text, channel).toContain(SPLIT_SECRET);
        else expect(text, channel).not.toContain(SPLIT_SECRET);
        // The marker itself says nothing, but the part after it is members'.
        if (!READS_ALL[role]) expect(text, channel).not.toContain("data-members-only");
      }
      expect(json.locked).toBe(LOCK[role] ?? null);
      if (LOCK[role]) {
        expect(html).toContain(`data-lock="${LOCK[role]}"`);
        expect(html).toMatch(/class="article-locked[^"]*"[^>]*>[\s\S]*?href="\/pricing"/);
      } else expect(html).not.toContain('data-testid="article-locked"');
    });

    it(`${role}: the members-only article ${READS_ALL[role] ? "is read whole" : "shows its excerpt and the call to action"}`, async () => {
      const jar = jars[role];
      const res = await call("/blog/supplier-guide", jar);
      expect(res.status).toBe(200);
      const html = await res.text();
      const dataText = await (await call("/blog/supplier-guide.data", jar)).text();
      const json = JSON.stringify(await (await call("/api/blog/supplier-guide", jar)).json());
      expect(html).toContain("Our suppliers, for members.");
      for (const text of [html, dataText, json]) {
        if (READS_ALL[role]) expect(text).toContain(FULL_SECRET);
        else expect(text).not.toContain(FULL_SECRET);
      }
      if (!READS_ALL[role]) {
        expect(html).not.toContain('data-testid="article-body"');
        expect(html).toContain(LOCK[role] === "renew" ? "Renew" : "See the plans");
      }
    });

    it(`${role}: a draft is no public page and no REST answer; a public article is whole`, async () => {
      const jar = jars[role];
      for (const path of ["/blog/draft-one", "/blog/no-such-article"]) {
        const res = await call(path, jar);
        expect(res.status, path).toBe(404);
        expect(await res.text()).not.toContain(DRAFT_TEXT);
        expect((await call(`/api${path}`, jar)).status, path).toBe(404);
      }
      const open = await (await call("/blog/open-plan-light", jar)).text();
      expect(open).toContain("Everyone may read this whole article.");
      expect(open).not.toContain('data-testid="article-locked"');
    });
  }
});

describe("the public pages", () => {
  it("/blog lists the published articles newest first, ten to a page, and the header links to it", async () => {
    const res = await call("/blog");
    expect(res.status).toBe(200);
    const html = await res.text();
    const titles = [...html.matchAll(/<h2[^>]*><a [^>]*href="\/blog\/([\w-]+)"/g)].map((m) => m[1]);
    expect(titles).toEqual([
      "open-plan-light",
      "paint-secrets",
      "supplier-guide",
      ...[9, 8, 7, 6, 5, 4, 3].map((i) => `archive-${i}`),
    ]);
    expect(html).not.toContain("draft-one");
    expect(html).not.toContain(SPLIT_SECRET);
    expect(html).not.toContain(FULL_SECRET);
    expect(html).toContain('href="/blog?page=2"');
    expect(html).toMatch(/<nav aria-label="Main"[\s\S]*?href="\/blog"[^>]*>Blog</);
    const second = await (await call("/blog?page=2")).text();
    expect([...second.matchAll(/<h2[^>]*><a [^>]*href="\/blog\/([\w-]+)"/g)].map((m) => m[1])).toEqual([
      "archive-2",
      "archive-1",
    ]);
    for (const bad of ["/blog?page=3", "/blog?page=0", "/blog?page=x", "/blog?page=1.5"])
      expect((await call(bad)).status, bad).toBe(404);
    const first = await call("/blog?page=1");
    expect(first.status).toBe(301);
    expect(first.headers.get("location")).toBe("/blog");
  });

  it("/blog/tag/{slug} lists that tag's published articles; an unknown tag is 404", async () => {
    const html = await (await call("/blog/tag/light")).text();
    expect([...html.matchAll(/<h2[^>]*><a [^>]*href="\/blog\/([\w-]+)"/g)].map((m) => m[1])).toEqual([
      "open-plan-light",
      "paint-secrets",
    ]);
    expect(html).toContain("Articles about Light");
    expect(html).toMatch(
      /aria-label="Breadcrumb"[\s\S]*?href="\/blog"[^>]*>Blog<[\s\S]*?aria-current="page"[^>]*>Articles about Light</,
    );
    expect((await call("/blog/tag/nothing-here")).status).toBe(404);
  });

  it("an old address answers 301 to the article's address, by page and by REST", async () => {
    const page = await call("/blog/paint-tips");
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toBe("/blog/paint-secrets");
    const rest = await call("/api/blog/paint-tips");
    expect(rest.status).toBe(301);
    expect(rest.headers.get("location")).toBe("/api/blog/paint-secrets");
  });

  it("an article has its title, author, date, reading time, search listing, canonical and BlogPosting", async () => {
    const html = await (await call("/blog/paint-secrets")).text();
    expect(html).toMatch(/<h1[^>]*>Paint secrets<\/h1>/);
    expect(html).toContain("By Ada Lane");
    expect(html).toContain("1 min read");
    expect(html).toContain("<title>Paint secrets the trade keeps | Studio</title>");
    expect(html).toContain('content="The primers, undercoats and finishes the trade uses."');
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/blog\/paint-secrets"/);
    expect(html).toContain('<meta property="og:type" content="article"/>');
    const ld = JSON.parse(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html)![1]!) as {
      "@type": string;
      headline: string;
      isAccessibleForFree?: boolean;
      author: { name: string };
    };
    expect(ld).toMatchObject({ "@type": "BlogPosting", headline: "Paint secrets", isAccessibleForFree: false });
    expect(ld.author.name).toBe("Ada Lane");
    // Related by tag: the other "Light" article, never itself nor the draft.
    const related = html.slice(html.indexOf("Related articles"));
    expect(related).toContain('href="/blog/open-plan-light"');
    expect(related).not.toContain('href="/blog/paint-secrets"');
    expect(related).not.toContain("draft-one");
  });

  it("the REST list is paged and by tag, with no body in it", async () => {
    const res = await call("/api/blog?limit=2&page=2");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("12");
    expect(res.headers.get("x-pages")).toBe("6");
    const rows = (await res.json()) as { slug: string; html?: string }[];
    expect(rows.map((r) => r.slug)).toEqual(["supplier-guide", "archive-9"]);
    expect(rows[0]!.html).toBeUndefined();
    const tagged = (await (await call("/api/blog?tag=paint")).json()) as { slug: string }[];
    expect(tagged.map((r) => r.slug)).toEqual(["paint-secrets"]);
  });
});

describe("the header's Blog link", () => {
  it("is there only while an article is published, and follows a change at once", async () => {
    const blogLink = async () =>
      /<nav aria-label="Main"[\s\S]*?href="\/blog"[^>]*>Blog</.test(await (await call("/")).text());
    expect(await blogLink()).toBe(true);
    const { rows } = await app.db.pool.query<{ id: string }>(
      "update articles set state = 'unpublished' where state = 'published' returning id",
    );
    try {
      // What the articles service does on unpublishing: tells every instance that content changed.
      app.services.content.invalidate();
      expect(await blogLink()).toBe(false);
      expect(await (await call("/sitemap.xml")).text()).not.toContain("/blog");
    } finally {
      await app.db.pool.query("update articles set state = 'published' where id = any($1)", [rows.map((r) => r.id)]);
      app.services.content.invalidate();
    }
    expect(await blogLink()).toBe(true);
  });
});

describe("the feed and the sitemap", () => {
  it("/blog/rss.xml: published articles as a visitor reads them, with absolute links", async () => {
    const res = await call("/blog/rss.xml", jars.member);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/rss+xml");
    const xml = await res.text();
    expect(xml).toContain('<rss version="2.0"');
    const base = app.config.publicUrl;
    expect(xml).toContain(`<link>${base}/blog/paint-secrets</link>`);
    expect(xml).toContain("The public part about primers");
    expect(xml).toContain("Our suppliers, for members.");
    expect(xml).not.toContain(SPLIT_SECRET);
    expect(xml).not.toContain(FULL_SECRET);
    expect(xml).not.toContain("draft-one");
  });

  it("/sitemap.xml lists /blog and the articles anyone may read, with their dates", async () => {
    const xml = await (await call("/sitemap.xml")).text();
    const base = app.config.publicUrl;
    expect(xml).toContain(`<loc>${base}/blog</loc>`);
    expect(xml).toMatch(new RegExp(`<loc>${base}/blog/paint-secrets</loc><lastmod>\\d{4}-\\d{2}-\\d{2}`));
    expect(xml).toContain(`<loc>${base}/blog/open-plan-light</loc>`);
    expect(xml).not.toContain("supplier-guide");
    expect(xml).not.toContain("draft-one");
  });
});

describe("the staff preview", () => {
  it("is for staff who edit content: a visitor signs in, customers and members are refused", async () => {
    const path = `/blog/preview/${ids["draft-one"]}?as=member`;
    const visitor = await call(path);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login/);
    for (const role of ["customer", "member", "expired"] as const) {
      const res = await call(path, jars[role]);
      expect(res.status, role).toBe(403);
      expect(await res.text()).not.toContain(DRAFT_TEXT);
    }
  });

  for (const role of ["editor", "admin"] as const) {
    it(`${role}: draws a draft as a visitor or a member would read it, never cached or indexed`, async () => {
      const asVisitor = await call(`/blog/preview/${ids["draft-one"]}?as=visitor`, jars[role]);
      expect(asVisitor.status).toBe(200);
      expect(asVisitor.headers.get("cache-control")).toBe("private, no-store");
      expect(asVisitor.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      const html = await asVisitor.text();
      expect(html).toContain(DRAFT_TEXT);
      expect(html).not.toContain(SPLIT_SECRET);
      expect(html).toContain('data-lock="join"');
      expect(html).toContain("Preview — not published");
      expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
      const asMember = await (await call(`/blog/preview/${ids["draft-one"]}?as=member`, jars[role])).text();
      expect(asMember).toContain(`${SPLIT_SECRET} (draft)`);
      expect(asMember).not.toContain('data-testid="article-locked"');
      expect((await call("/blog/preview/not-an-id", jars[role])).status).toBe(404);
    });
  }
});

describe("the page cache with articles", () => {
  const cacheSize = () => (app.express.locals.pageCache as PageCache).size;

  it("serves a public article and the lists from the cache, before any middleware, as the landing page", async () => {
    app.services.content.invalidate();
    for (const path of ["/blog/open-plan-light", "/blog", "/blog?page=2", "/blog/tag/light"]) {
      expect((await call(path)).headers.get("x-cache"), path).toBe("MISS");
      const before = rendered;
      const hit = await call(path);
      expect(hit.headers.get("x-cache"), path).toBe("HIT");
      expect(rendered, `${path}: a hit renders nothing`).toBe(before);
    }
    // A public article is the same for every customer: their role's copy, members or not.
    await call("/blog/open-plan-light", jars.member);
    for (const role of ["member", "customer", "expired"] as const) {
      const res = await call("/blog/open-plan-light", jars[role]);
      expect(res.headers.get("x-cache"), role).toBe("HIT");
    }
  });

  it("a member's view first, then a visitor's: the visitor gets no members' text", async () => {
    app.services.content.invalidate();
    const member = await call("/blog/paint-secrets", jars.member);
    expect(await member.text()).toContain(SPLIT_SECRET);
    expect(member.headers.get("cache-control")).toBe("private, no-store");
    const size = cacheSize();
    for (let i = 0; i < 2; i++) {
      const visitor = await call("/blog/paint-secrets");
      expect(await visitor.text()).not.toContain(SPLIT_SECRET);
    }
    // The visitor's copy is kept, and only it.
    const cache = app.express.locals.pageCache as PageCache;
    expect(cache.fresh("visitor /blog/paint-secrets")).toBeDefined();
    expect(cache.fresh("customer /blog/paint-secrets")).toBeUndefined();
    expect(cacheSize()).toBeLessThanOrEqual(size + 1);
    expect((await call("/blog/paint-secrets")).headers.get("x-cache")).toBe("HIT");
    // A customer without a membership and a lapsed member are rendered for themselves, never served a member's copy.
    for (const role of ["customer", "expired"] as const) {
      await call("/blog/paint-secrets", jars.member);
      const res = await call("/blog/paint-secrets", jars[role]);
      expect(res.headers.get("x-cache"), role).not.toBe("HIT");
      expect(await res.text(), role).not.toContain(SPLIT_SECRET);
    }
  });

  it("a visitor's view first, then a member's: the member gets the whole article, never the visitor's copy", async () => {
    app.services.content.invalidate();
    expect((await call("/blog/supplier-guide")).headers.get("x-cache")).toBe("MISS");
    expect((await call("/blog/supplier-guide")).headers.get("x-cache")).toBe("HIT");
    for (let i = 0; i < 2; i++) {
      const res = await call("/blog/supplier-guide", jars.member);
      expect(res.headers.get("x-cache")).not.toBe("HIT");
      expect(await res.text()).toContain(FULL_SECRET);
    }
    for (const role of ["editor", "admin"] as const)
      expect(await (await call("/blog/supplier-guide", jars[role])).text(), role).toContain(FULL_SECRET);
    // And the visitors' copy is still the visitors'.
    expect(await (await call("/blog/supplier-guide")).text()).not.toContain(FULL_SECRET);
  });

  it("an article that gains a members' part, or moves, leaves no old copy to be served while the database is away", async () => {
    const cache = app.express.locals.pageCache as PageCache;
    const id = await insertArticle({
      slug: "shade-notes",
      title: "Shade notes",
      bodyHtml: "<p>All of it, for now.</p>",
      access: "public",
    });
    app.services.content.invalidate();
    await call("/blog/shade-notes", jars.customer);
    await call("/blog/shade-notes");
    expect(cache.fresh("customer /blog/shade-notes")).toBeDefined();
    expect(cache.fresh("visitor /blog/shade-notes")).toBeDefined();

    // Split: the customers' copy (all of it) is dropped by their next render, stale copy and all.
    await app.db.pool.query("update articles set access = 'split', body_html = $2 where id = $1", [
      id,
      `<p>Open.</p><hr data-members-only /><p>${FULL_SECRET} (shade).</p>`,
    ]);
    app.services.content.invalidate();
    expect(await (await call("/blog/shade-notes", jars.customer)).text()).not.toContain(FULL_SECRET);
    expect(cache.stale("customer /blog/shade-notes")).toBeUndefined();

    // Moved: its old address redirects, and the visitors' copy of it goes.
    await app.db.pool.query("update articles set slug = 'shade-notes-2' where id = $1", [id]);
    await app.db.db.insert(articleSlugs).values({ slug: "shade-notes", articleId: id });
    app.services.content.invalidate();
    expect((await call("/blog/shade-notes")).status).toBe(301);
    expect(cache.stale("visitor /blog/shade-notes")).toBeUndefined();
  });
});
