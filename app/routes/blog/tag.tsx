import { data } from "react-router";
import type { Route } from "./+types/tag";
import { BlogList } from "#app/components/blog/BlogList.tsx";
import { STATIC_PAGE } from "#app/lib/hydration.ts";
import { cachedPageHeaders } from "../public/cache";
import { checkPage, coversOf, requestedPage } from "./data.server";
import { blogListMeta } from "./meta";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

/** The same for everyone: kept by the page cache, one entry per page number. */
export const headers = cachedPageHeaders("page");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const asked = requestedPage(request);
  const { articles, page, tag } = await context.services.blog.byTag(params.slug, asked);
  // A tag no published article has is no page.
  if (!tag) throw data(null, { status: 404 });
  checkPage(asked, page);
  return {
    tag: { name: tag, slug: params.slug },
    articles,
    page,
    timeZone: context.config.timeZone,
    media: await coversOf(
      context,
      articles.map((a) => a.coverImage),
    ),
  };
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  data
    ? blogListMeta(matches, {
        title:
          data.page.page > 1
            ? `Articles about ${data.tag.name}, page ${data.page.page}`
            : `Articles about ${data.tag.name}`,
        description: `The studio's articles about ${data.tag.name}, newest first.`,
        path: `/blog/tag/${data.tag.slug}${data.page.page > 1 ? `?page=${data.page.page}` : ""}`,
      })
    : [];

/** /blog/tag/{slug}: the published articles with that tag, newest first. */
export default function BlogTag({ loaderData }: Route.ComponentProps) {
  const { tag } = loaderData;
  return (
    <BlogList
      title={`Articles about ${tag.name}`}
      trail={[{ label: "Blog", to: "/blog" }]}
      path={`/blog/tag/${tag.slug}`}
      articles={loaderData.articles}
      page={loaderData.page}
      timeZone={loaderData.timeZone}
    />
  );
}
