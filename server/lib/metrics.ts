import { performance } from "node:perf_hooks";
import type pg from "pg";
import client, { Counter, Gauge, Histogram, type Aggregator } from "@prometheus-io/client";

/**
 * The app's metrics (decision 034), on @prometheus-io/client's global registry (prom-client under its new name, since
 * issue 38): one set per process. With several worker processes the first process asks each worker for its registry
 * and adds them up (its AggregatorRegistry, server/http/metrics.ts); each metric says how it adds up: counters and
 * histograms sum, a figure every worker reads from the same database (queue depth, backup time) takes the largest (or
 * smallest, for an age).
 *
 * What counts on a hot path (a request, a page-cache hit) is a Map lookup and the library's own increment.
 */
export const registry = client.register;

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A job queue's counts as pg-boss keeps them (its monitor refreshes them about once a minute). */
export interface QueueCounts {
  name: string;
  queuedCount: number;
  activeCount: number;
  deferredCount: number;
  failedCount: number;
}

interface ObservedPool {
  name: string;
  pool: pg.Pool;
  max: number;
}

type Backups = { last?: Date; source?: () => Promise<Date | undefined> };

function createMetrics() {
  const queueSources = new Set<() => Promise<QueueCounts[]>>();
  const pools = new Set<ObservedPool>();
  const backups: Backups = {};
  const metrics = { queueSources, pools, backups, processMetrics: false, ...recordedMetrics() };
  jobGauge(queueSources, metrics.jobFailures);
  backupGauges(backups);
  poolGauges(pools);
  return metrics;
}

/** A counter with its label values shown from the start (at 0), as Prometheus's rate() wants. */
function zeroed<T extends string>(counter: Counter<T>, outcomes: string[]) {
  for (const outcome of outcomes) counter.labels(outcome).inc(0);
  return counter;
}

/** What the app counts as it goes: requests, the page cache, mails, failed jobs, waits for a connection. */
function recordedMetrics() {
  const pageCache = new Counter({
    name: "atelier_page_cache_requests_total",
    help: "Page requests answered from the page cache (hit), rendered and stored (miss), or its outdated copy while the database is away (stale).",
    labelNames: ["outcome"] as const,
  });
  return {
    http: new Histogram({
      name: "atelier_http_request_duration_seconds",
      help: "Time from a request's arrival to its response's last byte, by method, route pattern and status (499: the client left first).",
      labelNames: ["method", "route", "status"] as const,
      buckets: DURATION_BUCKETS,
    }),
    httpChildren: new Map<string, Histogram.Internal<"method" | "route" | "status">>(),
    pageCache: {
      HIT: zeroed(pageCache, ["hit", "miss", "stale"]).labels("hit"),
      MISS: pageCache.labels("miss"),
      STALE: pageCache.labels("stale"),
    },
    mails: zeroed(
      new Counter({
        name: "atelier_mails_total",
        help: "Mails handed to SMTP or written to the outbox (sent), or that could not be (failed; a queued mail is retried).",
        labelNames: ["outcome"] as const,
      }),
      ["sent", "failed"],
    ),
    jobFailures: new Counter({
      name: "atelier_job_failures_total",
      help: "Background job attempts that failed, by queue (each retry counts).",
      labelNames: ["queue"] as const,
    }),
    poolWait: new Histogram({
      name: "atelier_db_pool_acquire_seconds",
      help: "How long a query or transaction waited for a database connection (a free one: well under 1 ms; a new one: its connect; none: the wait for one).",
      labelNames: ["pool"] as const,
      buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    }),
  };
}

/** The job queues' counts, read from each source when scraped. */
function jobGauge(queueSources: Set<() => Promise<QueueCounts[]>>, jobFailures: Counter<"queue">) {
  new Gauge({
    name: "atelier_jobs",
    help: "Background jobs by queue and state: queued (ready or deferred), deferred, active, failed (kept for a while).",
    labelNames: ["queue", "state"] as const,
    // Every worker reads the same database: its figures are not added up.
    aggregator: "max",
    async collect() {
      this.reset();
      for (const source of queueSources) {
        const queues = await withTimeout(source(), 2_000).catch(() => []);
        // pg-boss's own queues (`__pgboss__…`) are its plumbing, not ours.
        for (const q of queues.filter((q) => !q.name.startsWith("__pgboss__"))) {
          jobFailures.labels(q.name).inc(0); // every queue's failures start at 0, so rate() has a start
          this.set({ queue: q.name, state: "queued" }, q.queuedCount);
          this.set({ queue: q.name, state: "deferred" }, q.deferredCount);
          this.set({ queue: q.name, state: "active" }, q.activeCount);
          this.set({ queue: q.name, state: "failed" }, q.failedCount);
        }
      }
    },
  });
}

/** The newest backup known: the last one made here, or a newer one its source reads (at most 2 s). */
async function newestBackup(backups: Backups) {
  const read = backups.source ? await withTimeout(backups.source(), 2_000).catch(() => undefined) : undefined;
  if (read && (!backups.last || read > backups.last)) backups.last = read;
  return backups.last;
}

/** When the newest backup was made, and its age. */
function backupGauges(backups: Backups) {
  new Gauge({
    name: "atelier_backup_last_success_timestamp_seconds",
    help: "When the newest finished backup was made (Unix time; 0: none known).",
    aggregator: "max",
    async collect() {
      const at = await newestBackup(backups);
      this.set(at ? at.getTime() / 1000 : 0);
    },
  });
  new Gauge({
    name: "atelier_backup_age_seconds",
    help: "Seconds since the newest finished backup was made (+Inf: none known).",
    aggregator: "min",
    async collect() {
      const at = await newestBackup(backups);
      this.set(at ? Math.max(0, (Date.now() - at.getTime()) / 1000) : Infinity);
    },
  });
}

/** The database pools' connections: open, in use, waited for, at most. */
function poolGauges(pools: Set<ObservedPool>) {
  const poolGauge = (name: string, help: string, read: (p: ObservedPool) => number, aggregator: Aggregator = "sum") =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"] as const,
      aggregator,
      collect() {
        this.reset();
        for (const p of pools) this.set({ pool: p.name }, read(p));
      },
    });
  poolGauge("atelier_db_pool_connections", "Database connections open in the pool.", (p) => p.pool.totalCount);
  poolGauge("atelier_db_pool_connections_in_use", "Database connections running a query or a transaction.", (p) =>
    Math.max(0, p.pool.totalCount - p.pool.idleCount),
  );
  poolGauge(
    "atelier_db_pool_waiting",
    "Queries waiting for a database connection right now.",
    (p) => p.pool.waitingCount,
  );
  poolGauge("atelier_db_pool_max", "The most connections the pool opens.", (p) => p.max);
}

/**
 * One set per registry, kept on it: the server bundle and the pages' bundle each hold a copy of this module (server code
 * the pages import), and a metric is registered once.
 */
const KEY = Symbol.for("atelier.metrics");
const shared = registry as typeof registry & { [KEY]?: ReturnType<typeof createMetrics> };
const metrics = (shared[KEY] ??= createMetrics());

/** Node's own figures (event-loop delay, memory, heap, GC, handles), once per process. */
export function collectProcessMetrics(): void {
  if (metrics.processMetrics) return;
  metrics.processMetrics = true;
  client.collectDefaultMetrics({ register: registry });
}

/** One answered request: `route` is its pattern (`/item/:id`, never the address itself); status 499: the client left. */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${status} ${route}`;
  let child = metrics.httpChildren.get(key);
  if (!child) {
    // Bounded by the routes × statuses there are; an unknown method counts as OTHER.
    if (metrics.httpChildren.size >= 5000) metrics.httpChildren.clear();
    child = metrics.http.labels(METHODS.has(method) ? method : "OTHER", route, String(status));
    metrics.httpChildren.set(key, child);
  }
  child.observe(seconds);
}

export function countPageCache(outcome: "HIT" | "MISS" | "STALE"): void {
  metrics.pageCache[outcome].inc();
}

export function countMail(outcome: "sent" | "failed"): void {
  metrics.mails.labels(outcome).inc();
}

export function countJobFailure(queue: string): void {
  metrics.jobFailures.labels(queue).inc();
}

/** A running job queue whose depth the metrics report at each scrape; returns how to stop. */
export function reportJobQueues(source: () => Promise<QueueCounts[]>): () => void {
  metrics.queueSources.add(source);
  return () => metrics.queueSources.delete(source);
}

/**
 * Backups (the hook for the backup service): `recordBackup` when one finishes, and/or `reportBackups` with a reader of
 * the newest finished backup's time, asked at each scrape. With neither, the gauges say 0 and +Inf (none known).
 */
export function recordBackup(finishedAt: Date): void {
  if (!metrics.backups.last || finishedAt > metrics.backups.last) metrics.backups.last = finishedAt;
}
export function reportBackups(source: () => Promise<Date | undefined>): () => void {
  metrics.backups.source = source;
  return () => {
    if (metrics.backups.source === source) metrics.backups.source = undefined;
  };
}

/**
 * Reports a node-postgres pool: its connections at each scrape, and how long each checkout waited for one (every
 * checkout: whether it will wait cannot be told when it starts, as the pool hands out free connections a tick later).
 * Returns how to stop reporting it (when the pool ends).
 */
export function observePool(name: string, pool: pg.Pool, max: number): () => void {
  const observed = { name, pool, max };
  metrics.pools.add(observed);
  const waits = metrics.poolWait.labels(name);
  type Callback = (...args: unknown[]) => void;
  const connect = pool.connect.bind(pool) as (callback?: Callback) => unknown;
  const timed = (callback?: Callback) => {
    const started = performance.now();
    const waited = () => waits.observe((performance.now() - started) / 1000);
    if (!callback) return (connect() as Promise<unknown>).finally(waited);
    return connect((...args: unknown[]) => {
      waited();
      callback(...args);
    });
  };
  (pool as unknown as { connect: typeof timed }).connect = timed;
  return () => metrics.pools.delete(observed);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
