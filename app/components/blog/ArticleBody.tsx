import { Link } from "react-router";
import type { ArticleLock } from "#domain/article-access.ts";
import { lightArticleHtml } from "./article-html";

/** What a locked article asks of its reader, and where it sends them (an expired member renews on the pricing page). */
const CALLS: { readonly [L in ArticleLock]: { title: string; text: string; action: string; to: string } } = {
  join: {
    title: "The rest of this article is for members",
    text: "Become a member to read all of it, along with every other members-only article.",
    action: "See the plans",
    to: "/pricing",
  },
  renew: {
    title: "Your membership has ended",
    text: "Renew your membership to read the rest of this article.",
    action: "Renew",
    to: "/pricing",
  },
};

/**
 * An article's body as the server cleaned it and articleView gave it to this reader (the HTML never holds what the
 * reader may not read), with the site's article typography (app/app.css, `.article-body`), its videos as links
 * (article-html.ts), and, when part of it is held back, the call to join or to renew.
 */
export function ArticleBody({ html, locked }: { html: string; locked: ArticleLock | null }) {
  const call = locked ? CALLS[locked] : null;
  return (
    <>
      {html ? (
        <div
          className="article-body"
          data-testid="article-body"
          dangerouslySetInnerHTML={{ __html: lightArticleHtml(html) }}
        />
      ) : null}
      {call ? (
        <aside
          className="article-locked mt-10 rounded-3xl bg-sand px-6 py-8 text-center ring-1 ring-linen sm:px-10"
          data-testid="article-locked"
          data-lock={locked}
        >
          <h2 className="text-2xl text-forest">{call.title}</h2>
          <p className="mx-auto mt-3 max-w-md text-ink/80">{call.text}</p>
          <Link to={call.to} className="btn-primary mt-6">
            {call.action}
          </Link>
        </aside>
      ) : null}
    </>
  );
}
