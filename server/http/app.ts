import { mediaImageSources } from "../media/storage";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import compression from "compression";
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import type { Config } from "../config";
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE, type Database } from "../db/client";
import { isAppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { fromNodeHeaders } from "better-auth/node";
import { apiErrorHandler, createApiRouter, json, requireJsonBody, textBodies } from "./api";
import { BODY_LIMIT_BYTES, bodyLimitFor, boundedRequests, pageForm, storableJson } from "./body";
import { attachViewer, refuseApiKeys, requestPageRole, viewerOf } from "./guards";
import { sameOriginOnly } from "./origin";
import { mediaRoutes } from "./media";
import { importUploadRoutes } from "./imports";
import { precompressedAssets } from "./precompressed";
import { loadStaticImages } from "./static-images";
import { SIMULATOR_REST_PREFIX } from "../services/payments/paypal/simulator";
import { paypalSimulatorRestRoutes } from "./paypal-simulator-rest";
import { paypalSimulatorIpnRoutes } from "./paypal-simulator-ipn";
import { keepWebhookBody } from "./routes/payments";
import { PageCache } from "./page-cache";
import { createPagesHandler, PRIVATE_CACHE_CONTROL } from "./pages";
import { metricsRoute, ownMetrics, type MetricsText } from "./metrics";
import { pagePatterns, REQUEST_ID_HEADER, requestLog, requestLogger, setRoute, type TrustProxy } from "./requests";
import { securityHeaders } from "./security";
import { MAIL_LOGO_ROUTE } from "../mail/logo";
import { mailLogoRoute } from "./mail-logo";
import { collectProcessMetrics } from "../lib/metrics";
import { CLIENT_IP_HEADER } from "../services/my-account-auth";
import { appVersion, versionLabel } from "../version";

export interface AppOptions {
  config: Config;
  database: Database;
  services: Services;
  logger: Logger;
  /** The React Router server build (or a loader of it in development); absent in API-only tests. */
  build?: ServerBuild | (() => Promise<ServerBuild>);
  /** Where the built browser files are (build/client). */
  clientDir?: string;
  /** Extra middleware placed before the pages (Vite's dev server). */
  beforePages?: RequestHandler;
  /** Whether migrations have been applied (health). */
  isReady?: () => boolean;
  /** The text /metrics answers with METRICS_TOKEN: this process's metrics, or (a worker) every worker's, summed. */
  metrics?: MetricsText;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};
/** The REST calls answer for the person their cookie (or API key) says: kept by no cache (decisions 059, 077). */
const privateAnswers: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
  res.vary("Cookie");
  res.vary("Authorization");
  next();
};
/** A call that failed because the database is away answers 503 with Retry-After (a signed-in caller stays so). */
const whenDatabaseDown: ErrorRequestHandler = (error, _req, res, next) => {
  if (!isDatabaseUnavailable(error) && !(isAppError(error) && error.status === 503)) return next(error);
  res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  res.status(503).json({ error: UNAVAILABLE_MESSAGE });
};
/** The API's JSON bodies, each bounded as its address says (server/http/body.ts: an article's save is larger). */
const jsonParsers = new Map<number, RequestHandler>();
const jsonBodies: RequestHandler = (req, res, next) => {
  const { limit } = bodyLimitFor(req.originalUrl.split("?")[0]!);
  let parse = jsonParsers.get(limit);
  if (!parse) {
    parse = express.json({ limit, strict: true, verify: keepWebhookBody });
    jsonParsers.set(limit, parse);
  }
  parse(req, res, next);
};

const unknownApiCall: RequestHandler = (_req, res) => void res.status(404).json({ error: "No such API call." });

export function createApp(options: AppOptions): Express {
  const { config } = options;
  const app = express();
  app.disable("x-powered-by");
  // Never `true` (the left-most X-Forwarded-For address, which the client writes): hops or known proxies only.
  app.set("trust proxy", config.trustProxy);
  collectProcessMetrics();
  const pages = observedRequests(app, options);
  frontMiddleware(app, options);
  healthRoute(app, options);
  apiCalls(app, options);
  const staticImages = options.clientDir ? staticFiles(app, options.clientDir) : {};
  if (options.beforePages) app.use(options.beforePages);
  if (options.build) pageRoutes(app, options, { ...pages, build: options.build, staticImages });
  return app;
}

/**
 * Every request, cache hits included: its id (a trusted proxy's X-Request-Id, or a new one), its access line and its
 * duration (requests.ts). Page cache hits are answered before Express and every middleware (decision 025).
 */
function observedRequests(app: Express, { config, services, logger, build }: AppOptions) {
  // In development, what Vite serves (no route of ours) writes no line.
  const observe = requestLogger({
    logger,
    trust: app.get("trust proxy fn") as TrustProxy,
    quiet: config.env === "development" ? (route) => route === "unmatched" : undefined,
  });
  const pagePattern = pagePatternsOf(build);
  // No page cache in development: edited components must show at once.
  const pageCache =
    build && config.env !== "development"
      ? new PageCache({ generation: services.content.generation, ttlMs: config.contentCacheTtlMs }, (cookie) =>
          services.accounts.pageRoles.roleOf(cookie),
        )
      : undefined;
  if (pageCache) app.locals.pageCache = pageCache;
  // The cache entry carries every header the middleware would have set, and writePage adds the request's id.
  const handle = (app as unknown as { handle: (req: unknown, res: unknown, next?: unknown) => void }).handle;
  (app as unknown as { handle: typeof handle }).handle = function (req, res, next) {
    const request = req as IncomingMessage;
    const response = res as ServerResponse;
    const cached = () => {
      if (!pageCache?.serve(request, response)) return false;
      setRoute(request, pagePattern.now(pathOf(request.url)));
      return true;
    };
    if (observe(request, response, cached)) return;
    response.setHeader(REQUEST_ID_HEADER, String(request.id));
    handle.call(this, req, res, next);
  };
  return { pagePattern, pageCache };
}

/** Headers, compression, /metrics, the uploads with their own bounds, then the general bound, origin and viewer. */
function frontMiddleware(app: Express, { config, services, logger, metrics }: AppOptions) {
  app.use(securityHeaders(config.publicUrl, config.env === "development", mediaImageSources(config.media)));
  // Every text answer compressed (gzip or brotli, as the browser accepts): /__manifest, JSON, robots.txt, the sitemap,
  // SVG. Answers already compressed pass untouched: pages (compressed once with the page cache) and built assets
  // (their .br and .gz files). Under 1 KB it is not worth it.
  app.use(compression());
  // Prometheus's scrape on the site's port: only with METRICS_TOKEN (else /metrics is an unknown page, as any other).
  if (config.metrics.token) app.get("/metrics", noStore, metricsRoute(config.metrics.token, metrics ?? ownMetrics));
  // The media library's files and uploads: before the general body bound, since an upload has its own (10 MB).
  app.use(mediaRoutes({ services, config, logger }));
  // The member import's upload (multipart, up to 50 MB, streamed to DATA_DIR): before the general body bound too.
  app.use(importUploadRoutes({ services, config, logger }));
  app.get(MAIL_LOGO_ROUTE, mailLogoRoute(services));
  app.use(boundedRequests);
  app.use(sameOriginOnly(config.allowedOrigins));
  app.use(attachViewer(services));
  // The client's address as Express decided it (TRUST_PROXY), for better-auth's session records; whatever a client
  // sent under this name is replaced.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? "";
    next();
  });
}

/** Whether the database answers a query within `ms`. */
const databaseAnswers = (database: Database, ms: number) =>
  Promise.race([
    database.pool.query("select 1").then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
  ]).catch(() => false);

/** /healthz: starting, ok or the database unreachable; every answer names the version and commit that answer it. */
function healthRoute(app: Express, { database, isReady }: AppOptions) {
  // During a rolling upgrade, which hosts run which.
  const { version, commit } = appVersion();
  app.get("/healthz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (isReady && !isReady()) {
      res.status(503).json({ status: "starting", version, commit });
      return;
    }
    if (await databaseAnswers(database, 2000)) {
      res.json({ status: "ok", version, commit });
    } else {
      res.status(503).json({ status: "unavailable", error: "The database is unreachable.", version, commit });
    }
  });
}

/** The PayPal simulator's stand-ins, better-auth's calls and the REST API. */
function apiCalls(app: Express, { services, logger }: AppOptions) {
  // The IPN simulator's stand-in for PayPal's verification postback.
  app.use(paypalSimulatorIpnRoutes(services));

  // The simulator's stand-in for PayPal's REST API (PAYPAL_MODE=simulator only): PayPal's paths under a prefix.
  if (services.payments.simulator)
    app.use(SIMULATOR_REST_PREFIX, paypalSimulatorRestRoutes(services.payments.simulator, logger));

  // better-auth's own REST calls, behind our per-IP and per-email limits.
  app.use(
    "/api/auth",
    privateAnswers,
    refuseApiKeys,
    requireJsonBody,
    express.json({ limit: BODY_LIMIT_BYTES, strict: true }),
    storableJson,
    json(async (req, res) => {
      const ip = req.ip ?? "unknown";
      await services.accounts.limitAuthEndpoint(req.path, req.body, ip);
      const response = await services.accounts.auth.handler(authRequest(req));
      // Counted before the answer leaves, so that the next attempt sees this one.
      await services.accounts.afterAuthEndpoint(req.path, req.body, ip, response.status);
      res.status(response.status);
      // Its Cache-Control is ours (privateAnswers): better-auth's "no-store" would drop "private".
      for (const [key, value] of response.headers)
        if (key !== "set-cookie" && key !== "cache-control") res.setHeader(key, value);
      for (const cookie of response.headers.getSetCookie()) res.append("set-cookie", cookie);
      res.end(Buffer.from(await response.arrayBuffer()));
    }),
    whenDatabaseDown,
    apiErrorHandler(logger),
  );

  app.use(
    "/api",
    privateAnswers,
    textBodies(services),
    requireJsonBody,
    jsonBodies,
    storableJson,
    createApiRouter(services),
    unknownApiCall,
    whenDatabaseDown,
    apiErrorHandler(logger),
  );
}

/** The built browser files; answers the shipped images' hashed copies (scripts/hash-images.mjs). */
function staticFiles(app: Express, clientDir: string) {
  // Pages draw the hashed copies; the old addresses still answer.
  const staticImages = loadStaticImages(clientDir);
  app.use(
    "/assets",
    precompressedAssets(path.join(clientDir, "assets")),
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }),
  );
  // Only an address whose first segment names something in build/client can be one of its files: a page's address
  // skips the file lookup (a stat per request).
  const topLevel = new Set(readdirSync(clientDir));
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  app.use((req, res, next) => {
    const first = req.path.split("/", 2)[1] ?? "";
    if (!topLevel.has(first) && !first.includes("%")) return next();
    setRoute(req, topLevel.has(first) ? `/${first}${req.path.length > first.length + 1 ? "/*" : ""}` : "/{file}");
    publicFiles(req, res, next);
  });
  return staticImages;
}

/** Every other address is a page, rendered by React Router (or answered from the page cache). */
function pageRoutes(
  app: Express,
  { config, services, logger, database }: AppOptions,
  pages: ReturnType<typeof observedRequests> & {
    build: NonNullable<AppOptions["build"]>;
    staticImages: ReturnType<typeof loadStaticImages>;
  },
) {
  app.all(
    "/{*splat}",
    (req, _res, next) => {
      pages.pagePattern.of(req.path).then((pattern) => {
        setRoute(req, pattern);
        next();
      }, next);
    },
    pageForm,
    createPagesHandler({
      build: pages.build,
      mode: config.env === "development" ? "development" : "production",
      imageSources: mediaImageSources(config.media),
      getLoadContext: (req) => ({
        services,
        config: publicConfig(config),
        clientIp: req.ip ?? "unknown",
        viewer: () => viewerOf(req),
        staticImages: pages.staticImages,
        requestId: String(req.id),
        logger: requestLog(req, logger),
      }),
      databaseDown: async () => !(await databaseAnswers(database, 1000)),
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      cache: pages.pageCache,
      pageRole: (req) => requestPageRole(req, services.accounts.pageRoles),
      signedIn: async (req) => (await viewerOf(req)) !== null,
    }),
  );
}

const pathOf = (url: string | undefined) => {
  const q = (url ?? "/").indexOf("?");
  return q === -1 ? (url ?? "/") : url!.slice(0, q);
};

/**
 * The route pattern of a page address (requests.ts): `now` for a page-cache hit (the build is loaded: a page was
 * rendered), `of` behind Express (in development the build is loaded per request).
 */
function pagePatternsOf(build: AppOptions["build"]) {
  if (!build) return { now: () => "unmatched", of: async () => "unmatched" };
  if (typeof build !== "function") {
    const patterns = pagePatterns(build);
    return { now: patterns, of: async (path: string) => patterns(path) };
  }
  const byBuild = new WeakMap<ServerBuild, (path: string) => string>();
  let last: ((path: string) => string) | undefined;
  return {
    now: (path: string) => last?.(path) ?? "unmatched",
    of: async (path: string) => {
      const loaded = await build();
      let patterns = byBuild.get(loaded);
      if (!patterns) byBuild.set(loaded, (patterns = pagePatterns(loaded)));
      last = patterns;
      return patterns(path);
    },
  };
}

/** The web Request better-auth's handler takes, from an Express request whose JSON body was read (and checked). */
function authRequest(req: express.Request): Request {
  const headers = fromNodeHeaders(req.headers);
  headers.delete("content-length");
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && req.body !== undefined;
  return new Request(`${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`, {
    method: req.method,
    headers,
    body: hasBody ? JSON.stringify(req.body) : undefined,
  });
}

/** What pages may know of the configuration: nothing secret. */
export function publicConfig(config: Config) {
  return {
    publicUrl: config.publicUrl,
    env: config.env,
    timeZone: config.timeZone,
    generationDelayMs: config.generationDelayMs,
    /** The version and commit that run, "0.1.0 (a4da96a)", for the back office's footer (server/version.ts). */
    version: versionLabel(appVersion()),
    commit: appVersion().commit,
  };
}
export type PublicConfig = ReturnType<typeof publicConfig>;
