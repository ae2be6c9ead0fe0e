import type { Services } from "#server/services/index.ts";
import { id, paged, perPage, updated, type ApiRoute } from "./route";

/**
 * The media library's JSON calls (administrators only). Uploads are multipart and have their own door with its own
 * body bound (server/http/media.ts); the files themselves are served at /media/{key}-{width}.{format}.
 */
export function mediaRoutes({ media }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/media",
      access: "staff",
      area: "media",
      what: "Media library: one page, newest first",
      handler: async (req, res) => {
        const { items, page } = await media.list(req.query.page, perPage(req, 24));
        return paged(res, items, page);
      },
    },
    {
      method: "get",
      path: "/media/:id",
      access: "staff",
      area: "media",
      what: "Media library: one image and where it is used",
      sample: { ids: { id: "image" } },
      handler: async (req) => ({ ...(await media.get(id(req))), usages: await media.usages(id(req)) }),
    },
    {
      method: "put",
      path: "/media/:id",
      access: "staff",
      area: "media",
      what: "Media library: change an image's alt text",
      sample: { ids: { id: "image" }, body: { alt: "A room" } },
      handler: async (req, _res, viewer) => updated((await media.setAlt(id(req), req.body, viewer)).modified),
    },
    {
      method: "delete",
      path: "/media/:id",
      access: "staff",
      area: "media",
      what: "Media library: delete an image no section uses",
      sample: { ids: { id: "image" } },
      handler: async (req, _res, viewer) => {
        await media.remove(id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
  ];
}
