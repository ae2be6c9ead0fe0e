import { gzipSync } from "node:zlib";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { contentSecurityPolicy, inlineScriptHashes } from "./security";
import { withAppErrorsLazy } from "./page-errors";

/** A route marks its response as the same for every anonymous visitor with this header (stripped before sending). */
export const PAGE_CACHE_HEADER = "x-page-cache";
export const PAGE_CACHE_ANONYMOUS = "anonymous";

interface Entry {
  status: number;
  headers: [string, string][];
  body: Buffer;
  gzip: Buffer | undefined;
  generation: number;
  storedAt: number;
}

export interface PageCacheOptions {
  /** Changes whenever content changes; entries of an older generation are never served. */
  generation: () => number;
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * React Router behind Express, with a cache of whole responses for anonymous visitors: a public page is rendered once
 * per content change instead of once per view. Requests carrying any cookie (a session) are always rendered.
 */
export function createPagesHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "development" | "production";
  getLoadContext: (req: ExpressRequest) => AppLoadContext;
  cache?: PageCacheOptions;
  /**
   * Whether the database is down right now (asked only after a 5xx): then the answer is 503 with Retry-After, and
   * an anonymous visitor gets the last cached copy of the page, however old, rather than an error.
   */
  databaseDown?: () => Promise<boolean>;
  retryAfterSeconds?: number;
}): RequestHandler & { cacheSize(): number } {
  const handle = createRequestHandler(withAppErrorsLazy(options.build), options.mode);
  const cache = new Map<string, Entry>();
  const max = options.cache?.maxEntries ?? 200;
  const now = options.cache?.now ?? Date.now;

  const handler = (async (req, res, next) => {
    try {
      const cacheable =
        Boolean(options.cache) && req.method === "GET" && !req.headers.cookie && !req.headers.authorization;
      const key = req.originalUrl;
      // An outdated entry stays until a new render replaces it: the copy served if that render fails for want of a
      // database.
      let stale: Entry | undefined;
      if (cacheable) {
        const hit = cache.get(key);
        if (hit && hit.generation === options.cache!.generation() && now() - hit.storedAt < options.cache!.ttlMs) {
          cache.delete(key); // keep recently used entries at the end
          cache.set(key, hit);
          sendEntry(req, res, hit, "HIT");
          return;
        }
        stale = hit;
      }
      const generation = options.cache?.generation();
      const response = await handle(toWebRequest(req, res), options.getLoadContext(req));
      const marked = response.headers.get(PAGE_CACHE_HEADER) === PAGE_CACHE_ANONYMOUS;
      response.headers.delete(PAGE_CACHE_HEADER);
      if (!isHtml(response)) {
        if (marked) res.setHeader("X-Cache", "BYPASS");
        await sendResponse(res, response);
        return;
      }
      // A document is read whole: its inline scripts are hashed into its Content-Security-Policy, once per render.
      const entry = await htmlEntry(response, generation ?? 0, now(), options.mode === "development");
      if (entry.status >= 500 && (entry.status === 503 || (await options.databaseDown?.()))) {
        if (stale) {
          sendEntry(req, res, stale, "STALE");
          return;
        }
        entry.status = 503;
        entry.headers.push(["retry-after", String(options.retryAfterSeconds ?? 10)]);
      }
      if (cacheable && marked && response.status === 200 && !response.headers.has("set-cookie")) {
        entry.gzip = gzip(entry.body);
        if (generation === options.cache!.generation()) {
          cache.set(key, entry);
          while (cache.size > max) cache.delete(cache.keys().next().value!);
        }
        sendEntry(req, res, entry, "MISS");
        return;
      }
      if (marked) res.setHeader("X-Cache", "BYPASS");
      sendEntry(req, res, entry);
    } catch (error) {
      if (res.destroyed) return; // the visitor left while the page was rendering
      next(error);
    }
  }) as RequestHandler & { cacheSize(): number };
  handler.cacheSize = () => cache.size;
  return handler;
}

const isHtml = (response: Response) =>
  response.body !== null && (response.headers.get("content-type") ?? "").startsWith("text/html");

async function htmlEntry(
  response: Response,
  generation: number,
  storedAt: number,
  development: boolean,
): Promise<Entry> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers.entries()].filter(([k]) => k !== "content-security-policy");
  headers.push(["content-security-policy", contentSecurityPolicy(inlineScriptHashes(body), development)]);
  return { status: response.status, headers, body, gzip: undefined, generation, storedAt };
}

const gzip = (body: Buffer, level = 6) => (body.length > 1024 ? gzipSync(body, { level }) : undefined);

function sendEntry(req: ExpressRequest, res: ExpressResponse, entry: Entry, outcome?: "HIT" | "MISS" | "STALE") {
  if (res.destroyed || res.writableEnded) return;
  res.status(entry.status);
  if (outcome) res.setHeader("X-Cache", outcome);
  for (const [k, v] of entry.headers) {
    if (k === "content-security-policy") res.setHeader(k, v);
    else res.append(k, v);
  }
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  const accepted = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  // Cached documents were compressed once; others are compressed here (about 0.4 ms for the landing page).
  const compressed = accepted ? (entry.gzip ?? gzip(entry.body, 4)) : undefined;
  if (compressed) res.setHeader("Content-Encoding", "gzip");
  const body = compressed ?? entry.body;
  res.setHeader("Content-Length", String(body.length));
  res.end(body);
}

/** The same conversion @react-router/express makes. */
function toWebRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const v of values) headers.append(key, v);
    else headers.set(key, values);
  }
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.formBody) {
    init.body = new Uint8Array(req.formBody); // read, bounded and checked by pageForm (body.ts)
  } else if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function sendResponse(res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.body) {
    try {
      await writeReadableStreamToWritable(response.body, res);
    } catch (error) {
      if (res.destroyed || res.writableEnded) return;
      throw error;
    }
  } else {
    res.end();
  }
}
