import type { MetaDescriptor } from "react-router";
import type { RootData } from "#app/root.tsx";
import { seo } from "#app/lib/seo.ts";
import type { BlogArticle } from "#server/services/blog.ts";

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;
const rootOf = (matches: Matches) => matches.find((m) => m?.id === "root")?.data as RootData | undefined;

/** A blog list's title, description, canonical link and Open Graph tags (/blog, a tag, their later pages). */
export function blogListMeta(matches: Matches, listing: { title: string; description: string; path: string }) {
  const root = rootOf(matches);
  const siteName = root?.siteName ?? "Studio";
  return seo({ ...listing, title: `${listing.title} | ${siteName}`, publicUrl: root?.publicUrl ?? "", siteName });
}

/**
 * An article's tags: its search listing (the SEO title, description and share image the studio wrote, else its title,
 * excerpt and cover), its canonical address (/blog/{slug}, also for the preview), Open Graph as an article with its
 * dates, author and tags; the preview is never indexed.
 */
export function articleMeta(matches: Matches, article: BlogArticle | undefined, { preview = false } = {}) {
  const root = rootOf(matches);
  const siteName = root?.siteName ?? "Studio";
  if (!article) return [{ title: siteName }];
  const tags: MetaDescriptor[] = seo({
    title: article.seoTitle.trim() || `${article.title} | ${siteName}`,
    description: article.seoDescription.trim() || article.excerpt,
    path: `/blog/${article.slug}`,
    image: article.seoImage || article.coverImage || undefined,
    publicUrl: root?.publicUrl ?? "",
    siteName,
  }).map((tag) =>
    "property" in tag && tag.property === "og:type" ? { property: "og:type", content: "article" } : tag,
  );
  if (article.publishedAt) tags.push({ property: "article:published_time", content: article.publishedAt });
  tags.push({ property: "article:modified_time", content: article.updatedAt });
  if (article.authorName) tags.push({ property: "article:author", content: article.authorName });
  for (const t of article.tags) tags.push({ property: "article:tag", content: t.name });
  if (preview) tags.push({ name: "robots", content: "noindex, nofollow" });
  return tags;
}
