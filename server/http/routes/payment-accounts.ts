import type { Services } from "../../services";
import { added, id, updated, type ApiRoute } from "./route";

/** The PayPal account that receives payments (spec 2: paypalEmail). */
export function paymentAccountRoutes({ paymentAccounts }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/paypal-email",
      access: "admin",
      what: "payment accounts",
      handler: () => paymentAccounts.list(),
    },
    {
      method: "get",
      path: "/paypal-email/:id",
      access: "admin",
      what: "one payment account",
      handler: (req) => paymentAccounts.get(id(req)),
    },
    {
      method: "post",
      path: "/add-email",
      access: "admin",
      what: "add a payment account",
      handler: async (req, res, viewer) => added(res, await paymentAccounts.add(req.body, viewer)),
    },
    {
      method: "put",
      path: "/paypal-email/:id",
      access: "admin",
      what: "update a payment account",
      handler: async (req, _res, viewer) => updated((await paymentAccounts.update(id(req), req.body, viewer)).modified),
    },
  ];
}
