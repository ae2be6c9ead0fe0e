import { splitAtMarker, type ArticleAccess } from "./articles";
import { hasAccess, type Membership } from "./membership";

/** Who is reading: staff (any role: they see everything, to check what they publish) or a membership. */
export interface ArticleViewer {
  staff: boolean;
  membership: Membership;
}

/** What a locked part asks of the reader: to buy a membership, or to renew the one that expired. */
export type ArticleLock = "join" | "renew";

export interface ArticleView {
  /** The HTML this viewer may receive: never a byte of the members-only part for a viewer who may not read it. */
  html: string;
  /** Why part of the article is held back, and so which call to action follows the HTML; null: all of it is here. */
  locked: ArticleLock | null;
}

/** A membership whose window is over (renew), or none at all, or one waiting for the studio (join). */
const lockFor = (membership: Membership): ArticleLock => (membership.state === "expired" ? "renew" : "join");

/**
 * What a viewer sees of an article (the one rule; issue 36, part 2). Members (Paid and Delivered, not expired: the
 * membership rule of domain/membership.ts) and staff see all of it. Others see a public article whole; of a split one,
 * the part above the members-only marker; of a members-only one, nothing of the body (the page shows the excerpt).
 * A split article without a marker is all public, as the editor shows it.
 */
export function articleView(article: { access: ArticleAccess; bodyHtml: string }, viewer: ArticleViewer): ArticleView {
  if (viewer.staff || hasAccess(viewer.membership)) {
    return { html: article.bodyHtml, locked: null };
  }
  if (article.access === "public") return { html: article.bodyHtml, locked: null };
  if (article.access === "members") return { html: "", locked: lockFor(viewer.membership) };
  const { publicHtml, membersHtml } = splitAtMarker(article.bodyHtml);
  if (!membersHtml.trim()) return { html: publicHtml, locked: null };
  return { html: publicHtml, locked: lockFor(viewer.membership) };
}

/** Whether anything of the article differs by viewer (a page that does not can be served to all from the cache). */
export const variesByViewer = (article: { access: ArticleAccess; bodyHtml: string }) =>
  article.access === "members" ||
  (article.access === "split" && splitAtMarker(article.bodyHtml).membersHtml.trim() !== "");
