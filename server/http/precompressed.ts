import { existsSync } from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Serves the build's .br or .gz copy of a hashed asset when the browser accepts it (made once by
 * scripts/compress-assets.mjs); anything else falls through to the plain static files.
 */
export function precompressedAssets(assetsDir: string): RequestHandler {
  const known = new Map<string, boolean>();
  const has = (file: string) => {
    let v = known.get(file);
    if (v === undefined) known.set(file, (v = existsSync(file)));
    return v;
  };
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = TYPES[path.extname(req.path)];
    if (!type || req.path.includes("..")) return next();
    const accept = String(req.headers["accept-encoding"] ?? "");
    const file = path.join(assetsDir, req.path);
    const encoding =
      /\bbr\b/.test(accept) && has(`${file}.br`) ? "br" : /\bgzip\b/.test(accept) && has(`${file}.gz`) ? "gzip" : null;
    if (!encoding) return next();
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.sendFile(`${file}.${encoding === "br" ? "br" : "gz"}`, { headers: { "Content-Type": type } });
  };
}
