import type { Route } from "./+types/index";
import { BlogList } from "#app/components/blog/BlogList.tsx";
import { STATIC_PAGE } from "#app/lib/hydration.ts";
import { cachedPageHeaders } from "../public/cache";
import { checkPage, coversOf, requestedPage } from "./data.server";
import { blogListMeta } from "./meta";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

/** The same for everyone (cards show no body): kept by the page cache, one entry per page number. */
export const headers = cachedPageHeaders("page");

export async function loader({ request, context }: Route.LoaderArgs) {
  const asked = requestedPage(request);
  const { articles, page } = await context.services.blog.list(asked);
  checkPage(asked, page);
  return {
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
  blogListMeta(matches, {
    title: data && data.page.page > 1 ? `Blog, page ${data.page.page}` : "Blog",
    description: "Guides, case studies and notes from the studio on interior design and search.",
    path: data && data.page.page > 1 ? `/blog?page=${data.page.page}` : "/blog",
  });

/** /blog: published articles, newest first, ten to a page. */
export default function BlogIndex({ loaderData }: Route.ComponentProps) {
  return (
    <BlogList
      title="Blog"
      lead="Guides, case studies and notes from the studio."
      path="/blog"
      articles={loaderData.articles}
      page={loaderData.page}
      timeZone={loaderData.timeZone}
    />
  );
}
