import { and, eq, inArray, ne, sql } from "drizzle-orm";
import {
  articleInputSchema,
  bodyTooLong,
  transition,
  type ArticleInput,
  type ArticleIntent,
  type ArticleTimes,
} from "#domain/article-edits.ts";
import { articleSlug, hasMarker, MAX_BODY_CHARS } from "#domain/articles.ts";
import { parseMediaUrl } from "#domain/media.ts";
import { parseWith, type FieldError } from "#domain/validation.ts";
import { adminUsers, articles, articleSlugs, media, user } from "#server/db/schema.ts";
import { cleanHtml } from "#server/lib/clean-html.ts";
import { badRequest } from "#server/lib/errors.ts";
import type { Actor } from "#server/services/activity.ts";
import type { Tx } from "#server/services/jobs.ts";
import { fail, type ArticlesServiceDeps, type Row } from "./model.ts";

/**
 * The address an article may take: unique among articles' addresses now and earlier ones (an earlier address leads
 * to its article, so no other article may take it; the article it was earlier may take it back). Slug changes are
 * serialised (one advisory lock) so two saves cannot both take one address.
 */
export async function claimSlug(tx: Tx, slug: string, articleId: string | null): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('article-slugs'))`);
  const other = articleId ? ne(articles.id, articleId) : undefined;
  const [taken] = await tx
    .select({ title: articles.title })
    .from(articles)
    .where(other ? and(eq(articles.slug, slug), other) : eq(articles.slug, slug));
  if (taken) throw fail("slug", `Another article already has the address /blog/${slug}: choose another.`);
  const [old] = await tx
    .select({ articleId: articleSlugs.articleId, title: articles.title })
    .from(articleSlugs)
    .innerJoin(articles, eq(articles.id, articleSlugs.articleId))
    .where(eq(articleSlugs.slug, slug));
  if (old && old.articleId !== articleId)
    throw fail(
      "slug",
      `The address /blog/${slug} was an earlier address of “${old.title}” and still leads there: choose another.`,
    );
  // Taken back by the article it was earlier: it is its address again, no longer an old one.
  if (old) await tx.delete(articleSlugs).where(eq(articleSlugs.slug, slug));
}

/** The byline: the chosen staff member's name (blank: the writer's), kept as printed when the author is unchanged. */
export async function authorOf(
  tx: Tx,
  wanted: string,
  actor: Actor,
  before: Pick<Row, "authorId" | "authorName"> | null,
): Promise<{ authorId: string | null; authorName: string }> {
  // Unchanged (or left blank on a saved article): the byline as printed, even if its account has gone since.
  if (before && (!wanted || wanted === before.authorId))
    return { authorId: before.authorId, authorName: before.authorName };
  const id = wanted || actor.id;
  const [found] = await tx
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .innerJoin(adminUsers, sql`lower(${adminUsers.userEmail}) = lower(${user.email})`)
    .where(eq(user.id, id));
  if (found) return { authorId: found.id, authorName: found.name.trim() || found.email };
  if (!wanted && id === actor.id) return { authorId: null, authorName: actor.email }; // a write no staff account made
  throw fail("authorId", "Choose the author from the staff list.");
}

/** Cover and share images are library images (their addresses, as the sections keep them), or none. */
export async function checkImages(tx: Tx, input: Pick<ArticleInput, "coverImage" | "seoImage">) {
  const wanted = (["coverImage", "seoImage"] as const).filter((f) => input[f] !== "");
  const keys = wanted.map((f) => parseMediaUrl(input[f])?.key).filter((k): k is string => Boolean(k));
  const found = new Set(
    keys.length
      ? (await tx.select({ key: media.key }).from(media).where(inArray(media.key, keys))).map((r) => r.key)
      : [],
  );
  const errors: FieldError[] = [];
  for (const f of wanted)
    if (!found.has(parseMediaUrl(input[f])?.key ?? ""))
      errors.push({ field: f, message: "Choose the image from the media library (this one is not in it)." });
  if (errors.length) throw badRequest(errors);
}

/** The input read and checked, its body cleaned: the values to store, without the state. */
export function parseInput(
  input: unknown,
  creating: boolean,
): { input: ArticleInput; slug: string | null; bodyHtml: string } {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw fail("body", "Send the article as a JSON object of its fields.");
  const parsed = parseWith(articleInputSchema, input);
  if (!parsed.ok) throw badRequest(parsed.errors);
  // Blank: a new article's address is made from its title; a saved one keeps its own (a title edit moves nothing).
  const slug = parsed.data.slug ? articleSlug(parsed.data.slug) : creating ? articleSlug(parsed.data.title) : null;
  if (slug === "")
    throw fail(parsed.data.slug ? "slug" : "title", "The address needs at least one letter or digit (a-z, 0-9).");
  const bodyHtml = cleanHtml(parsed.data.bodyHtml);
  if (bodyHtml.length > MAX_BODY_CHARS) throw fail("bodyHtml", bodyTooLong(bodyHtml.length));
  if (parsed.data.access === "split" && !hasMarker(bodyHtml))
    throw fail(
      "access",
      "A members-only part starts at its marker: place “Members only below this line” in the body, or choose another access.",
    );
  return { input: parsed.data, slug, bodyHtml };
}

export function applyTransition(
  { now, timeZone }: ArticlesServiceDeps,
  current: ArticleTimes | null,
  intent: ArticleIntent,
  publishAt: string,
): ArticleTimes {
  const next = transition(current, intent, publishAt, { now: now(), timeZone });
  if (!next.ok) throw fail(next.field, next.message);
  return { state: next.state, publishAt: next.publishAt, publishedAt: next.publishedAt };
}
