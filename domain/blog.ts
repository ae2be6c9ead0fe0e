/**
 * The blog's words shared by its pages and the service that reads it (issue 36, parts 2 and 3). What a viewer may
 * read is decided by domain/article-access.ts alone.
 */

/** How staff preview an article: as a visitor (or a customer without a membership) reads it, or as a member does. */
export const PREVIEW_AS = ["visitor", "member"] as const;
export type PreviewAs = (typeof PREVIEW_AS)[number];

/** The preview's viewer named in its address (`?as=`): a visitor unless it names another. */
export const previewAs = (value: string | null): PreviewAs =>
  (PREVIEW_AS as readonly string[]).includes(value ?? "") ? (value as PreviewAs) : "visitor";

/** Staff's preview of an article (any state) as `as` would read it: the agreed address (issue 36). */
export const previewPath = (articleId: string, as: PreviewAs = "visitor") => `/blog/preview/${articleId}?as=${as}`;
