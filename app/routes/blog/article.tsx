import { data, redirect, type HeadersFunction } from "react-router";
import type { Route } from "./+types/article";
import { ArticlePage } from "#app/components/blog/ArticlePage.tsx";
import { STATIC_PAGE } from "#app/lib/hydration.ts";
import { coversOf } from "./data.server";
import { articleMeta } from "./meta";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

/**
 * The page cache's mark, given by the loader: only to a page every viewer of its role gets alike (the service's
 * `shared`: a public article; an article with a members' part only as rendered for a visitor). Any other answer is
 * rendered per request and, made for someone signed in, sent private (server/http/pages.ts).
 */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await context.services.blog.read(params.slug, await context.viewer());
  if (!found) throw data(null, { status: 404 });
  if ("movedTo" in found) throw redirect(`/blog/${found.movedTo}`, 301);
  const { article, related, shared } = found;
  return data(
    {
      article,
      related,
      timeZone: context.config.timeZone,
      media: await coversOf(context, [article.coverImage, article.seoImage, ...related.map((r) => r.coverImage)]),
    },
    { headers: shared ? { "X-Page-Cache": "anonymous", "Cache-Control": "no-cache" } : {} },
  );
}

export const meta: Route.MetaFunction = ({ matches, data }) => articleMeta(matches, data?.article);

/** /blog/{slug}: one published article, as this reader may read it. */
export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  return <ArticlePage article={loaderData.article} related={loaderData.related} timeZone={loaderData.timeZone} />;
}
