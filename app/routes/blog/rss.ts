import { Feed } from "feed";
import type { Route } from "./+types/rss";
import { absoluteUrl } from "#domain/structured-data.ts";
import { siteName } from "#domain/site.ts";

/**
 * /blog/rss.xml: the latest published articles in RSS 2.0, with absolute links from PUBLIC_URL (as the sitemap's).
 * Each item carries what a visitor may read: a public article whole, a split one's public part, a members-only one
 * its excerpt alone (the feed is read by anyone: the service gives every item as a visitor sees it).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const base = context.config.publicUrl;
  const [snapshot, items] = await Promise.all([context.services.content.snapshot(), context.services.blog.feed()]);
  const name = siteName(snapshot);
  const home = absoluteUrl("/blog", base)!;
  const feed = new Feed({
    title: `${name}: Blog`,
    description: `Articles from ${name}.`,
    id: home,
    link: home,
    language: "en-GB",
    copyright: `© ${name}`,
    updated: items[0] ? new Date(items[0].updatedAt) : undefined,
    generator: false,
    feedLinks: { rss: absoluteUrl("/blog/rss.xml", base)! },
  });
  for (const item of items) {
    const link = absoluteUrl(`/blog/${item.slug}`, base)!;
    const image = absoluteUrl(item.coverImage, base);
    feed.addItem({
      title: item.title,
      id: link,
      link,
      date: new Date(item.publishedAt ?? item.updatedAt),
      description: item.excerpt,
      // Relative links and images in the body made absolute, so a reader's app can follow them.
      content: item.html ? item.html.replace(/(href|src)="\//g, `$1="${base}/`) : undefined,
      ...(item.authorName ? { author: [{ name: item.authorName }] } : {}),
      category: item.tags.map((t) => ({ name: t.name, domain: absoluteUrl(`/blog/tag/${t.slug}`, base) })),
      ...(image ? { image } : {}),
    });
  }
  return new Response(feed.rss2(), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=600" },
  });
}
