import { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { sections } from "../../app/content/registry";
import { HONEYPOT_FIELD } from "../../app/content/forms";
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

/** The JSON REST API under /api, exactly as the specs' call tables spell it. */
export function createApiRouter(services: Services): Router {
  const api = Router();

  // Public content lists and single records, generated from the registry.
  for (const section of sections) {
    api.get(
      section.api.list,
      json(() => services.content.list(section.type)),
    );
    api.get(
      section.api.one,
      json((req) => services.content.get(section.type, String(req.params.id))),
    );
  }

  const visitor = (req: Request) => ({
    ip: req.ip ?? "unknown",
    isBot: typeof req.body?.[HONEYPOT_FIELD] === "string" && req.body[HONEYPOT_FIELD].trim() !== "",
  });

  api.post(
    "/add-message",
    json(async (req, res) => {
      const { id } = await services.inbox.sendMessage(req.body, visitor(req));
      res.status(201);
      return { acknowledged: true, insertedId: id };
    }),
  );

  api.post(
    "/add-subscriber",
    json(async (req, res) => {
      const { id, created } = await services.inbox.subscribe(req.body, visitor(req));
      res.status(created ? 201 : 200);
      return { acknowledged: true, insertedId: id };
    }),
  );

  // Identity (spec 1, section 7: /users is the admin list, not public; /me is ours).
  api.get(
    "/users",
    requireAdminApi,
    json(() => services.adminUsers.list()),
  );
  api.get(
    "/users/:id",
    requireAdminApi,
    json((req) => services.adminUsers.get(String(req.params.id))),
  );
  api.get(
    "/me",
    requireUserApi,
    json(async (req) => {
      const viewer = (await viewerOf(req))!;
      return {
        email: viewer.email,
        displayName: viewer.displayName,
        role: viewer.isAdmin ? "Admin" : "Customer",
        emailVerified: viewer.emailVerified,
      };
    }),
  );

  // Orders (spec 1, section 7): a customer sees only their own; an admin all.
  const viewer = async (req: Request) => (await viewerOf(req))!;
  const perPage = (req: Request) => {
    const n = Number(req.query.limit);
    return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 20;
  };
  api.post(
    "/new-order",
    requireUserApi,
    json(async (req, res) => {
      const order = await services.orders.create(await viewer(req), req.body?.packageId, req.body);
      res.status(201);
      return { acknowledged: true, insertedId: order._id };
    }),
  );
  api.get(
    "/orders",
    requireUserApi,
    json(async (req, res) => {
      const { orders, page } = await services.orders.list(await viewer(req), {
        page: req.query.page,
        perPage: perPage(req),
      });
      res.setHeader("X-Total-Count", String(page.total));
      res.setHeader("X-Page", String(page.page));
      res.setHeader("X-Pages", String(page.pages));
      return orders;
    }),
  );
  api.get(
    "/order/:id",
    requireUserApi,
    json(async (req) => services.orders.get(await viewer(req), String(req.params.id))),
  );
  api.put(
    "/order-cancelled/:id",
    requireUserApi,
    json(async (req) => {
      if (req.body?.paymentStatus !== undefined && req.body.paymentStatus !== "Cancelled") {
        throw new AppError(400, "This call only cancels: paymentStatus must be Cancelled", [
          { field: "paymentStatus", message: "paymentStatus must be Cancelled" },
        ]);
      }
      const { modified } = await services.orders.cancel(await viewer(req), String(req.params.id));
      return { acknowledged: true, matchedCount: 1, modifiedCount: modified ? 1 : 0 };
    }),
  );
  api.put(
    "/order/:id",
    requireAdminApi,
    json(async (req) => {
      const r = await services.orders.setPaymentStatus(String(req.params.id), req.body);
      return {
        acknowledged: true,
        matchedCount: 1,
        modifiedCount: r.modified ? 1 : 0,
        membershipValid: r.membershipValid,
      };
    }),
  );
  api.put(
    "/order-status/:id",
    requireAdminApi,
    json(async (req) => {
      const r = await services.orders.setOrderStatus(String(req.params.id), req.body);
      return { acknowledged: true, matchedCount: 1, modifiedCount: r.modified ? 1 : 0 };
    }),
  );
  api.get(
    "/paypal-email",
    requireAdminApi,
    json(() => services.paymentAccounts.list()),
  );

  // Catalogue (spec 1 and 2, section 7): answers {success, data} or {success: false, error}. The session decides who
  // may see an item; the spec's ?email= parameter is accepted and ignored.
  api.get(
    "/all-database",
    envelope("user", async (_req, viewer) => (await services.catalogue.list(viewer)).items),
  );
  api.get(
    "/database/:id",
    envelope("user", (req, viewer) => services.catalogue.get(viewer, String(req.params.id))),
  );
  api.get(
    "/database/:id/templates",
    envelope("user", (req, viewer) => services.catalogue.templatesFor(viewer, String(req.params.id))),
  );
  api.post(
    "/add-database",
    envelope("admin", async (req, viewer, res) => {
      const item = await services.catalogue.add(viewer, req.body);
      res.status(201);
      return item;
    }),
  );
  api.put(
    "/database/:id",
    envelope("admin", (req, viewer) => services.catalogue.update(viewer, String(req.params.id), req.body)),
  );
  api.delete(
    "/database/:id",
    envelope("admin", async (req, viewer) => {
      await services.catalogue.remove(viewer, String(req.params.id));
      return { _id: String(req.params.id) };
    }),
  );
  api.post(
    "/add-item",
    requireAdminApi,
    json(async (req, res) => {
      const item = await services.catalogue.addSimpleItem(await viewer(req), req.body);
      res.status(201);
      return { acknowledged: true, insertedId: item._id };
    }),
  );

  return api;
}

/**
 * The catalogue's answer shape: {success: true, data} or {success: false, error} with a status that means what it
 * says (401 signed out, 403 not allowed, 400 with the field errors, 404, 409). Unexpected failures go to the error
 * handler (500).
 */
function envelope(
  role: "user" | "admin",
  handler: (req: Request, viewer: Viewer, res: Response) => Promise<unknown>,
): RequestHandler {
  return (req, res, next) => {
    const fail = (status: number, error: string, extra: Record<string, unknown> = {}) =>
      void res.status(status).json({ success: false, error, ...extra });
    (async () => {
      const viewer = await viewerOf(req);
      if (!viewer) return fail(401, "Sign in to use this call.");
      if (role === "admin" && !viewer.isAdmin) return fail(403, "You don't have any permission");
      try {
        const data = await handler(req, viewer, res);
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
