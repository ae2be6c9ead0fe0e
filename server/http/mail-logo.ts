import type { RequestHandler } from "express";
import type { Services } from "../services";

const YEAR = "public, max-age=31536000, immutable";
const HOUR = "public, max-age=3600";

/**
 * `GET /mail/logo-{version}.png`: the mails' logo (server/mail/logo.ts), the PNG drawn from the site's current logo.
 * The version it is asked for is the PNG's hash, so that address keeps its bytes and is cached for a year; an older
 * version (a mail sent before the logo changed) is answered with today's logo, cached for an hour.
 */
export function mailLogoRoute(services: Pick<Services, "mails">): RequestHandler {
  return (req, res, next) => {
    services.mails.logoPng().then((png) => {
      if (!png) return void res.status(404).type("text/plain").send("No logo");
      const etag = `"${png.version}"`;
      res.setHeader("Cache-Control", req.params.version === png.version ? YEAR : HOUR);
      res.setHeader("ETag", etag);
      res.setHeader("Content-Type", "image/png");
      res.setHeader("X-Content-Type-Options", "nosniff");
      if (req.headers["if-none-match"] === etag) return void res.status(304).end();
      res.setHeader("Content-Length", String(png.data.length));
      res.end(png.data);
    }, next);
  };
}
