import type { Services } from "#server/services/index.ts";
import { recordRoutes, type ApiRoute } from "./route";

/** The PayPal account that receives payments (spec 2: paypalEmail). */
export function paymentAccountRoutes({ paymentAccounts }: Services): ApiRoute[] {
  return recordRoutes({
    paths: { list: "/paypal-email", one: "/paypal-email/:id", add: "/add-email", update: "/paypal-email/:id" },
    what: {
      list: "payment accounts",
      one: "one payment account",
      add: "add a payment account",
      update: "update a payment account",
    },
    read: "staff",
    area: "payments",
    sample: {
      record: "payment account",
      add: { paypalEmail: "till@example.org" },
      update: { paypalEmail: "till2@example.org" },
    },
    store: paymentAccounts,
  });
}
