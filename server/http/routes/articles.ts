import type { Services } from "#server/services/index.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

type ArticlesService = Services["articles"];

/**
 * The back office's articles (issue 36, part 1): area "content" (Admin and Editor). The bodies are read by zod in the
 * articles service (domain/article-edits.ts), cleaned there, and bounded at 3 MB by their address (server/http/body.ts).
 */
export function articleRoutes({ articles }: Services): ApiRoute[] {
  return [...articleRecordRoutes(articles), ...articleLifeRoutes(articles)];
}

/** The list, one article, adding one and changing it. */
function articleRecordRoutes(articles: ArticlesService): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/articles",
      access: "staff",
      area: "content",
      what: "articles, last changed first, by ?page= ?limit= ?state=draft|scheduled|published|unpublished",
      handler: async (req, res) => {
        const { articles: rows, page } = await articles.list({
          page: req.query.page,
          perPage: perPage(req),
          state: req.query.state,
        });
        return paged(res, rows, page);
      },
    },
    {
      method: "get",
      path: "/articles/:id",
      access: "staff",
      area: "content",
      what: "one article, whole (its body with the members-only marker), with its earlier addresses",
      sample: { ids: { id: "article" } },
      handler: (req) => articles.get(id(req)),
    },
    {
      method: "post",
      path: "/articles",
      access: "staff",
      area: "content",
      what: "add an article (title, slug, excerpt, coverImage, bodyHtml, access, tags, authorId, seoTitle, seoDescription, seoImage; intent save|publish|schedule with publishAt in the site's zone)",
      sample: { body: { title: "Our first year" } },
      handler: async (req, res, viewer) => added(res, (await articles.create(req.body, viewer)).id),
    },
    {
      method: "put",
      path: "/articles/:id",
      access: "staff",
      area: "content",
      what: "update an article (the same fields as adding one; intent save keeps its state)",
      sample: { ids: { id: "article" }, body: { title: "Our first year, looking back" } },
      handler: async (req, _res, viewer) => {
        const { modified, slug } = await articles.update(id(req), req.body, viewer);
        return updated(modified, { slug });
      },
    },
  ];
}

/** An article's state, its deletion and its versions. */
function articleLifeRoutes(articles: ArticlesService): ApiRoute[] {
  return [
    {
      method: "put",
      path: "/articles/:id/state",
      access: "staff",
      area: "content",
      what: "draft, schedule (publishAt: a time to come in the site's zone), publish or unpublish an article (intent)",
      sample: { ids: { id: "article" }, body: { intent: "publish" } },
      handler: async (req, _res, viewer) => {
        const { modified, state } = await articles.setState(id(req), req.body, viewer);
        return updated(modified, { state });
      },
    },
    {
      method: "delete",
      path: "/articles/:id",
      access: "staff",
      area: "content",
      what: "delete an article (to the trash, with its versions, for 30 days)",
      sample: { ids: { id: "article" } },
      handler: async (req, _res, viewer) => {
        await articles.remove(id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
    {
      method: "get",
      path: "/articles/:id/versions",
      access: "staff",
      area: "content",
      what: "an article's versions, newest first (number, when, who)",
      sample: { ids: { id: "article" } },
      handler: (req) => articles.versions(id(req)),
    },
    {
      method: "post",
      path: "/articles/:id/versions/:version/restore",
      access: "staff",
      area: "content",
      what: "restore a version of an article: its fields written back as a new version (its state unchanged)",
      sample: { ids: { id: "article", version: "article version" } },
      handler: async (req, _res, viewer) => {
        const { modified, version } = await articles.restoreVersion(id(req), req.params.version, viewer);
        return updated(modified, { version });
      },
    },
  ];
}
