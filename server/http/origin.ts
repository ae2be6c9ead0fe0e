import type { RequestHandler } from "express";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request refusal: a state-changing request (pages or API) whose Origin is not ours is answered 403.
 * Browsers send Origin on every such request; one without it is accepted unless Fetch Metadata says it is cross-site
 * (programs such as curl send neither).
 */
export function sameOriginOnly(allowed: string[]): RequestHandler {
  const origins = new Set(allowed);
  return (req, res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.headers.origin;
    const site = req.headers["sec-fetch-site"];
    const refused =
      origin !== undefined ? !origins.has(origin) : site !== undefined && site !== "same-origin" && site !== "none";
    if (!refused) return next();
    const message = "This request came from another site and was refused.";
    if (req.path.startsWith("/api/") || req.accepts(["json", "html"]) === "json") {
      res.status(403).json({ error: message });
    } else {
      res.status(403).type("text/plain").send(message);
    }
  };
}
