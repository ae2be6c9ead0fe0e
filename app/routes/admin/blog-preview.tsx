import { data, Link, type HeadersFunction } from "react-router";
import type { Route } from "./+types/blog-preview";
import { ArticlePage } from "#app/components/blog/ArticlePage.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { STATIC_PAGE } from "#app/lib/hydration.ts";
import { ARTICLE_STATE_LABEL } from "#domain/articles.ts";
import { PREVIEW_AS, previewAs, previewPath, type PreviewAs } from "#domain/blog.ts";
import { coversOf } from "../blog/data.server";
import { articleMeta } from "../blog/meta";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

/** One person's page: never kept by a cache, never indexed. */
const PREVIEW_HEADERS = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" };
export const headers: HeadersFunction = () => PREVIEW_HEADERS;

const LABEL: { readonly [A in PreviewAs]: string } = { visitor: "a visitor", member: "a member" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // A back-office page drawn in the site's frame (as the preview of unsaved sections, decision 074): staff whose role
  // opens the content; staff whose second factor is due enrol first.
  await requireStaff(request, context, "content");
  const as = previewAs(new URL(request.url).searchParams.get("as"));
  const found = await context.services.blog.preview(params.id, as);
  if (!found) throw data({ message: "There is no such article." }, { status: 404, headers: PREVIEW_HEADERS });
  const { article, related } = found;
  return {
    as,
    article,
    related,
    timeZone: context.config.timeZone,
    media: await coversOf(context, [article.coverImage, article.seoImage, ...related.map((r) => r.coverImage)]),
  };
}

export const meta: Route.MetaFunction = ({ matches, data }) => [
  ...articleMeta(matches, data?.article, { preview: true }).map((tag) =>
    "title" in tag ? { title: `Preview: ${String(tag.title)}` } : tag,
  ),
];

/**
 * /blog/preview/{id}?as=visitor|member (staff who edit content): any article, a draft too, drawn by the public page's
 * components as that reader would see it, under a banner that says it is a preview.
 */
export default function BlogPreview({ loaderData }: Route.ComponentProps) {
  const { as, article } = loaderData;
  return (
    <>
      <div role="note" className="bg-forest text-white" data-testid="preview-banner">
        <div className="container-page flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
          <p>
            <strong>{`Preview — ${article.state === "published" ? "as published" : "not published"}`}</strong>
            {` (${ARTICLE_STATE_LABEL[article.state]}), as ${LABEL[as]} sees it.`}
          </p>
          <p className="flex gap-3">
            {PREVIEW_AS.filter((a) => a !== as).map((a) => (
              <Link key={a} to={previewPath(article.id, a)} className="underline hover:text-brass">
                See it as {LABEL[a]}
              </Link>
            ))}
          </p>
        </div>
      </div>
      <ArticlePage article={article} related={loaderData.related} timeZone={loaderData.timeZone} />
    </>
  );
}
