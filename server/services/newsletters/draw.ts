import { eq } from "drizzle-orm";
import { articleView } from "#domain/article-access.ts";
import { MEMBERS_MARKER } from "#domain/articles.ts";
import { articles, type newsletters } from "#server/db/schema.ts";
import { renderNewsletter, UNSUBSCRIBE_PLACEHOLDER } from "#server/mail/templates/newsletter.tsx";
import type { Mail } from "../mailer";
import { unsubscribeHeaders, unsubscribePath } from "../newsletter";
import { unsubscribeToken } from "../newsletter-tokens";
import type { NewslettersContext } from "./model";

// ── Drawing the mail ──────────────────────────────────────────────────────────────────────────────────────────

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const absolute = (publicUrl: string, html: string) =>
  html.replace(/(\s(?:src|href)=")\/(?!\/)/g, `$1${publicUrl.replace(/\/$/, "")}/`).replace(MEMBERS_MARKER, "<hr>");

/** The mail's two variants (members, everyone else), drawn once per job with the unsubscribe link left open. */
export async function variants(ctx: NewslettersContext, n: typeof newsletters.$inferSelect) {
  const { db, mails, publicUrl, url } = ctx;
  const brand = await mails.brand();
  const [article] = n.articleId ? await db.select().from(articles).where(eq(articles.id, n.articleId)) : [];
  const draw = async (member: boolean) => {
    if (!article) {
      return renderNewsletter(
        { subject: n.subject, preview: n.previewText, heading: n.subject, bodyHtml: absolute(publicUrl, n.bodyHtml) },
        brand,
      );
    }
    const view = articleView(article, {
      staff: false,
      membership: member
        ? { state: "active", packageName: "", expiresAt: new Date(8.64e15), daysLeft: 1 }
        : { state: "none" },
    });
    return renderNewsletter(
      {
        subject: n.subject,
        preview: n.previewText || article.excerpt,
        heading: article.title,
        bodyHtml: absolute(publicUrl, view.html || `<p>${escapeHtml(article.excerpt)}</p>`),
        readMore: { url: url(`/blog/${article.slug}`), locked: view.locked !== null },
      },
      brand,
    );
  };
  return { member: await draw(true), other: await draw(false) };
}

/** The two variants of a newsletter's mail, as `variants` draws them. */
export type Drawn = Awaited<ReturnType<typeof variants>>;

/** A recipient's own unsubscribe link: the subscriber's (decision 024) or, for anyone else, their recipient row's. */
export const unsubscribeUrlOf = ({ secret, url }: NewslettersContext, r: { id: string; subscriberId: string | null }) =>
  url(unsubscribePath(unsubscribeToken(secret, r.subscriberId ?? r.id)));

export function mailFor(
  drawn: { subject: string; html: string; text: string },
  to: string,
  unsubscribe: string,
  messageId: string,
): Mail {
  return {
    to,
    subject: drawn.subject,
    html: drawn.html.split(UNSUBSCRIBE_PLACEHOLDER).join(escapeHtml(unsubscribe)),
    text: drawn.text.split(UNSUBSCRIBE_PLACEHOLDER).join(unsubscribe),
    headers: unsubscribeHeaders(unsubscribe),
    messageId,
  };
}
