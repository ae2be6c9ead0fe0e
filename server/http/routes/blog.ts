import { BLOG_PAGE_SIZE } from "#domain/articles.ts";
import { notFound } from "#server/lib/errors.ts";
import type { Services } from "#server/services/index.ts";
import { viewerOf } from "../guards";
import { paged, perPage, type ApiRoute } from "./route";

/**
 * The blog's public reads (issue 36, part 3): the published list (one page: `?page=`, `?limit=` up to 100, `?tag=` a
 * tag's slug; the counts in X-Total-Count, X-Page, X-Pages) and one article by its address. Anyone may call them; the
 * article's body is what articleView gives the caller (a visitor never receives a members' part); like every REST
 * answer it is private to the caller (decision 059), so no shared cache hands one caller's copy to another.
 */
export function blogRoutes({ blog }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/blog",
      access: "public",
      what: "Blog: published articles, newest first (paged; ?tag= a tag's slug)",
      handler: async (req, res) => {
        const tag = typeof req.query.tag === "string" ? req.query.tag : "";
        const size = perPage(req, BLOG_PAGE_SIZE);
        const { articles, page } = tag
          ? await blog.byTag(tag, req.query.page, size)
          : await blog.list(req.query.page, size);
        return paged(res, articles, page);
      },
    },
    {
      method: "get",
      path: "/blog/:slug",
      access: "public",
      what: "Blog: one published article, its body as the caller may read it",
      handler: async (req, res) => {
        const found = await blog.read(String(req.params.slug), await viewerOf(req));
        if (!found) throw notFound("There is no published article at this address.");
        if ("movedTo" in found) {
          res.status(301).setHeader("Location", `/api/blog/${encodeURIComponent(found.movedTo)}`);
          return { movedTo: found.movedTo };
        }
        const { varies: _varies, ...article } = found.article;
        return { ...article, related: found.related };
      },
    },
  ];
}
