import { asc, eq, sql } from "drizzle-orm";
import { articles, articleSlugs, articleVersions, user } from "#server/db/schema.ts";
import { AppError, isId, notFound } from "#server/lib/errors.ts";
import { audited, type Actor } from "#server/services/activity.ts";
import type { Tx } from "#server/services/jobs.ts";
import { putInTrash, type TrashedRow } from "#server/services/trash.ts";
import { after, locked } from "./context.ts";
import {
  ARTICLE_ENTITY,
  isPublic,
  loggedData,
  NOT_FOUND,
  toRecord,
  versionData,
  type ArticleRecord,
  type ArticlesServiceDeps,
} from "./model.ts";
import { publishOnTime } from "./schedule.ts";

/**
 * Deleted to the trash (decision 039): the article with its versions and earlier addresses, so that a restore
 * brings it back whole; off the site at once.
 */
export async function remove(deps: ArticlesServiceDeps, id: string, actor: Actor): Promise<{ deleted: boolean }> {
  const { db, content, now } = deps;
  if (!isId(id)) throw notFound(NOT_FOUND);
  await after(
    deps,
    audited(db, actor, ARTICLE_ENTITY, async (tx, audit) => {
      const row = await locked(tx, id);
      const versions = await tx
        .select()
        .from(articleVersions)
        .where(eq(articleVersions.articleId, id))
        .orderBy(asc(articleVersions.version));
      const slugs = await tx.select().from(articleSlugs).where(eq(articleSlugs.articleId, id));
      await tx.delete(articles).where(eq(articles.id, id)); // versions and old slugs go with it (cascade)
      await putInTrash(tx, {
        kind: "content",
        entity: ARTICLE_ENTITY,
        recordId: id,
        title: row.title,
        row: {
          // `data`: the fields the log keeps of it (the trash's loggedFields reads a content row's data).
          data: loggedData(versionData(row), row.version),
          article: { ...toRecord(row), tagSlugs: row.tagSlugs },
          versions: versions.map((v) => ({ ...v, savedAt: v.savedAt.toISOString() })),
          slugs: slugs.map((s) => ({ ...s, createdAt: s.createdAt.toISOString() })),
        },
        deletedAt: now(),
        deletedBy: actor,
      });
      await audit.deleted(id, loggedData(versionData(row), row.version));
      if (isPublic(row.state)) await content.changedIn(tx);
    }),
  );
  return { deleted: true };
}

/**
 * The trash's restore of an article (in its transaction): back with its id, fields, state, versions and earlier
 * addresses; refused (409) when another article took its address meanwhile. A scheduled article whose time passed
 * while it was in the trash is published by the next run of the publishing job.
 */
export async function restoreIn(deps: ArticlesServiceDeps, tx: Tx, { recordId, row }: TrashedRow): Promise<void> {
  const a = row.article as ArticleRecord & { tagSlugs: string[] };
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('article-slugs'))`);
  const [taken] = [
    ...(await tx.select({ id: articles.id }).from(articles).where(eq(articles.slug, a.slug))),
    ...(await tx.select({ id: articleSlugs.articleId }).from(articleSlugs).where(eq(articleSlugs.slug, a.slug))),
  ];
  if (taken)
    throw new AppError(
      409,
      `Another article has the address /blog/${a.slug} now: change its address first, then restore this one.`,
    );
  const date = (v: string | null) => (v ? new Date(v) : null);
  const [authorExists] = a.authorId ? await tx.select({ id: user.id }).from(user).where(eq(user.id, a.authorId)) : [];
  await tx.insert(articles).values({
    id: recordId,
    slug: a.slug,
    title: a.title,
    excerpt: a.excerpt,
    coverImage: a.coverImage,
    bodyHtml: a.bodyHtml,
    access: a.access,
    tags: a.tags,
    tagSlugs: a.tagSlugs,
    authorId: authorExists ? a.authorId : null,
    authorName: a.authorName,
    seoTitle: a.seoTitle,
    seoDescription: a.seoDescription,
    seoImage: a.seoImage,
    state: a.state,
    publishAt: date(a.publishAt),
    publishedAt: date(a.publishedAt),
    version: a.version,
    createdAt: new Date(a.createdAt),
    updatedAt: new Date(a.updatedAt),
  });
  const versions = (row.versions ?? []) as (typeof articleVersions.$inferSelect & { savedAt: string })[];
  if (versions.length)
    await tx
      .insert(articleVersions)
      .values(versions.map((v) => ({ ...v, articleId: recordId, savedAt: new Date(v.savedAt) })));
  // Earlier addresses another article has taken since stay that article's.
  const slugs = (row.slugs ?? []) as { slug: string; createdAt: string }[];
  for (const old of slugs) {
    const [now] = await tx.select({ id: articles.id }).from(articles).where(eq(articles.slug, old.slug));
    if (now) continue;
    await tx
      .insert(articleSlugs)
      .values({ slug: old.slug, articleId: recordId, createdAt: new Date(old.createdAt) })
      .onConflictDoNothing();
  }
  if (a.state === "published") await deps.content.changedIn(tx);
  await publishOnTime(deps, tx, { id: recordId, state: a.state, publishAt: date(a.publishAt) });
}
