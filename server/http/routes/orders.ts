import type { Request, Response } from "express";
import { orderFiltersSchema } from "#domain/order-filters.ts";
import { parseWith } from "#domain/validation.ts";
import { AppError, badRequest } from "#server/lib/errors.ts";
import type { Viewer } from "#server/services/accounts.ts";
import type { Services } from "#server/services/index.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

type OrdersService = Services["orders"];

/** Orders: a customer's own (placed, listed, cancelled); an admin's view of all and their statuses. */
export function orderRoutes({ orders, settings }: Services): ApiRoute[] {
  return [...ownOrderRoutes(orders), ...orderStatusRoutes(orders), ...settingsRoutes(settings)];
}

/** A customer's own orders (staff whose role opens orders: every order). */
function ownOrderRoutes(orders: OrdersService): ApiRoute[] {
  return [
    {
      method: "post",
      path: "/new-order",
      access: "user",
      area: "orders",
      // An order is placed for the person signed in: a key is nobody to place it for (decision 077).
      noKeys: true,
      what: "place an order (an Idempotency-Key header: the same key places one order and gets the same answer)",
      handler: async (req, res, viewer) => {
        const { order } = await orders.place(viewer, req.body?.packageId, req.body, req.get("idempotency-key"));
        return added(res, order._id);
      },
    },
    {
      method: "get",
      path: "/orders",
      access: "user",
      area: "orders",
      what: "orders (own; admin: all), filtered by ?q= ?payment= ?status= ?from= ?to= ?view=to-deliver, by ?page= or ?after=",
      handler: (req, res, viewer) => listOrders(orders, req, res, viewer),
    },
    {
      method: "get",
      path: "/order/:id",
      access: "user",
      area: "orders",
      what: "one order (owner or admin)",
      handler: (req, _res, viewer) => orders.get(viewer, id(req)),
    },
    {
      method: "put",
      path: "/order-cancelled/:id",
      access: "user",
      area: "orders",
      what: "cancel an unpaid order (owner)",
      handler: async (req, _res, viewer) => {
        if (req.body?.paymentStatus !== undefined && req.body.paymentStatus !== "Cancelled") {
          throw new AppError(400, "This call only cancels: paymentStatus must be Cancelled", [
            { field: "paymentStatus", message: "paymentStatus must be Cancelled" },
          ]);
        }
        return updated((await orders.cancel(viewer, id(req))).modified);
      },
    },
  ];
}

/** GET /orders: one page of the orders the viewer may see, by ?page= or by keyset after ?after=. */
async function listOrders(orders: OrdersService, req: Request, res: Response, viewer: Viewer) {
  const filters = parseWith(orderFiltersSchema, req.query);
  if (!filters.ok) throw badRequest(filters.errors);
  // ?after=<X-Next-Cursor>: the next page by keyset (constant time at any depth, no order twice); else ?page=.
  const after = req.query.after;
  if (after !== undefined) {
    const r = await orders.listAfter(viewer, {
      after: String(after),
      perPage: perPage(req),
      filters: filters.data,
    });
    res.setHeader("X-Total-Count", String(r.total));
    if (r.capped) res.setHeader("X-Total-Capped", "true");
    if (r.next) res.setHeader("X-Next-Cursor", r.next);
    return r.orders;
  }
  const {
    orders: rows,
    page,
    next,
  } = await orders.list(viewer, {
    page: req.query.page,
    perPage: perPage(req),
    filters: filters.data,
  });
  if (next) res.setHeader("X-Next-Cursor", next);
  return paged(res, rows, page);
}

/** The admin's statuses of an order, and what waits for delivery. */
function orderStatusRoutes(orders: OrdersService): ApiRoute[] {
  return [
    {
      method: "put",
      path: "/order/:id",
      access: "staff",
      area: "orders",
      what: "set payment status",
      sample: { ids: { id: "order" }, body: { paymentStatus: "Paid" } },
      handler: async (req, _res, viewer) => {
        const r = await orders.setPaymentStatus(id(req), req.body, viewer);
        return updated(r.modified, { membershipValid: r.membershipValid });
      },
    },
    {
      method: "put",
      path: "/order-status/:id",
      access: "staff",
      area: "orders",
      what: "set order status",
      sample: { ids: { id: "order" }, body: { orderStatus: "Delivered" } },
      handler: async (req, _res, viewer) => updated((await orders.setOrderStatus(id(req), req.body, viewer)).modified),
    },
    {
      method: "get",
      path: "/orders-to-deliver/count",
      access: "staff",
      area: "orders",
      what: "how many paid orders wait for delivery",
      handler: () => orders.toDeliverCount(),
    },
  ];
}

/** The back office's settings. */
function settingsRoutes(settings: Services["settings"]): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/settings",
      access: "staff",
      area: "settings",
      what: "the back office's settings",
      handler: () => settings.all(),
    },
    {
      method: "put",
      path: "/settings",
      access: "staff",
      area: "settings",
      what: "change settings (autoActivate)",
      sample: { body: { autoActivate: false } },
      handler: async (req, _res, viewer) => {
        const r = await settings.update(req.body, viewer);
        return updated(r.modified, { settings: r.settings });
      },
    },
  ];
}
