import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { Express } from "express";
import { loadConfig, type Config } from "#server/config.ts";
import { createApp, type AppOptions } from "#server/http/app.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createServices, type Services } from "#server/services/index.ts";
import { createTestDatabase } from "./db";
import type { CookieJar } from "./session";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface TestApp {
  url: string;
  /** The Express app (its locals: the page cache). */
  express: Express;
  /** The HTTP server it listens on (its "request" events: what has arrived). */
  server: Server;
  services: Services;
  config: Config;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** fetch against the app; JSON bodies are sent with the right content type. */
  request(path: string, init?: RequestInit & { json?: unknown; jar?: CookieJar }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real Express app and services on a fresh database, listening on a free loopback port. Options: `now`, the
 * services' clock (the injectable one), for tests that move time; `pages: true` serves the pages through Vite (as
 * `npm run dev` does), for tests that open them; or `build`/`beforePages` give a React Router build directly.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: {
    now?: () => Date;
    pages?: boolean;
  } & Pick<AppOptions, "build" | "beforePages"> = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "atelier-app-")),
    AUTH_SECRET: "x".repeat(40),
    // Staff sign in with a password alone in the shared fixtures; tests/integration/two-factor.test.ts runs with
    // ADMIN_2FA=required (decision 040).
    ADMIN_2FA: "optional",
    ...env,
  });
  const services = createServices(db, config, silentLogger, options.now);
  await services.start();
  const vite = options.pages
    ? await (
        await import("vite")
      ).createServer({
        root: ROOT,
        server: { middlewareMode: true, hmr: false },
        logLevel: "error",
      })
    : undefined;
  const app = createApp({
    config,
    database: db,
    services,
    logger: silentLogger,
    ...(vite
      ? {
          beforePages: vite.middlewares,
          build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
        }
      : { build: options.build, beforePages: options.beforePages }),
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  services.paypal.bindSelf(url);
  services.payments.bindSelf(url);
  return {
    url,
    express: app,
    server,
    services,
    config,
    db,
    async request(p, init = {}) {
      const { json, jar, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined) headers.set("content-type", "application/json");
      if (jar?.size) headers.set("cookie", jar.header());
      const res = await fetch(url + p, {
        redirect: "manual",
        ...rest,
        headers,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
      });
      jar?.store(res);
      return res;
    },
    async close() {
      await new Promise((r) => server.close(r));
      await vite?.close();
      await services.close();
      await db.drop();
    },
  };
}
