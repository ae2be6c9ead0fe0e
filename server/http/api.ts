import { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { HONEYPOT_FIELD } from "../../app/content/forms";
import { sections } from "../../app/content/registry";
import { AppError, isAppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import type { Viewer } from "../services/accounts";
import { requireAdminApi, requireUserApi, viewerOf } from "./guards";

type Handler = (req: Request, res: Response) => Promise<unknown>;

/** Runs an async handler and sends its result as JSON (or lets it respond itself). */
export const json =
  (handler: Handler): RequestHandler =>
  (req, res, next) => {
    handler(req, res).then((body) => {
      if (!res.headersSent) res.json(body);
    }, next);
  };

export type Access = "public" | "user" | "admin";

/** One REST call: declared once, registered from this table, and tested from it (the permission matrix). */
export interface ApiRoute {
  method: "get" | "post" | "put" | "delete";
  path: string;
  access: Access;
  /** What the call is for, in a few words (documentation and test names). */
  what: string;
  /** The catalogue's answer shape (spec 2): {success: true, data} or {success: false, error}, failures included. */
  envelope?: true;
  handler: (req: Request, res: Response, viewer: Viewer | null) => Promise<unknown>;
}

const id = (req: Request) => String(req.params.id);
const added = (res: Response, insertedId: string | null) => {
  res.status(201);
  return { acknowledged: true, insertedId };
};
const updated = (modified: boolean, extra: Record<string, unknown> = {}) => ({
  acknowledged: true,
  matchedCount: 1,
  modifiedCount: modified ? 1 : 0,
  ...extra,
});
const perPage = (req: Request, fallback = 20) => {
  const n = Number(req.query.limit);
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : fallback;
};
const pageHeaders = (res: Response, page: { total: number; page: number; pages: number }) => {
  res.setHeader("X-Total-Count", String(page.total));
  res.setHeader("X-Page", String(page.page));
  res.setHeader("X-Pages", String(page.pages));
};

/** Every call of both spec documents' section 7, with its access rule. */
export function apiRoutes(services: Services): ApiRoute[] {
  const visitor = (req: Request) => ({
    ip: req.ip ?? "unknown",
    isBot: typeof req.body?.[HONEYPOT_FIELD] === "string" && req.body[HONEYPOT_FIELD].trim() !== "",
  });

  const content: ApiRoute[] = sections.flatMap((s): ApiRoute[] => [
    {
      method: "get",
      path: s.api.list,
      access: "public",
      what: `${s.title}: list`,
      handler: () => services.content.list(s.type),
    },
    {
      method: "get",
      path: s.api.one,
      access: "public",
      what: `${s.title}: one`,
      handler: (req) => services.content.get(s.type, id(req)),
    },
    {
      method: "post",
      path: s.api.add,
      access: "admin",
      what: `${s.title}: add`,
      handler: async (req, res, v) => added(res, (await services.content.add(s.type, req.body, v!)).id),
    },
    {
      method: "put",
      path: s.api.update,
      access: "admin",
      what: `${s.title}: update`,
      handler: async (req, _res, v) => updated((await services.content.update(s.type, id(req), req.body, v!)).modified),
    },
  ]);

  return [
    ...content,

    // Visitors
    {
      method: "post",
      path: "/add-message",
      access: "public",
      what: "contact message",
      handler: async (req, res) => added(res, (await services.inbox.sendMessage(req.body, visitor(req))).id),
    },
    {
      method: "post",
      path: "/add-subscriber",
      access: "public",
      what: "newsletter signup",
      handler: async (req, res) => {
        const { id: insertedId, created } = await services.inbox.subscribe(req.body, visitor(req));
        res.status(created ? 201 : 200);
        return { acknowledged: true, insertedId };
      },
    },

    // Identity
    {
      method: "get",
      path: "/me",
      access: "user",
      what: "who am I",
      handler: async (_req, _res, v) => ({
        email: v!.email,
        displayName: v!.displayName,
        role: v!.isAdmin ? "Admin" : "Customer",
        emailVerified: v!.emailVerified,
      }),
    },
    { method: "get", path: "/users", access: "admin", what: "admin users", handler: () => services.adminUsers.list() },
    {
      method: "get",
      path: "/users/:id",
      access: "admin",
      what: "one admin user",
      handler: (req) => services.adminUsers.get(id(req)),
    },
    {
      method: "post",
      path: "/add-user",
      access: "admin",
      what: "add the admin user",
      handler: async (req, res, v) => added(res, await services.adminUsers.create(req.body, v!)),
    },
    {
      method: "put",
      path: "/upadete-users/:id",
      access: "admin",
      what: "update the admin user",
      handler: async (req, _res, v) => updated((await services.adminUsers.update(id(req), req.body, v!)).modified),
    },

    // Orders
    {
      method: "post",
      path: "/new-order",
      access: "user",
      what: "place an order",
      handler: async (req, res, v) => added(res, (await services.orders.create(v!, req.body?.packageId, req.body))._id),
    },
    {
      method: "get",
      path: "/orders",
      access: "user",
      what: "orders (own; admin: all)",
      handler: async (req, res, v) => {
        const { orders, page } = await services.orders.list(v!, { page: req.query.page, perPage: perPage(req) });
        pageHeaders(res, page);
        return orders;
      },
    },
    {
      method: "get",
      path: "/order/:id",
      access: "user",
      what: "one order (owner or admin)",
      handler: (req, _res, v) => services.orders.get(v!, id(req)),
    },
    {
      method: "put",
      path: "/order-cancelled/:id",
      access: "user",
      what: "cancel an unpaid order (owner)",
      handler: async (req, _res, v) => {
        if (req.body?.paymentStatus !== undefined && req.body.paymentStatus !== "Cancelled") {
          throw new AppError(400, "This call only cancels: paymentStatus must be Cancelled", [
            { field: "paymentStatus", message: "paymentStatus must be Cancelled" },
          ]);
        }
        return updated((await services.orders.cancel(v!, id(req))).modified);
      },
    },
    {
      method: "put",
      path: "/order/:id",
      access: "admin",
      what: "set payment status",
      handler: async (req, _res, v) => {
        const r = await services.orders.setPaymentStatus(id(req), req.body, v!);
        return updated(r.modified, { membershipValid: r.membershipValid });
      },
    },
    {
      method: "put",
      path: "/order-status/:id",
      access: "admin",
      what: "set order status",
      handler: async (req, _res, v) => updated((await services.orders.setOrderStatus(id(req), req.body, v!)).modified),
    },

    // Messages and subscribers
    {
      method: "get",
      path: "/messages",
      access: "admin",
      what: "contact messages",
      handler: async (req, res) => {
        const status = req.query.status === "Read" ? "Read" : req.query.status === "UnRead" ? "UnRead" : undefined;
        if (!status) return services.inbox.allMessages();
        const { messages, page } = await services.inbox.messagesByStatus(status, req.query.page, perPage(req));
        pageHeaders(res, page);
        return messages;
      },
    },
    {
      method: "get",
      path: "/message/:id",
      access: "admin",
      what: "one message",
      handler: (req) => services.inbox.message(id(req)),
    },
    {
      method: "put",
      path: "/message/:id",
      access: "admin",
      what: "mark a message read",
      handler: async (req, _res, v) => updated((await services.inbox.markRead(id(req), req.body, v!)).modified),
    },
    {
      method: "get",
      path: "/subscribers",
      access: "admin",
      what: "newsletter subscribers",
      handler: async (req, res) => {
        const { subscribers, page } = await services.inbox.subscribers(req.query.page, perPage(req, 100));
        pageHeaders(res, page);
        return subscribers;
      },
    },

    // Payment account
    {
      method: "get",
      path: "/paypal-email",
      access: "admin",
      what: "payment accounts",
      handler: () => services.paymentAccounts.list(),
    },
    {
      method: "get",
      path: "/paypal-email/:id",
      access: "admin",
      what: "one payment account",
      handler: (req) => services.paymentAccounts.get(id(req)),
    },
    {
      method: "post",
      path: "/add-email",
      access: "admin",
      what: "add a payment account",
      handler: async (req, res, v) => added(res, await services.paymentAccounts.add(req.body, v!)),
    },
    {
      method: "put",
      path: "/paypal-email/:id",
      access: "admin",
      what: "update a payment account",
      handler: async (req, _res, v) => updated((await services.paymentAccounts.update(id(req), req.body, v!)).modified),
    },

    // Catalogue (specs 1 and 2, section 7). The session decides who may see an item; ?email= is accepted and ignored.
    {
      method: "get",
      path: "/all-database",
      access: "user",
      envelope: true,
      what: "catalogue items",
      handler: async (_req, _res, v) => (await services.catalogue.list(v!)).items,
    },
    {
      method: "get",
      path: "/database/:id",
      access: "user",
      envelope: true,
      what: "one item (members and admins)",
      handler: (req, _res, v) => services.catalogue.get(v!, id(req)),
    },
    {
      method: "get",
      path: "/database/:id/templates",
      access: "user",
      envelope: true,
      what: "an item's templates (members and admins)",
      handler: (req, _res, v) => services.catalogue.templatesFor(v!, id(req)),
    },
    {
      method: "post",
      path: "/add-database",
      access: "admin",
      envelope: true,
      what: "add an item",
      handler: async (req, res, v) => {
        const item = await services.catalogue.add(v!, req.body);
        res.status(201);
        return item;
      },
    },
    {
      method: "put",
      path: "/database/:id",
      access: "admin",
      envelope: true,
      what: "update an item",
      handler: (req, _res, v) => services.catalogue.update(v!, id(req), req.body),
    },
    {
      method: "delete",
      path: "/database/:id",
      access: "admin",
      envelope: true,
      what: "delete an item",
      handler: async (req, _res, v) => {
        await services.catalogue.remove(v!, id(req));
        return { _id: id(req) };
      },
    },
    {
      method: "post",
      path: "/add-item",
      access: "admin",
      what: "add a simple item",
      handler: async (req, res, v) => added(res, (await services.catalogue.addSimpleItem(v!, req.body))._id),
    },
  ];
}

const guard: Record<Access, RequestHandler[]> = { public: [], user: [requireUserApi], admin: [requireAdminApi] };

/** The JSON REST API under /api, registered from the table. */
export function createApiRouter(services: Services): Router {
  const api = Router({ caseSensitive: true });
  for (const route of apiRoutes(services)) {
    if (route.envelope) {
      api[route.method](route.path, envelope(route));
      continue;
    }
    api[route.method](
      route.path,
      ...guard[route.access],
      json(async (req, res) => route.handler(req, res, await viewerOf(req))),
    );
  }
  return api;
}

/**
 * A catalogue call: {success: true, data}, or {success: false, error} with a status that means what it says (401 signed
 * out, 403 not allowed, 400 with the field errors, 404, 409). Unexpected failures go to the error handler (500).
 */
function envelope(route: ApiRoute): RequestHandler {
  return (req, res, next) => {
    const fail = (status: number, error: string, extra: Record<string, unknown> = {}) =>
      void res.status(status).json({ success: false, error, ...extra });
    (async () => {
      const viewer = await viewerOf(req);
      if (route.access !== "public" && !viewer) return fail(401, "Sign in to use this call.");
      if (route.access === "admin" && !viewer!.isAdmin) return fail(403, "You don't have any permission");
      try {
        const data = await route.handler(req, res, viewer);
        if (!res.headersSent) res.json({ success: true, data });
      } catch (error) {
        if (!isAppError(error)) throw error;
        fail(
          error.status,
          error.message,
          error.errors.length ? { field: error.errors[0]!.field, errors: error.errors } : {},
        );
      }
    })().catch(next);
  };
}

/** Only JSON bodies are accepted on the API's write calls. */
export const requireJsonBody: RequestHandler = (req, res, next) => {
  if (["POST", "PUT", "PATCH", "DELETE"].includes(req.method) && req.headers["content-length"] !== "0") {
    const hasBody = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    if (hasBody && !req.is("application/json")) {
      res.status(415).json({ error: "Send the request body as JSON (Content-Type: application/json)." });
      return;
    }
  }
  next();
};

/** Maps every failure to a JSON answer whose status means what it says; never leaks internals. */
export function apiErrorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isAppError(error)) {
      const body: Record<string, unknown> = { error: error.message };
      if (error.errors.length) {
        body.field = error.errors[0]!.field;
        body.errors = error.errors;
      }
      if (error.status === 429) res.setHeader("Retry-After", "600");
      res.status(error.status).json(body);
      return;
    }
    const e = error as { type?: string; status?: number };
    if (e?.type === "entity.too.large") {
      res.status(413).json({ error: "The request body is too large." });
      return;
    }
    if (e?.type === "entity.parse.failed") {
      res.status(400).json({ error: "The request body is not valid JSON." });
      return;
    }
    if (typeof e?.status === "number" && e.status >= 400 && e.status < 500) {
      res.status(e.status).json({ error: "The request could not be read." });
      return;
    }
    logger.error("api error", { method: req.method, path: req.path, error });
    res.status(500).json({ error: "Something went wrong on our side. Please try again." });
  };
}
