import type { Services } from "#server/services/index.ts";
import { id, type ApiRoute } from "./route";

/** Erasure of a customer at their request, from the back office (decision 045). */
export function privacyRoutes({ privacy }: Services): ApiRoute[] {
  return [
    {
      method: "delete",
      path: "/customers/:id",
      access: "staff",
      area: "customers",
      what: "erase a customer's personal data at their request (not staff); paid orders are kept, anonymised",
      sample: { ids: { id: "customer" } },
      handler: async (req, _res, viewer) => {
        await privacy.eraseCustomer(id(req), viewer);
        return { acknowledged: true, deletedCount: 1 };
      },
    },
  ];
}
