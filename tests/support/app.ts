import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { loadConfig, type Config } from "../../server/config";
import { createApp } from "../../server/http/app";
import { silentLogger } from "../../server/lib/logger";
import { createServices, type Services } from "../../server/services";
import { createTestDatabase } from "./db";
import type { CookieJar } from "./session";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestApp {
  url: string;
  services: Services;
  config: Config;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** fetch against the app; JSON bodies are sent with the right content type. */
  request(path: string, init?: RequestInit & { json?: unknown; jar?: CookieJar }): Promise<Response>;
  close(): Promise<void>;
}

/** The real Express app and services on a fresh database, listening on a free loopback port (`now`: the clock). */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { now?: () => Date } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "atelier-app-")),
    AUTH_SECRET: "x".repeat(40),
    ...env,
  });
  const services = createServices(db, config, silentLogger, options.now);
  await services.start();
  const app = createApp({ config, database: db, services, logger: silentLogger });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  services.paypal.bindSelf(url);
  return {
    url,
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
      await services.close();
      await db.drop();
    },
  };
}
