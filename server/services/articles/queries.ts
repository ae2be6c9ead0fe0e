import { asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { ARTICLE_STATES, type ArticleState } from "#domain/articles.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { adminUsers, articles, articleSlugs, articleVersions, user } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import { pageOf } from "#server/lib/paging.ts";
import {
  fail,
  iso,
  NOT_FOUND,
  toRecord,
  type ArticleListRow,
  type ArticleRecord,
  type ArticlesServiceDeps,
  type ArticleVersion,
  type StaffAuthor,
} from "./model.ts";

async function oldSlugsOf({ db }: ArticlesServiceDeps, id: string): Promise<string[]> {
  const rows = await db
    .select({ slug: articleSlugs.slug })
    .from(articleSlugs)
    .where(eq(articleSlugs.articleId, id))
    .orderBy(desc(articleSlugs.createdAt));
  return rows.map((r) => r.slug);
}

/** The back office's list: last changed first, one page counted and cut in SQL, optionally of one state. */
export async function list(
  { db }: ArticlesServiceDeps,
  {
    page,
    perPage,
    state,
  }: {
    page: unknown;
    perPage: number;
    state?: unknown;
  },
): Promise<{ articles: ArticleListRow[]; page: PageInfo }> {
  let where: SQL | undefined;
  if (state !== undefined && state !== "") {
    if (!(ARTICLE_STATES as readonly unknown[]).includes(state))
      throw fail("state", `Choose a state among ${ARTICLE_STATES.join(", ")}.`);
    where = eq(articles.state, state as ArticleState);
  }
  const { rows, page: info } = await pageOf(db, articles, {
    where,
    orderBy: [desc(articles.updatedAt), desc(articles.id)],
    page,
    perPage,
  });
  return {
    articles: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      state: r.state,
      access: r.access,
      tags: r.tags,
      authorName: r.authorName,
      publishAt: iso(r.publishAt),
      publishedAt: iso(r.publishedAt),
      updatedAt: r.updatedAt.toISOString(),
    })),
    page: info,
  };
}

/** One article, whole, with its earlier addresses. */
export async function get(deps: ArticlesServiceDeps, id: string): Promise<ArticleRecord> {
  if (!isId(id)) throw notFound(NOT_FOUND);
  const [row] = await deps.db.select().from(articles).where(eq(articles.id, id));
  if (!row) throw notFound(NOT_FOUND);
  return toRecord(row, await oldSlugsOf(deps, id));
}

/** The staff who may be named as author (the admin list's people with an account), by name. */
export async function authors({ db }: ArticlesServiceDeps): Promise<StaffAuthor[]> {
  const rows = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .innerJoin(adminUsers, sql`lower(${adminUsers.userEmail}) = lower(${user.email})`)
    .orderBy(asc(user.name), asc(user.email));
  return rows.map((r) => ({ id: r.id, name: r.name.trim() || r.email }));
}

/** The history: every version, newest first (number, when, who, its title then). */
export async function versions({ db }: ArticlesServiceDeps, id: string): Promise<ArticleVersion[]> {
  if (!isId(id)) throw notFound(NOT_FOUND);
  const [found] = await db.select({ id: articles.id }).from(articles).where(eq(articles.id, id));
  if (!found) throw notFound(NOT_FOUND);
  const rows = await db
    .select({
      version: articleVersions.version,
      savedAt: articleVersions.savedAt,
      savedBy: articleVersions.savedBy,
      title: sql<string>`${articleVersions.data} ->> 'title'`,
    })
    .from(articleVersions)
    .where(eq(articleVersions.articleId, id))
    .orderBy(desc(articleVersions.version));
  return rows.map((r) => ({ ...r, savedAt: r.savedAt.toISOString(), title: r.title ?? "" }));
}

/** Whether there is no article at all (the demo articles go only into an empty database). */
export async function isEmpty({ db }: ArticlesServiceDeps): Promise<boolean> {
  return (await db.select({ id: articles.id }).from(articles).limit(1)).length === 0;
}
