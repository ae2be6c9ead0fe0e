import { sections } from "../../../domain/registry";
import type { Services } from "../../services";
import { added, id, updated, type ApiRoute } from "./route";

/**
 * Every editable section's calls, generated from the content registry: the spec's four (list, one, add, update, at
 * its paths), and for curating, a delete at the record's path and, for lists, a reorder at /reorder{list path}.
 */
export function contentRoutes({ content }: Services): ApiRoute[] {
  return sections.flatMap((s): ApiRoute[] => [
    {
      method: "get",
      path: s.api.list,
      access: "public",
      what: `${s.title}: list`,
      handler: () => content.list(s.type),
    },
    {
      method: "get",
      path: s.api.one,
      access: "public",
      what: `${s.title}: one`,
      handler: (req) => content.get(s.type, id(req)),
    },
    {
      method: "post",
      path: s.api.add,
      access: "admin",
      what: `${s.title}: add`,
      handler: async (req, res, viewer) => added(res, (await content.add(s.type, req.body, viewer)).id),
    },
    {
      method: "put",
      path: s.api.update,
      access: "admin",
      what: `${s.title}: update`,
      handler: async (req, _res, viewer) => updated((await content.update(s.type, id(req), req.body, viewer)).modified),
    },
    {
      method: "delete",
      path: s.api.one,
      access: "admin",
      what: `${s.title}: delete`,
      handler: async (req, _res, viewer) => {
        await content.remove(s.type, id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
    ...(s.cardinality === "list"
      ? [
          {
            method: "put",
            path: `/reorder${s.api.list}`,
            access: "admin",
            what: `${s.title}: reorder (body {ids: [...]}, every record once, in the new order)`,
            handler: async (req, _res, viewer) =>
              updated((await content.reorder(s.type, req.body?.ids, viewer)).modified),
          } satisfies ApiRoute,
        ]
      : []),
  ]);
}
