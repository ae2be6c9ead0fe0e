import { sections } from "../../../domain/registry";
import type { Services } from "../../services";
import { added, id, updated, type ApiRoute } from "./route";

/** Every editable section's four calls, generated from the content registry (its paths are the spec's). */
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
  ]);
}
