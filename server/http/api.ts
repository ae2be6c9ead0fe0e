import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { BODY_LIMIT_BYTES } from "./body";
import { isAppError, type AppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { keyRefusal } from "#domain/api-keys.ts";
import type { Viewer } from "../services/accounts";
import type { ApiKeysService } from "../services/api-keys";
import { admit, bearerOf, keyViewer, viewerOf } from "./guards";
import { requestLog, routePattern } from "./requests";
import { apiRoutes, type ApiRoute } from "./routes";

/** Runs an async handler and sends its result as JSON (or lets it respond itself). */
export const json =
  (handler: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    handler(req, res).then((body) => {
      if (!res.headersSent) res.json(body);
    }, next);
  };

/** The JSON REST API under /api, registered from the route table (server/http/routes/). */
export function createApiRouter(services: Services): Router {
  const api = Router({ caseSensitive: true });
  for (const route of apiRoutes(services)) api[route.method](route.path, call(route, services.apiKeys));
  return api;
}

/**
 * One call: admits the viewer (the only access check), runs the handler and answers its result as JSON. A catalogue
 * call answers {success: true, data}, and its refusals and AppErrors {success: false, error} with a status that means
 * what it says; any other call's failures go to the error handler, as do a catalogue call's unexpected ones (500).
 * A request with `Authorization: Bearer` is an API key's (decision 077): the key is checked (401 unknown or revoked,
 * 429 over its rate limit), then admitted by its areas and access (403 naming the area it lacks), whatever cookie
 * came with it.
 */
function call(route: ApiRoute, apiKeys: ApiKeysService): RequestHandler {
  return (req, res, next) => {
    const refuse = (status: number, body: Record<string, unknown>) =>
      void res.status(status).json(route.envelope ? { success: false, ...body } : body);
    (async () => {
      let data: unknown;
      const bearer = bearerOf(req);
      let viewer: Viewer | null = null;
      if (bearer !== null) {
        const checked = await apiKeys.authenticate(bearer);
        if ("refused" in checked) {
          const { refused } = checked;
          if (refused.status === 429) res.setHeader("Retry-After", String(refused.retryAfterSeconds));
          else res.setHeader("WWW-Authenticate", 'Bearer realm="api"');
          return refuse(refused.status, { error: refused.error });
        }
        const area = route.access === "public" ? undefined : route.area;
        const refusal = keyRefusal(checked.key, {
          access: route.access,
          area,
          method: req.method,
          noKeys: route.noKeys,
        });
        if (refusal)
          return refuse(refusal.status, { error: refusal.error, ...(refusal.area ? { area: refusal.area } : {}) });
        viewer = keyViewer(checked.key);
      }
      if (route.access === "public") data = await route.handler(req, res);
      else {
        const admitted = viewer ? { viewer } : admit(route.access, await viewerOf(req), route.area);
        if ("refused" in admitted) {
          const { status, error } = admitted.refused;
          return refuse(status, { error });
        }
        data = await route.handler(req, res, admitted.viewer);
      }
      if (!res.headersSent) res.json(route.envelope ? { success: true, data } : data);
    })().catch((error: unknown) => {
      if (route.envelope && isAppError(error)) return sendAppError(res, error, { success: false });
      next(error);
    });
  };
}

/** An AppError as JSON: its message, and the field errors (the first one's field named) when there are some. */
function sendAppError(res: Response, error: AppError, extra: Record<string, unknown> = {}) {
  const [first] = error.errors;
  const body = first
    ? { ...extra, error: error.message, field: first.field, errors: error.errors }
    : { ...extra, error: error.message };
  if (error.status === 429) res.setHeader("Retry-After", "600");
  res.status(error.status).json(body);
}

/**
 * The bodies of the calls the route table says are no JSON (`body: "text"`): read as text (bounded), kept in
 * `req.rawBody`, the parsed body left empty; the JSON rule below then lets them through.
 */
export function textBodies(services: Services): Router {
  const router = Router({ caseSensitive: true });
  const read = express.text({ type: () => true, limit: BODY_LIMIT_BYTES });
  for (const route of apiRoutes(services))
    if (route.body === "text")
      router[route.method](route.path, read, (req, _res, next) => {
        req.rawBody = typeof req.body === "string" ? req.body : "";
        req.body = {};
        next();
      });
  return router;
}

/** Only JSON bodies are accepted on the API's write calls (except those read as text by textBodies). */
export const requireJsonBody: RequestHandler = (req, res, next) => {
  if (req.rawBody !== undefined) return next();
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
    if (isAppError(error)) return sendAppError(res, error);
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
    // The route's pattern, never its address (a reset link's token is in one); the request's id links the two lines.
    requestLog(req, logger).error({ method: req.method, route: routePattern(req), error }, "api error");
    res.status(500).json({ error: "Something went wrong on our side. Please try again.", reference: req.id });
  };
}
