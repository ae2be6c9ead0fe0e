import { Link } from "react-router";
import { ARTICLE_ACCESS_LABEL } from "#domain/articles.ts";
import { formatDate } from "#domain/dates.ts";
import type { BlogCard } from "#server/services/blog.ts";
import { ContentImage } from "../media/ContentImage";

/** "12 March 2026 · 4 min read": when it came out (in the site's time zone) and how long it takes. */
export function ArticleDateLine({ card, timeZone }: { card: BlogCard; timeZone: string }) {
  return (
    <p className="text-sm text-mist">
      {card.publishedAt ? (
        <time dateTime={card.publishedAt}>{formatDate(card.publishedAt, timeZone)}</time>
      ) : (
        "Not published"
      )}
      <span aria-hidden="true"> · </span>
      {`${card.readingMinutes} min read`}
    </p>
  );
}

/** An article's tags, each a link to its tag page. */
export function ArticleTags({ card }: { card: BlogCard }) {
  if (!card.tags.length) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Tags">
      {card.tags.map((t) => (
        <li key={t.slug}>
          <Link
            to={`/blog/tag/${t.slug}`}
            className="inline-block rounded-full bg-sand px-3 py-1 text-xs font-medium text-forest hover:text-clay"
          >
            {t.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** One article in a list: cover, title (a link to it), date and reading time, excerpt, tags. */
export function ArticleCard({
  card,
  timeZone,
  headingLevel = 2,
  first = false,
}: {
  card: BlogCard;
  timeZone: string;
  headingLevel?: 2 | 3;
  /** The list's first card: its cover is in the first screen on a phone, so it loads at once (not lazily). */
  first?: boolean;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      className="flex flex-col overflow-hidden rounded-3xl bg-white ring-1 ring-linen"
      data-testid="article-card"
    >
      {card.coverImage ? (
        <ContentImage
          src={card.coverImage}
          sizes="(min-width: 1024px) 360px, (min-width: 640px) 45vw, 92vw"
          width={1200}
          height={675}
          alt=""
          priority={first}
          className="aspect-video w-full object-cover"
        />
      ) : null}
      <div className="flex flex-1 flex-col gap-3 p-6">
        <ArticleDateLine card={card} timeZone={timeZone} />
        <Heading className="text-xl leading-snug text-forest">
          <Link to={`/blog/${card.slug}`} className="hover:text-clay">
            {card.title}
          </Link>
        </Heading>
        {card.access !== "public" ? (
          <p className="text-xs font-semibold tracking-wide text-clay-dark uppercase">
            {ARTICLE_ACCESS_LABEL[card.access]}
          </p>
        ) : null}
        {card.excerpt ? <p className="text-ink/80">{card.excerpt}</p> : null}
        <div className="mt-auto pt-2">
          <ArticleTags card={card} />
        </div>
      </div>
    </article>
  );
}
