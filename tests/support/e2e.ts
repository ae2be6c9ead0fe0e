import { expect, inject } from "vitest";
import type { Browser, Page } from "playwright-core";
import { createTestDatabase } from "./db";
import { launchBrowser, newPage } from "./browser";
import { logIn } from "./pages";
import { databaseUrl, startBuiltServer, type RunningServer } from "./server";

/** The browser's sign-in lives with the other page fixtures (pages.ts); some suites import it from here. */
export { logIn };

/** The first administrator every e2e server is started with. */
export const ADMIN = { email: "admin@example.org", password: "admin-pass-1" } as const;

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
  const server = await startBuiltServer({
    DATABASE_URL: databaseUrl(admin as never, db.name),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });
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

/**
 * Opens `path` until `ready` holds. The server hears of a change made behind its back (notifyContentChanged) a
 * moment after it is made, and a page opened in that moment still shows what was there before.
 */
export async function openUntil(page: Page, path: string, ready: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        await page.goto(path);
        return ready();
      },
      { timeout: 15_000, interval: 200 },
    )
    .toBe(true);
}

/** A test file's server and browser, with a page where the first administrator is signed in. */
export async function startAdminE2E(env: Record<string, string> = {}) {
  const started = await startE2E(env);
  const admin = await newPage(started.browser, started.server.url);
  await logIn(admin, ADMIN.email, ADMIN.password);
  return { env: started, admin };
}
