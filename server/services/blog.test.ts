import { describe, expect, it } from "vitest";
import type { articles } from "../db/schema";
import { articleFor, createBlogService, VISITOR } from "./blog";

const row = (over: Partial<typeof articles.$inferSelect> = {}): typeof articles.$inferSelect => ({
  id: "7d0e4f0a-1111-4a4a-8a8a-000000000001",
  slug: "paint",
  title: "Paint",
  excerpt: "About paint.",
  coverImage: "",
  bodyHtml: "<p>Open part.</p><hr data-members-only /><p>Members' part.</p>",
  access: "split",
  tags: ["Paint", "Light"],
  tagSlugs: ["paint", "light"],
  authorId: null,
  authorName: "Ada Lane",
  seoTitle: "",
  seoDescription: "",
  seoImage: "",
  state: "published",
  publishAt: null,
  publishedAt: new Date("2026-11-01T10:00:00Z"),
  version: 1,
  createdAt: new Date("2026-10-01T10:00:00Z"),
  updatedAt: new Date("2026-11-02T10:00:00Z"),
  ...over,
});
const MEMBER = {
  staff: false,
  membership: { state: "active", packageName: "Basic", expiresAt: new Date(8.64e15), daysLeft: 9 },
} as const;

describe("articleFor", () => {
  it("gives a visitor articleView's part only, and never the stored body under any name", () => {
    const article = articleFor(row(), VISITOR);
    expect(article.html).toBe("<p>Open part.</p>");
    expect(article.locked).toBe("join");
    expect(article.varies).toBe(true);
    expect(JSON.stringify(article)).not.toContain("Members' part");
    expect(article).not.toHaveProperty("bodyHtml");
  });

  it("gives a member the whole body; a public article is the same for everyone", () => {
    expect(articleFor(row(), MEMBER).html).toContain("Members' part");
    const open = articleFor(row({ access: "public", bodyHtml: "<p>All.</p>" }), VISITOR);
    expect(open).toMatchObject({ html: "<p>All.</p>", locked: null, varies: false });
  });

  it("pairs each tag with its slug and dates as ISO strings", () => {
    const article = articleFor(row(), VISITOR);
    expect(article.tags).toEqual([
      { name: "Paint", slug: "paint" },
      { name: "Light", slug: "light" },
    ]);
    expect(article.publishedAt).toBe("2026-11-01T10:00:00.000Z");
    expect(article.readingMinutes).toBe(1);
  });
});

describe("hasPublished", () => {
  /** A stand-in for the one query it makes (select … limit 1): answers as `answer` says, counting the calls. */
  function service(answer: () => Promise<unknown[]>) {
    let generation = 1;
    const calls = { n: 0 };
    const query = { from: () => query, where: () => query, limit: () => (calls.n++, answer()) };
    const blog = createBlogService({
      db: { select: () => query } as never,
      content: { generation: () => generation },
      orders: { membership: () => Promise.reject(new Error("not asked")) },
    });
    return { blog, calls, change: () => generation++ };
  }

  it("asks once per content generation", async () => {
    let rows: unknown[] = [];
    const { blog, calls, change } = service(() => Promise.resolve(rows));
    expect(await blog.hasPublished()).toBe(false);
    rows = [{ one: 1 }];
    expect(await blog.hasPublished()).toBe(false);
    expect(calls.n).toBe(1);
    change();
    expect(await blog.hasPublished()).toBe(true);
    expect(calls.n).toBe(2);
  });

  it("with the database away, answers as last known and asks again next time", async () => {
    let down = false;
    const { blog, calls, change } = service(() =>
      down ? Promise.reject(new Error("connection refused")) : Promise.resolve([{ one: 1 }]),
    );
    expect(await blog.hasPublished()).toBe(true);
    down = true;
    change();
    expect(await blog.hasPublished()).toBe(true);
    expect(await blog.hasPublished()).toBe(true);
    expect(calls.n).toBe(3);
  });
});
