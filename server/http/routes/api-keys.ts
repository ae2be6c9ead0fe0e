import type { Services } from "#server/services/index.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

/**
 * API keys (issue 37, decision 077): made, listed and revoked by Admins (area settings), and never with a key
 * (`noKeys`: a key cannot make keys, whatever areas it has). A new key's secret is in the answer that made it, once.
 */
export function apiKeyRoutes({ apiKeys }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/api-keys",
      access: "staff",
      area: "settings",
      noKeys: true,
      what: "API keys, newest first (name, label, areas, access, created, last used, revoked), by ?page= ?limit=",
      handler: async (req, res) => {
        const { keys, page } = await apiKeys.list({ page: req.query.page, perPage: perPage(req) });
        return paged(res, keys, page);
      },
    },
    {
      method: "post",
      path: "/api-keys",
      access: "staff",
      area: "settings",
      noKeys: true,
      what: "make an API key (name, areas: staff areas, access read|write); the answer's `secret` is shown this once",
      sample: { body: { name: "Accounting", areas: ["orders"], access: "read" } },
      handler: async (req, res, viewer) => {
        const { key, secret } = await apiKeys.create(req.body, viewer);
        return { ...added(res, key._id), secret, key };
      },
    },
    {
      method: "post",
      path: "/api-keys/:id/revoke",
      access: "staff",
      area: "settings",
      noKeys: true,
      what: "revoke an API key: refused from the next request on (it stays listed, marked revoked)",
      sample: { ids: { id: "API key" } },
      handler: async (req, _res, viewer) => updated((await apiKeys.revoke(id(req), viewer)).modified),
    },
  ];
}
