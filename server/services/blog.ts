import { and, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import { articleView, variesByViewer, type ArticleLock, type ArticleViewer } from "#domain/article-access.ts";
import { articleSlug, BLOG_PAGE_SIZE, readingMinutes, type ArticleAccess } from "#domain/articles.ts";
import type { PreviewAs } from "#domain/blog.ts";
import { staffRoleOf } from "#domain/capabilities.ts";
import type { Membership } from "#domain/membership.ts";
import type { PageInfo } from "#domain/pagination.ts";
import type { Db } from "../db/client";
import { articles, articleSlugs } from "../db/schema";
import { pageOf } from "../lib/paging";
import { withDeps } from "../lib/with-deps";
import type { Viewer } from "./accounts";

/**
 * The blog's reads (issue 36, parts 2 and 3): published articles for the public pages, the feed, the sitemap and the
 * public REST calls, and any article for the staff preview. It writes nothing: the articles service is the tables'
 * one writer. What a reader gets of a body is `articleView`'s answer alone (domain/article-access.ts): the shapes this
 * service hands out (`BlogArticle`, `BlogCard`) never carry the stored body, so no page or call can serialise the
 * members-only part by accident.
 */

type ArticleRow = typeof articles.$inferSelect;

/** An article in a list (cards, the feed, related articles): no body at all. */
export interface BlogCard {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  coverImage: string;
  tags: { name: string; slug: string }[];
  authorName: string;
  access: ArticleAccess;
  /** ISO time; null only for an unpublished article drawn by the preview. */
  publishedAt: string | null;
  updatedAt: string;
  readingMinutes: number;
}

/** One article as a given viewer may read it. */
export interface BlogArticle extends BlogCard {
  /** The HTML this viewer may receive (articleView): never the members-only part for one who may not read it. */
  html: string;
  /** Why part of it is held back ("join": buy a membership; "renew": the membership ended), or null. */
  locked: ArticleLock | null;
  seoTitle: string;
  seoDescription: string;
  seoImage: string;
  state: ArticleRow["state"];
  /** Whether another viewer could be given other HTML (the page cache keeps such a page for visitors only). */
  varies: boolean;
}

/** What the sitemap lists of an article. */
export interface SitemapArticle {
  slug: string;
  lastModified: Date;
  coverImage: string;
}

/** A viewer who is no one in particular: a visitor (what the page cache keeps, what the feed and the sitemap show). */
export const VISITOR: ArticleViewer = { staff: false, membership: { state: "none" } };

const published = eq(articles.state, "published");
const newestFirst = [desc(articles.publishedAt), desc(articles.id)];

/** The tags as typed with their address parts (the slugs are stored in the same order). */
const tagsOf = (row: Pick<ArticleRow, "tags" | "tagSlugs">) =>
  row.tags.map((name, i) => ({ name, slug: row.tagSlugs[i] ?? articleSlug(name) }));

function cardOf(row: ArticleRow): BlogCard {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    coverImage: row.coverImage,
    tags: tagsOf(row),
    authorName: row.authorName,
    access: row.access,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    // Of the whole article (what a member reads), so the card says the same to everyone.
    readingMinutes: readingMinutes(row.bodyHtml),
  };
}

/** An article for `viewer`: its body through articleView, the one rule. */
export function articleFor(row: ArticleRow, viewer: ArticleViewer): BlogArticle {
  const { html, locked } = articleView(row, viewer);
  return {
    ...cardOf(row),
    html,
    locked,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    seoImage: row.seoImage,
    state: row.state,
    varies: variesByViewer(row),
  };
}

/** The result of looking an address up: the article, the address it moved to (301), or nothing (404). */
export type SlugLookup = { article: ArticleRow } | { movedTo: string } | null;

/** An article's page as one reader may see it. */
export interface ArticleReading {
  article: BlogArticle;
  related: BlogCard[];
  /**
   * Whether the page may be kept by the page cache and served to every visitor of the reader's page role (decision
   * 025: visitor, customer, admin). Roles do not tell a member from a customer who is not one, nor a lapsed staff
   * member from a current one: so a page whose text differs by viewer is shared only when rendered for a visitor
   * (no session at all, the role the cache proves without one), and then holds only what every visitor may read.
   */
  shared: boolean;
}

/** The preview's readers: a visitor, and a member (an active membership, as a buyer's). */
const PREVIEW_VIEWERS: { readonly [A in PreviewAs]: ArticleViewer } = {
  visitor: VISITOR,
  member: {
    staff: false,
    membership: { state: "active", packageName: "Preview", expiresAt: new Date(8.64e15), daysLeft: 1 },
  },
};

interface BlogServiceDeps {
  db: Db;
  /** The content generation: a publish or unpublish notifies content_changed, which moves it. */
  content: { generation(): number };
  orders: { membership(viewer: Viewer): Promise<Membership> };
}

/** The dependencies, and whether any article is published as last asked (built once by the factory). */
interface Blog extends BlogServiceDeps {
  anyPublished: { generation: number; value: Promise<boolean> } | undefined;
  lastKnown: boolean;
}

async function page({ db }: Blog, where: SQL, requested: unknown, perPage = BLOG_PAGE_SIZE) {
  const { rows, page } = await pageOf(db, articles, { where, orderBy: newestFirst, page: requested, perPage });
  return { articles: rows.map(cardOf), page };
}

/** Who is reading (see `viewer` below). */
async function readerOf({ orders }: Blog, person: Viewer | null): Promise<ArticleViewer> {
  if (!person) return VISITOR;
  if (staffRoleOf(person)) return { staff: true, membership: { state: "none" } };
  return { staff: false, membership: await orders.membership(person) };
}

async function related({ db }: Blog, article: Pick<ArticleRow, "id" | "tagSlugs">, limit = 3): Promise<BlogCard[]> {
  if (!article.tagSlugs.length) return [];
  const rows = await db
    .select()
    .from(articles)
    .where(
      and(
        published,
        ne(articles.id, article.id),
        sql`${articles.tagSlugs} && array[${sql.join(
          article.tagSlugs.map((t) => sql`${t}`),
          sql`, `,
        )}]::text[]`,
      ),
    )
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map(cardOf);
}

async function bySlug({ db }: Blog, slug: string): Promise<SlugLookup> {
  const [row] = await db
    .select()
    .from(articles)
    .where(and(eq(articles.slug, slug), published));
  if (row) return { article: row };
  const [moved] = await db
    .select({ slug: articles.slug })
    .from(articleSlugs)
    .innerJoin(articles, eq(articles.id, articleSlugs.articleId))
    .where(and(eq(articleSlugs.slug, slug), published));
  return moved ? { movedTo: moved.slug } : null;
}

/**
 * A published article's page for `person` (null: signed out): the article as they may read it and its related
 * articles; or where an old address moved to; or null (no such published article).
 */
async function read(
  blog: Blog,
  slug: string,
  person: Viewer | null,
): Promise<ArticleReading | { movedTo: string } | null> {
  const found = await bySlug(blog, slug);
  if (!found || "movedTo" in found) return found;
  const [reader, near] = await Promise.all([readerOf(blog, person), related(blog, found.article)]);
  const article = articleFor(found.article, reader);
  return { article, related: near, shared: !article.varies || person === null };
}

/** Any article (a draft too) as a visitor or a member would read it, for the staff preview; null: no such id. */
async function preview(blog: Blog, id: string, as: PreviewAs): Promise<Omit<ArticleReading, "shared"> | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await blog.db.select().from(articles).where(eq(articles.id, id));
  if (!row) return null;
  return { article: articleFor(row, PREVIEW_VIEWERS[as]), related: await related(blog, row) };
}

/** Published articles, newest first, one page (a page beyond the end is the last). */
function list(
  blog: Blog,
  requested: unknown,
  perPage = BLOG_PAGE_SIZE,
): Promise<{ articles: BlogCard[]; page: PageInfo }> {
  return page(blog, published, requested, perPage);
}

/**
 * Published articles with a tag (by its address part), newest first, one page, and the tag as typed (null when no
 * published article has it: the page answers 404).
 */
async function byTag(blog: Blog, tagSlug: string, requested: unknown, perPage = BLOG_PAGE_SIZE) {
  // Through the GIN index on tag_slugs.
  const found = await page(
    blog,
    and(published, sql`${articles.tagSlugs} @> array[${tagSlug}]::text[]`)!,
    requested,
    perPage,
  );
  const tag = found.articles[0]?.tags.find((t) => t.slug === tagSlug)?.name ?? null;
  return { ...found, tag };
}

/**
 * The feed's articles, newest first, each as a visitor reads it (a split article's public part; a members-only
 * one's nothing: the feed shows its excerpt).
 */
async function feed({ db }: Blog, limit = 20): Promise<BlogArticle[]> {
  const rows = await db
    .select()
    .from(articles)
    .where(published)
    .orderBy(...newestFirst)
    .limit(limit);
  return rows.map((row) => articleFor(row, VISITOR));
}

/** What the sitemap lists: the published articles whose text anyone may read (public and split ones). */
async function sitemap({ db }: Blog): Promise<SitemapArticle[]> {
  const rows = await db
    .select({ slug: articles.slug, updatedAt: articles.updatedAt, coverImage: articles.coverImage })
    .from(articles)
    .where(and(published, ne(articles.access, "members")))
    .orderBy(...newestFirst);
  return rows.map((r) => ({ slug: r.slug, lastModified: r.updatedAt, coverImage: r.coverImage }));
}

/**
 * Whether any article is published (the header's Blog link): asked once per content generation, which publishing
 * and unpublishing move on every instance (content_changed), so a page view costs no query for it.
 */
function hasPublished(blog: Blog): Promise<boolean> {
  const generation = blog.content.generation();
  if (!blog.anyPublished || blog.anyPublished.generation !== generation) {
    const current = {
      generation,
      value: blog.db
        .select({ one: sql<number>`1` })
        .from(articles)
        .where(published)
        .limit(1)
        .then(
          (rows) => (blog.lastKnown = rows.length > 0),
          // The database away: every page keeps its frame (the content snapshot serves the last content read),
          // with the link as last known; asked again next time.
          () => {
            if (blog.anyPublished === current) blog.anyPublished = undefined;
            return blog.lastKnown;
          },
        ),
    };
    blog.anyPublished = current;
  }
  return blog.anyPublished.value;
}

export function createBlogService(deps: BlogServiceDeps) {
  const blog: Blog = { ...deps, anyPublished: undefined, lastKnown: false };
  return {
    read: withDeps(blog, read),
    preview: withDeps(blog, preview),

    /**
     * Who is reading, built once per request: staff acting as staff (not while their second factor is due: decision
     * 059) see everything; anyone else by their membership (one read of their paid orders); a visitor has none.
     */
    viewer: withDeps(blog, readerOf),

    list: withDeps(blog, list),
    byTag: withDeps(blog, byTag),

    /** A published article by its address, or the address it moved to (an old slug: 301), or null. */
    bySlug: withDeps(blog, bySlug),

    /** Up to `limit` published articles sharing a tag with `article`, newest first, itself left out. */
    related: withDeps(blog, related),

    feed: withDeps(blog, feed),
    sitemap: withDeps(blog, sitemap),
    hasPublished: withDeps(blog, hasPublished),
  };
}

export type BlogService = ReturnType<typeof createBlogService>;
