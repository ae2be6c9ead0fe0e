import type { Services } from "#server/services/index.ts";
import type { ApiRoute } from "./route";

/** Invoices (decision 038) and credit notes (decision 073): a customer's own, every one for staff who see orders. */
export function invoiceRoutes({ invoices, creditNotes }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/invoices/:orderNumber",
      access: "user",
      area: "orders",
      what: "the invoice of an order (own; staff: any), by order number; 404 for an order without one",
      handler: (req, _res, viewer) => invoices.get(viewer, String(req.params.orderNumber)),
    },
    {
      method: "get",
      path: "/credit-notes/:number",
      access: "user",
      area: "orders",
      what: "a credit note (own; staff: any), by its number; 404 for anyone else's",
      handler: (req, _res, viewer) => creditNotes.get(viewer, String(req.params.number)),
    },
  ];
}
