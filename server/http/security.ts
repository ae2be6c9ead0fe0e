import { createHash } from "node:crypto";
import type { RequestHandler } from "express";

/**
 * The Content-Security-Policy of an answer. Scripts come from our origin; the only inline scripts allowed are the
 * ones listed by hash, which the page handler computes from the HTML it rendered (React Router's hydration data and
 * module imports). Anything else inline, injected or not, does not run.
 */
export function contentSecurityPolicy(
  scriptHashes: readonly string[] = [],
  development = false,
  /** Origins pages load images from besides ours and https (MEDIA_PUBLIC_URL's, decision 081). */
  imageSources: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((h) => `'${h}'`)].join(" "),
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' https: data:", ...imageSources].join(" "),
    "font-src 'self' data:",
    // In development Vite's hot reload talks over its own WebSocket port.
    development ? "connect-src 'self' ws://localhost:* ws://127.0.0.1:*" : "connect-src 'self'",
    "frame-src https://www.youtube-nocookie.com https://www.youtube.com",
    "form-action 'self' https://www.paypal.com https://www.sandbox.paypal.com",
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join("; ");
}

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * A JSON data block (`application/ld+json`, `application/json`): the browser never runs it, and script-src does not
 * apply to it. Any other type (none, JavaScript, module, importmap, speculationrules) is hashed.
 */
const DATA_BLOCK = /\btype\s*=\s*["']?application\/(?:ld\+)?json["'\s>]/i;

/**
 * sha256 sources of every inline script of an HTML document (scripts with a src are covered by 'self'; JSON data
 * blocks such as the structured data run nowhere and need none).
 */
export function inlineScriptHashes(html: Buffer | string): string[] {
  const text = typeof html === "string" ? html : html.toString("utf8");
  const hashes = new Set<string>();
  for (const [, attributes, body] of text.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!) || body === "" || DATA_BLOCK.test(`${attributes!}>`)) continue;
    hashes.add(`sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}`);
  }
  return [...hashes];
}

/** Headers every answer carries; HTML pages get their own script hashes from the page handler. */
export function securityHeaders(
  publicUrl: string,
  development: boolean,
  imageSources: readonly string[] = [],
): RequestHandler {
  const https = publicUrl.startsWith("https://");
  const csp = contentSecurityPolicy([], development, imageSources);
  return (_req, res, next) => {
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (https) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
