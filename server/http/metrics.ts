import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { AggregatorRegistry } from "@prometheus-io/client";
import { collectProcessMetrics, registry } from "../lib/metrics";

/**
 * `/metrics` in Prometheus's text format (decision 034), never on the public site by default: on a port of its own
 * (METRICS_PORT, on METRICS_HOST), and/or on the site's port for a scraper that sends `Authorization: Bearer
 * METRICS_TOKEN`. With worker processes, the first process adds up every worker's registry; a worker asked on the
 * site's port gets that sum from it.
 */

export const CONTENT_TYPE = registry.contentType;
const ASK = "atelier:metrics?";
const ANSWER = "atelier:metrics!";
const ASK_TIMEOUT_MS = 10_000;

/** The metrics text, as Prometheus reads it. */
export type MetricsText = () => Promise<string>;

/** This process's own metrics (one process serves everything). */
export const ownMetrics: MetricsText = () => registry.metrics();

/**
 * In the first process, with workers: their metrics added up, for its own metrics port and for any worker that asks
 * (the token on the site's port). The library asks each connected worker and waits for all (5 s at most).
 */
export function workersMetrics(): MetricsText {
  const aggregator = new AggregatorRegistry();
  // The sum is the workers' alone, as it was with prom-client: @prometheus-io/client also adds the first process's own
  // registry (its database pool, its memory), which would change what the figures mean to dashboards and alert rules.
  AggregatorRegistry.setRegistries([]);
  const text = () => aggregator.clusterMetrics();
  cluster.on("message", (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== ASK) return;
    text().then(
      (body) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, body }),
      (error: unknown) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, error: String(error) }),
    );
  });
  return text;
}

/** In a worker: answers the first process's requests for this worker's registry, and asks it for the sum. */
export function workerMetrics(): MetricsText {
  collectProcessMetrics();
  new AggregatorRegistry(); // installs the library's answer to the first process's requests
  let next = 0;
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        process.off("message", onMessage);
        reject(new Error("The first process did not answer with the metrics."));
      }, ASK_TIMEOUT_MS);
      const onMessage = (message: { type?: string; id?: number; body?: string; error?: string }) => {
        if (message?.type !== ANSWER || message.id !== id) return;
        clearTimeout(timer);
        process.off("message", onMessage);
        if (message.error !== undefined) reject(new Error(message.error));
        else resolve(message.body ?? "");
      };
      process.on("message", onMessage);
      process.send!({ type: ASK, id });
    });
}

/** Whether a request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

async function answer(req: IncomingMessage, res: ServerResponse, text: MetricsText, token: string | undefined) {
  res.setHeader("Cache-Control", "no-store");
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
    res.statusCode = 401;
    res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.\n");
    return;
  }
  try {
    const body = await text();
    res.setHeader("Content-Type", CONTENT_TYPE);
    res.end(req.method === "HEAD" ? undefined : body);
  } catch (error) {
    res.statusCode = 503;
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(`The metrics could not be gathered: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/** `GET /metrics` on the site's port, for METRICS_TOKEN's bearer (mounted only when the token is set). */
export function metricsRoute(token: string, text: MetricsText): RequestHandler {
  return (req, res, next) => {
    answer(req, res, text, token).catch(next);
  };
}

/** The metrics port: `/metrics` and nothing else (the token too when it is set). Resolves once it listens. */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  token: string | undefined;
  text: MetricsText;
}): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.statusCode = 404;
      res.setHeader("Content-Type", "text/plain; charset=utf-8");
      res.end("Only /metrics is served on this port.\n");
      return;
    }
    void answer(req, res, options.text, options.token);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    server,
    port: typeof address === "object" && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
