import type { Request, RequestHandler } from "express";
import { fromNodeHeaders } from "better-auth/node";
import type { Services } from "../services";
import type { Viewer } from "../services/accounts";

declare module "express-serve-static-core" {
  interface Request {
    /** Who is asking, resolved once per request (null when signed out). */
    viewer?: () => Promise<Viewer | null>;
  }
}

/** Attaches a memoised `req.viewer()` to every request: the session is looked up at most once, and only if asked. */
export function attachViewer(services: Services): RequestHandler {
  return (req, _res, next) => {
    let pending: Promise<Viewer | null> | undefined;
    req.viewer = () => (pending ??= services.accounts.viewer(fromNodeHeaders(req.headers)));
    next();
  };
}

export async function viewerOf(req: Request): Promise<Viewer | null> {
  return req.viewer ? req.viewer() : null;
}

/** REST guards: 401 signed out, 403 signed in without the right. One per role; every handler that needs one uses it. */
export const requireUserApi: RequestHandler = (req, res, next) => {
  viewerOf(req).then((viewer) => {
    if (!viewer) return void res.status(401).json({ error: "Sign in to use this call." });
    next();
  }, next);
};

export const requireAdminApi: RequestHandler = (req, res, next) => {
  viewerOf(req).then((viewer) => {
    if (!viewer) return void res.status(401).json({ error: "Sign in to use this call." });
    if (!viewer.isAdmin) return void res.status(403).json({ error: "You don't have any permission" });
    next();
  }, next);
};
