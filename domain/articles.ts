/**
 * Articles (issue 36): the words the blog, the back office and the newsletters share. What a viewer may read of an
 * article is decided by domain/article-access.ts; how a body is cleaned, by the server (server/services/articles).
 */

/** An article's life: written (draft), waiting for its time (scheduled), on the site (published), taken down. */
export const ARTICLE_STATES = ["draft", "scheduled", "published", "unpublished"] as const;
export type ArticleState = (typeof ARTICLE_STATES)[number];

export const ARTICLE_STATE_LABEL: { readonly [S in ArticleState]: string } = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  unpublished: "Unpublished",
};

/**
 * Who may read it: everyone; members only (visitors see the excerpt and the call to join); or everyone, with the part
 * below the members-only marker for members.
 */
export const ARTICLE_ACCESS = ["public", "members", "split"] as const;
export type ArticleAccess = (typeof ARTICLE_ACCESS)[number];

export const ARTICLE_ACCESS_LABEL: { readonly [A in ArticleAccess]: string } = {
  public: "Everyone",
  members: "Members only",
  split: "Everyone, with a members-only part",
};

/**
 * The marker the editor places where the members-only part of a "split" article begins: an element of its own in
 * the stored (cleaned) HTML, the only `<hr>` that carries this attribute.
 */
export const MEMBERS_MARKER_ATTRIBUTE = "data-members-only";
export const MEMBERS_MARKER = `<hr ${MEMBERS_MARKER_ATTRIBUTE} />`;
const MARKER_PATTERN = /<hr\b[^>]*\bdata-members-only\b[^>]*>/i;

/** A body's two parts: before the members-only marker, and after it (empty when there is no marker). */
export function splitAtMarker(html: string): { publicHtml: string; membersHtml: string } {
  const match = MARKER_PATTERN.exec(html);
  if (!match) return { publicHtml: html, membersHtml: "" };
  return { publicHtml: html.slice(0, match.index), membersHtml: html.slice(match.index + match[0].length) };
}

/** Whether a body holds the members-only marker. */
export const hasMarker = (html: string) => MARKER_PATTERN.test(html);

/** The longest body stored, in characters of cleaned HTML (about 100,000 words of formatted text). */
export const MAX_BODY_CHARS = 1_000_000;
export const MAX_TITLE = 200;
export const MAX_EXCERPT = 500;
export const MAX_SLUG = 120;
export const MAX_TAGS = 12;
export const MAX_TAG = 40;

/**
 * The address part of a title or tag: ASCII letters and digits (accents dropped: "Décor" → "decor"), words joined by
 * one hyphen, at most MAX_SLUG characters, never starting or ending with a hyphen.
 */
export function articleSlug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, "");
}

/** A slug as typed is acceptable as it is. */
export const isArticleSlug = (slug: string) => slug.length > 0 && slug.length <= MAX_SLUG && articleSlug(slug) === slug;

/** The words of an HTML body (tags and entities left out). */
export function wordCount(html: string): number {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z#0-9]+;/gi, " ");
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Reading time in whole minutes at 230 words a minute, at least 1. */
export const readingMinutes = (html: string) => Math.max(1, Math.round(wordCount(html) / 230));

/** The tags as typed (comma-separated or a list): trimmed, blanks and repeats (by slug) dropped, first spelling kept. */
export function normaliseTags(tags: readonly string[] | string): string[] {
  const list = typeof tags === "string" ? tags.split(",") : tags;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of list) {
    const tag = raw.trim().replace(/\s+/g, " ");
    const slug = articleSlug(tag);
    if (!tag || !slug || seen.has(slug)) continue;
    seen.add(slug);
    out.push(tag);
  }
  return out;
}

/** The blog's page size. */
export const BLOG_PAGE_SIZE = 10;
