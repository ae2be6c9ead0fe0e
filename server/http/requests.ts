import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Request } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import type { Logger } from "../lib/logger";
import { recordRequest } from "../lib/metrics";

/**
 * Every request's id, access line and duration (decision 034). It runs before the page cache, so cache hits are logged
 * and measured like every other request: an id (a trusted proxy's X-Request-Id, or one made here), and when the
 * response is over, one access line (method, route pattern, status, duration, bytes, id) and the duration histogram.
 * Not pino-http: measured on a page-cache hit it cost 14-17 µs a request (its two child loggers and three listeners),
 * about what the hit itself costs; this is one listener and one pino line.
 */

declare module "node:http" {
  interface IncomingMessage {
    /** The request's id (X-Request-Id), set before anything answers it. */
    id?: string;
  }
}

export const REQUEST_ID_HEADER = "x-request-id";
/** An id a trusted proxy may hand us: printable, no spaces or quotes, bounded (a UUID, a trace id, nginx's hex). */
const WELL_FORMED_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/** Whether the peer that sent a request is a proxy we trust (Express's compiled `trust proxy`, asked of hop 0). */
export type TrustProxy = (address: string, hop: number) => boolean;

/** Ids made here: this process's random prefix and a counter (unique across processes and restarts, and cheap). */
const PREFIX = randomBytes(6).toString("base64url");
let made = 0;

/** The request's id: the trusted proxy's X-Request-Id when it is well formed, else a new one. */
export function requestIdFor(req: IncomingMessage, trust: TrustProxy): string {
  const given = req.headers[REQUEST_ID_HEADER];
  if (typeof given === "string" && WELL_FORMED_ID.test(given) && trust(req.socket.remoteAddress ?? "", 0)) return given;
  made = (made + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}-${made.toString(36)}`;
}

const ROUTE = Symbol("route");
const LOGGER = Symbol("logger");
const CHILD = Symbol("child");
interface Observed {
  [ROUTE]?: string;
  [LOGGER]?: Logger;
  [CHILD]?: Logger;
}

/** Names the route pattern a request was answered by, where Express's own route does not say it (pages, files). */
export function setRoute(req: IncomingMessage, pattern: string): void {
  (req as Observed)[ROUTE] = pattern;
}

/** The pattern: the one set, else Express's matched route under its mount point, else the mount point's `/*`. */
export function routePattern(req: IncomingMessage): string {
  const set = (req as Observed)[ROUTE];
  if (set) return set;
  const express = req as Partial<Request>;
  const mount = express.baseUrl ?? "";
  const path = (express.route as { path?: unknown } | undefined)?.path;
  if (typeof path === "string") return mount + path;
  return mount ? `${mount}/*` : "unmatched";
}

/** The logger of a request: every line it writes carries the request's id (made when first asked for). */
export function requestLog(req: IncomingMessage, fallback: Logger): Logger {
  const observed = req as Observed;
  const logger = observed[LOGGER];
  if (!logger) return fallback;
  return (observed[CHILD] ??= logger.child({ reqId: req.id }) as Logger);
}

/**
 * The access logger: call it first for every request, with what answers it at once if it can (the page cache); it sets
 * `req.id`. A request answered at once is logged then (its answer is in the socket's hands); any other when its
 * response closes. Development (`quiet`): requests no route of ours answered (Vite's modules) write no line.
 */
export function requestLogger(options: { logger: Logger; trust: TrustProxy; quiet?: (route: string) => boolean }) {
  const { logger, trust, quiet } = options;
  const finish = (req: IncomingMessage, started: number, sentBefore: number, status: number) => {
    const route = routePattern(req);
    const ms = Math.round((performance.now() - started) * 100) / 100;
    recordRequest(req.method ?? "GET", route, status, ms / 1000);
    if (quiet?.(route)) return;
    const line = { reqId: req.id, method: req.method, route, status, ms, bytes: req.socket.bytesWritten - sentBefore };
    if (status >= 500) logger.error(line, "request");
    else logger.info(line, "request");
  };
  return (req: IncomingMessage, res: ServerResponse, answerAtOnce: () => boolean): boolean => {
    const started = performance.now();
    const sentBefore = req.socket.bytesWritten;
    req.id = requestIdFor(req, trust);
    (req as Observed)[LOGGER] = logger;
    if (answerAtOnce()) {
      finish(req, started, sentBefore, res.statusCode);
      return true;
    }
    // 'close' comes after 'finish', or alone when the client left before the answer was complete: then 499, as nginx
    // says it.
    res.once("close", () => finish(req, started, sentBefore, res.writableFinished ? res.statusCode : 499));
    return false;
  };
}

/**
 * The route pattern of a page address, from React Router's route tree (`/item/:id`, `/` for the home page, `/*` for an
 * unknown address; `.data` for a data request). Remembered by address: a cached page's lookup is a Map hit.
 */
export function pagePatterns(build: ServerBuild): (path: string) => string {
  const routes = tree(build.routes, undefined);
  const known = new Map<string, string>();
  return (path) => {
    let pattern = known.get(path);
    if (pattern === undefined) {
      pattern = patternOf(routes, path);
      if (known.size >= 1000) known.clear();
      known.set(path, pattern);
    }
    return pattern;
  };
}

function tree(manifest: ServerBuild["routes"], parentId: string | undefined): RouteObject[] {
  return Object.values(manifest)
    .filter((r) => r && r.parentId === parentId)
    .map((r) =>
      r!.index
        ? { id: r!.id, index: true, path: r!.path }
        : { id: r!.id, path: r!.path, caseSensitive: r!.caseSensitive, children: tree(manifest, r!.id) },
    );
}

function patternOf(routes: RouteObject[], path: string): string {
  if (path === "/__manifest") return path;
  const data = path.endsWith(".data");
  const page = data ? (path === "/_root.data" ? "/" : path.slice(0, -".data".length)) : path;
  let decoded = page;
  try {
    decoded = decodeURI(page);
  } catch {
    /* an address that is not valid percent-encoding matches as it is */
  }
  const matches = matchRoutes(routes, decoded);
  if (!matches) return "unmatched";
  const segments = matches.map((m) => m.route.path).filter((p): p is string => Boolean(p));
  const pattern = "/" + segments.join("/").replace(/^\/+/, "");
  return data ? `${pattern}.data` : pattern;
}
