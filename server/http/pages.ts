import { gzipSync } from "node:zlib";
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type { PageRole } from "../services/page-role";
import { headerList, writePage, type PageCache } from "./page-cache";
import { contentSecurityPolicy, inlineScriptHashes } from "./security";
import { withAppErrorsLazy } from "./page-errors";

/**
 * A route marks its response as the same for every visitor of a role (visitor, customer, admin) with this header
 * (stripped before sending): `anonymous`, or `anonymous; reads=a,b` when the page reads query parameters a and b.
 */
export const PAGE_CACHE_HEADER = "x-page-cache";
export const PAGE_CACHE_ANONYMOUS = "anonymous";

/** The query parameters a marked response says its page reads; undefined when the response is not marked. */
export function pageCacheReads(marker: string | null): string[] | undefined {
  if (!marker) return undefined;
  const [kind, ...params] = marker.split(";").map((p) => p.trim());
  if (kind !== PAGE_CACHE_ANONYMOUS) return undefined;
  const reads = params.find((p) => p.startsWith("reads="));
  return reads
    ? reads
        .slice("reads=".length)
        .split(",")
        .map((r) => r.trim())
        .filter(Boolean)
    : [];
}

/**
 * What an answer made for one person says to caches (issue 33, decision 059): neither a shared cache nor the browser
 * keeps it, so that the back button after signing out on a shared computer shows nothing of it.
 */
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * The private Cache-Control for an answer whose own said `given`: its "no-transform" is kept (a download such as a
 * backup keeps its length and bytes: compression leaves it alone).
 */
export function privateCacheControl(given: string | null): string {
  return /\bno-transform\b/i.test(given ?? "") ? `${PRIVATE_CACHE_CONTROL}, no-transform` : PRIVATE_CACHE_CONTROL;
}

/** Adds a name to a Vary header's list, once. */
export function addVary(headers: Headers, name: string) {
  const names = (headers.get("vary") ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  if (!names.some((v) => v === "*" || v.toLowerCase() === name.toLowerCase()))
    headers.set("vary", [...names, name].join(", "));
}

interface Rendered {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

interface PagesOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "development" | "production";
  getLoadContext: (req: ExpressRequest) => AppLoadContext;
  cache?: PageCache;
  /** The role a request's page is rendered for (from the role cookie, else the session) and the cookie to set. */
  pageRole?: (req: ExpressRequest) => Promise<{ role: PageRole; setCookie?: string }>;
  /**
   * Whether the database is down right now (asked only after a 5xx): then the answer is 503 with Retry-After, and
   * a visitor gets the last cached copy of the page, however old, rather than an error.
   */
  databaseDown?: () => Promise<boolean>;
  retryAfterSeconds?: number;
  /** Origins pages load images from besides ours and https (the Content-Security-Policy's img-src). */
  imageSources?: readonly string[];
  /** Whether the request is a signed-in person's (their answers are private); a failed lookup counts as signed in. */
  signedIn?: (req: ExpressRequest) => Promise<boolean>;
}

/** The handler's parts: its options, React Router's handler, and the renders under way, by cache key. */
interface Pages {
  options: PagesOptions;
  handle: ReturnType<typeof createRequestHandler>;
  renders: Map<string, Promise<void>>;
}

/**
 * React Router behind Express, with the page cache (page-cache.ts): a public page is rendered once per content
 * change and role instead of once per view. Hits are normally answered before Express (`PageCache.serve`); this
 * handler serves the rest: misses, variants whose role the cookies did not prove (looked up once, then proved by the
 * role cookie it sets), and the stale copy while the database is away.
 */
export function createPagesHandler(options: PagesOptions): RequestHandler & { cacheSize(): number } {
  const pages: Pages = {
    options,
    handle: createRequestHandler(withAppErrorsLazy(options.build), options.mode),
    renders: new Map(),
  };
  const { cache } = options;
  const handler = (async (req, res, next) => {
    let finish: (() => void) | undefined;
    try {
      const cacheable =
        cache !== undefined && (req.method === "GET" || req.method === "HEAD") && !req.headers.authorization;
      const looked: Lookup | "served" =
        cacheable && cache.knows(req.originalUrl) ? await lookUp(pages, cache, req, res) : { url: req.originalUrl };
      if (looked === "served") return;
      finish = looked.finish;
      await render(pages, req, res, cacheable, looked);
    } catch (error) {
      if (res.destroyed) return; // the visitor left while the page was rendering
      next(error);
    } finally {
      finish?.();
    }
  }) as RequestHandler & { cacheSize(): number };
  handler.cacheSize = () => cache?.size ?? 0;
  return handler;
}

/** The role for this request, or undefined when it cannot be known (then nothing is cached or served from cache). */
async function roleFor({ pageRole }: PagesOptions, req: ExpressRequest) {
  if (!pageRole) return undefined;
  try {
    return await pageRole(req);
  } catch {
    return undefined; // the session could not be looked up (database away): render as before, uncached
  }
}

async function isSignedIn(options: PagesOptions, req: ExpressRequest) {
  if (!options.signedIn) return false;
  try {
    return await options.signedIn(req);
  } catch {
    return true; // the session could not be looked up: private is the safe side
  }
}

/**
 * Whether the answer is one person's: made for a signed-in person or setting a cookie, and not one of the answers
 * that are the same for everyone (a public page's HTML, which the page cache serves, or a file marked public).
 */
const isPrivate = async (options: PagesOptions, req: ExpressRequest, response: Response, publicPage: boolean) =>
  !publicPage &&
  !/\bpublic\b/.test(response.headers.get("cache-control") ?? "") &&
  (response.headers.has("set-cookie") || (await isSignedIn(options, req)));

/**
 * What the page cache knows of a request it may answer: its role; an outdated entry, which stays until a new render
 * replaces it (the copy served if that render fails for want of a database); the address to render; and, for the
 * render this request makes, the end of its turn.
 */
interface Lookup {
  role?: Awaited<ReturnType<typeof roleFor>>;
  stale?: ReturnType<PageCache["stale"]>;
  staleKey?: string;
  url: string;
  finish?: () => void;
}

/** Answers a fresh entry ("served"), or says what to render. */
async function lookUp(
  { options, renders }: Pages,
  cache: PageCache,
  req: ExpressRequest,
  res: ExpressResponse,
): Promise<Lookup | "served"> {
  const role = await roleFor(options, req);
  const key = role && cache.keyOf(req.originalUrl, role.role);
  if (!key) return { role, url: req.originalUrl };
  // One render per entry at a time: requests that come meanwhile wait for it and take its copy (fifty visitors
  // arriving at once after a content change cost one render, not fifty).
  const rendering = renders.get(key);
  if (rendering) await rendering;
  const hit = cache.fresh(key);
  if (hit) {
    writePage(req, res, hit, "HIT", role!.setCookie);
    return "served";
  }
  // Rendered as the address without what the page does not read.
  const looked: Lookup = { role, stale: cache.stale(key), staleKey: key, url: cache.canonical(req.originalUrl)! };
  if (!renders.has(key)) {
    let done!: () => void;
    renders.set(key, new Promise<void>((resolve) => (done = resolve)));
    looked.finish = () => {
      renders.delete(key);
      done();
    };
  }
  return looked;
}

/** Renders the page and answers it: stored in the cache when it is one for all of its role, else sent as it is. */
async function render(
  { options, handle }: Pages,
  req: ExpressRequest,
  res: ExpressResponse,
  cacheable: boolean,
  { stale, staleKey, url, ...looked }: Lookup,
) {
  const { cache } = options;
  const generation = cache?.generation();
  const request = toWebRequest(req, res, url, cacheable ? "GET" : req.method);
  const response = await handle(request, options.getLoadContext(req));
  const reads = pageCacheReads(response.headers.get(PAGE_CACHE_HEADER));
  response.headers.delete(PAGE_CACHE_HEADER);
  if (await isPrivate(options, req, response, reads !== undefined && isHtml(response))) {
    response.headers.set("cache-control", privateCacheControl(response.headers.get("cache-control")));
    addVary(response.headers, "Cookie");
  }
  // The address answered again, with no page for all of its role (a redirect, a page made for this person, one
  // taken down): an older copy of it is no longer its page, and is not to be served stale while the database is
  // away. A failure (5xx) keeps it: that copy is what a visitor gets instead of an error.
  const forgetStale = (status: number, kept: boolean) => {
    if (staleKey && status < 500 && !kept) cache?.forget(staleKey);
  };
  if (!isHtml(response)) {
    forgetStale(response.status, false);
    if (reads) res.setHeader("X-Cache", "BYPASS");
    await sendResponse(res, response);
    return;
  }
  // A document is read whole: its inline scripts are hashed into its Content-Security-Policy, once per render.
  const page = await renderedPage(response, options.mode === "development", options.imageSources);
  if (page.status >= 500 && (page.status === 503 || (await options.databaseDown?.()))) {
    if (stale) {
      writePage(req, res, stale, "STALE");
      return;
    }
    page.status = 503;
    page.headers.push(["retry-after", String(options.retryAfterSeconds ?? 10)]);
  }
  if (cacheable && reads && page.status === 200 && !response.headers.has("set-cookie")) {
    const role = looked.role ?? (await roleFor(options, req));
    if (role) {
      // Every header this answer carries, the middleware's included (the page's own win): a hit sends these.
      const own = new Set(page.headers.map(([k]) => k));
      const base = [...headerList(Object.entries(res.getHeaders())).filter(([k]) => !own.has(k)), ...page.headers];
      const entry = cache!.store(role.role, url, reads, { base, body: page.body, generation: generation! });
      writePage(req, res, entry, "MISS", role.setCookie);
      return;
    }
  }
  forgetStale(page.status, reads !== undefined && page.status === 200);
  if (reads) res.setHeader("X-Cache", "BYPASS");
  sendRendered(req, res, page);
}

const isHtml = (response: Response) =>
  response.body !== null && (response.headers.get("content-type") ?? "").startsWith("text/html");

async function renderedPage(
  response: Response,
  development: boolean,
  imageSources: readonly string[] = [],
): Promise<Rendered> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers.entries()].filter(([k]) => k !== "content-security-policy");
  headers.push(["content-security-policy", contentSecurityPolicy(inlineScriptHashes(body), development, imageSources)]);
  return { status: response.status, headers, body };
}

const gzip = (body: Buffer) => (body.length > 1024 ? gzipSync(body, { level: 4 }) : undefined);

/** An answer that is not cached: compressed here when accepted (about 0.4 ms for the landing page). */
function sendRendered(req: ExpressRequest, res: ExpressResponse, page: Rendered) {
  if (res.destroyed || res.writableEnded) return;
  res.status(page.status);
  for (const [k, v] of page.headers) {
    if (k === "content-security-policy") res.setHeader(k, v);
    else res.append(k, v);
  }
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  const accepted = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const compressed = accepted ? gzip(page.body) : undefined;
  if (compressed) res.setHeader("Content-Encoding", "gzip");
  const body = compressed ?? page.body;
  res.setHeader("Content-Length", String(body.length));
  res.end(body);
}

/** The same conversion @react-router/express makes. */
function toWebRequest(req: ExpressRequest, res: ExpressResponse, address: string, method: string): Request {
  const url = new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${address}`);
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
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (req.formBody) {
    init.body = new Uint8Array(req.formBody); // read, bounded and checked by pageForm (body.ts)
  } else if (method !== "GET" && method !== "HEAD") {
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
