import type { Services } from "#server/services/index.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

/** Discount codes (issue 27, part 6; decision 049): made, edited and disabled by Admins (area orders). */
export function discountRoutes({ discounts }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/discount-codes",
      access: "staff",
      area: "orders",
      what: "discount codes, newest first, with their uses, by ?page= ?limit=",
      handler: async (req, res) => {
        const { codes, page } = await discounts.list({ page: req.query.page, perPage: perPage(req) });
        return paged(res, codes, page);
      },
    },
    {
      method: "get",
      path: "/discount-codes/:id",
      access: "staff",
      area: "orders",
      what: "one discount code with its uses",
      sample: { ids: { id: "discount code" } },
      handler: (req) => discounts.get(id(req)),
    },
    {
      method: "post",
      path: "/discount-codes",
      access: "staff",
      area: "orders",
      what: "add a discount code (code, kind percent|amount, value, validFrom, validTo, maxUses, oncePerCustomer, packageIds, period first|every, note)",
      sample: { body: { code: "WELCOME10", kind: "percent", value: 10 } },
      handler: async (req, res, viewer) => added(res, await discounts.add(req.body, viewer)),
    },
    {
      method: "put",
      path: "/discount-codes/:id",
      access: "staff",
      area: "orders",
      what: "update a discount code (the same fields as adding one)",
      sample: { ids: { id: "discount code" }, body: { code: "WELCOME6", kind: "amount", value: 6 } },
      handler: async (req, _res, viewer) => updated((await discounts.update(id(req), req.body, viewer)).modified),
    },
    {
      method: "put",
      path: "/discount-codes/:id/state",
      access: "staff",
      area: "orders",
      what: "disable a discount code or enable it again (disabled true|false)",
      sample: { ids: { id: "discount code" }, body: { disabled: true } },
      handler: async (req, _res, viewer) => updated((await discounts.setDisabled(id(req), req.body, viewer)).modified),
    },
  ];
}
