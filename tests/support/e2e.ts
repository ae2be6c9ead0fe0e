import { inject } from "vitest";
import type { Browser } from "playwright-core";
import { createTestDatabase } from "./db";
import { launchBrowser } from "./browser";
import { databaseUrl, startBuiltServer, type RunningServer } from "./server";

export interface E2EEnv {
  server: RunningServer;
  browser: Browser;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  close(): Promise<void>;
}

/** A fresh database (seeded by the server's first start), the built server on it, and a browser. */
export async function startE2E(env: Record<string, string> = {}): Promise<E2EEnv> {
  const db = await createTestDatabase();
  const { admin } = inject("testDb");
  const server = await startBuiltServer({ DATABASE_URL: databaseUrl(admin as never, db.name), ...env });
  const browser = await launchBrowser();
  return {
    server,
    browser,
    db,
    async close() {
      await browser.close();
      await server.stop();
      await db.drop();
    },
  };
}

/** Changes content behind the server's back and tells it, as another app instance would. */
export async function notifyContentChanged(db: E2EEnv["db"]) {
  await db.pool.query("select pg_notify('content_changed', '')");
}
