import { and, eq } from "drizzle-orm";
import { articleStateSchema, type ArticleInput } from "#domain/article-edits.ts";
import { articleSlug, type ArticleAccess, type ArticleState } from "#domain/articles.ts";
import { parseWith } from "#domain/validation.ts";
import { articles, articleVersions, user } from "#server/db/schema.ts";
import { cleanHtml } from "#server/lib/clean-html.ts";
import { badRequest, isId, notFound } from "#server/lib/errors.ts";
import { audited, type Actor } from "#server/services/activity.ts";
import { after, locked, recordVersion, save } from "./context.ts";
import { applyTransition, authorOf, checkImages, claimSlug, parseInput } from "./input.ts";
import { ARTICLE_ENTITY, NOT_FOUND, type ArticlesServiceDeps } from "./model.ts";
import { publishOnTime } from "./schedule.ts";

/** The form's fields as an article stores them: its address, its cleaned body and its byline as decided. */
const stored = (
  fields: ArticleInput,
  slug: string,
  bodyHtml: string,
  author: { authorId: string | null; authorName: string },
) => ({
  slug,
  title: fields.title,
  excerpt: fields.excerpt,
  coverImage: fields.coverImage,
  bodyHtml,
  access: fields.access,
  tags: fields.tags,
  ...author,
  seoTitle: fields.seoTitle,
  seoDescription: fields.seoDescription,
  seoImage: fields.seoImage,
});

/** A new article (version 1), a draft unless the input's intent says otherwise; its author is its writer by default. */
export async function create(
  deps: ArticlesServiceDeps,
  input: unknown,
  actor: Actor,
  { byline }: { byline?: string } = {},
): Promise<{ id: string; slug: string }> {
  const parsed = parseInput(input, true);
  const { input: fields, bodyHtml } = parsed;
  const slug = parsed.slug!;
  const times = applyTransition(deps, null, fields.intent, fields.publishAt);
  return after(
    deps,
    audited(deps.db, actor, ARTICLE_ENTITY, async (tx, audit) => {
      await checkImages(tx, fields);
      await claimSlug(tx, slug, null);
      // A byline without an account (the demo articles): printed as given.
      const author =
        byline && !fields.authorId
          ? { authorId: null, authorName: byline }
          : await authorOf(tx, fields.authorId, actor, null);
      const at = deps.now();
      const [row] = await tx
        .insert(articles)
        .values({
          ...stored(fields, slug, bodyHtml, author),
          tagSlugs: fields.tags.map(articleSlug),
          ...times,
          version: 1,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await recordVersion(deps, tx, audit, actor, row!, null);
      await publishOnTime(deps, tx, row!);
      return { id: row!.id, slug: row!.slug };
    }),
  );
}

/**
 * Replaces an article's fields (all of them, as the form sends them) and applies the intent (save keeps the
 * state): a new version, unless nothing changed.
 */
export async function update(
  deps: ArticlesServiceDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean; slug: string }> {
  const { input: fields, slug: typedSlug, bodyHtml } = parseInput(input, false);
  if (!isId(id)) throw notFound(NOT_FOUND);
  return after(
    deps,
    audited(deps.db, actor, ARTICLE_ENTITY, async (tx, audit) => {
      const before = await locked(tx, id);
      const slug = typedSlug ?? before.slug;
      const times = applyTransition(deps, before, fields.intent, fields.publishAt);
      await checkImages(tx, fields);
      const author = await authorOf(tx, fields.authorId, actor, before);
      const modified = await save(deps, tx, audit, actor, before, stored(fields, slug, bodyHtml, author), times);
      return { modified, slug };
    }),
  );
}

/** Draft, schedule (a time to come, in the site's zone), publish now or unpublish: a new version. */
export async function setState(
  deps: ArticlesServiceDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean; state: ArticleState }> {
  const parsed = parseWith(articleStateSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  if (!isId(id)) throw notFound(NOT_FOUND);
  return after(
    deps,
    audited(deps.db, actor, ARTICLE_ENTITY, async (tx, audit) => {
      const before = await locked(tx, id);
      const times = applyTransition(deps, before, parsed.data.intent, parsed.data.publishAt);
      const modified = await save(deps, tx, audit, actor, before, {}, times);
      return { modified, state: times.state };
    }),
  );
}

/**
 * Writes a version's fields back as a new version (history is never rewritten; the state stays as it is: a
 * restore neither publishes nor takes down). Its address too, if it is free; its author as printed then.
 */
export async function restoreVersion(
  deps: ArticlesServiceDeps,
  id: string,
  version: unknown,
  actor: Actor,
): Promise<{ modified: boolean; version: number }> {
  const n = Number(version);
  if (!Number.isInteger(n) || n < 1) throw notFound("No such version of this article.");
  if (!isId(id)) throw notFound(NOT_FOUND);
  return after(
    deps,
    audited(deps.db, actor, ARTICLE_ENTITY, async (tx, audit) => {
      const before = await locked(tx, id);
      const [saved] = await tx
        .select({ data: articleVersions.data })
        .from(articleVersions)
        .where(and(eq(articleVersions.articleId, id), eq(articleVersions.version, n)));
      if (!saved) throw notFound("No such version of this article.");
      const d = saved.data;
      const fields = {
        title: String(d.title ?? before.title),
        slug: String(d.slug ?? before.slug),
        excerpt: String(d.excerpt ?? ""),
        coverImage: String(d.coverImage ?? ""),
        bodyHtml: cleanHtml(String(d.bodyHtml ?? "")),
        access: (d.access as ArticleAccess) ?? before.access,
        tags: Array.isArray(d.tags) ? (d.tags as string[]) : [],
        authorId: typeof d.authorId === "string" ? d.authorId : null,
        authorName: String(d.authorName ?? before.authorName),
        seoTitle: String(d.seoTitle ?? ""),
        seoDescription: String(d.seoDescription ?? ""),
        seoImage: String(d.seoImage ?? ""),
      };
      // The author's account may be gone since: the byline stays as printed, the link to the account goes.
      if (fields.authorId) {
        const [exists] = await tx.select({ id: user.id }).from(user).where(eq(user.id, fields.authorId));
        if (!exists) fields.authorId = null;
      }
      const times = { state: before.state, publishAt: before.publishAt, publishedAt: before.publishedAt };
      const modified = await save(deps, tx, audit, actor, before, fields, times);
      return { modified, version: modified ? before.version + 1 : before.version };
    }),
  );
}
