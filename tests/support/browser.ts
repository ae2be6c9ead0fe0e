import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const hasChromium = () => existsSync(CHROMIUM);

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * The attribute of the first element `locator` finds, or null when there is none, without waiting for one. Inside an
 * `expect.poll` callback a waiting read (`locator.getAttribute`) of an element the page does not have yet would wait
 * Playwright's 30 s for it, longer than the poll itself, and the poll would fail although the next load had it.
 */
export const attributeNow = (locator: Locator, name: string) =>
  locator.evaluateAll((elements, n) => elements[0]?.getAttribute(n) ?? null, name);

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: DESKTOP, ...options });
  const page = await context.newPage();
  // A click before React has hydrated the page would be a plain HTML submit, not what a person using the site gets.
  // Every full page load in the tests therefore waits for the marker the root layout sets once it is hydrated (or,
  // on a page sent without scripts, for its load).
  // Every page load also proves the page runs cleanly: a Content-Security-Policy violation, an uncaught exception or
  // a React error (a hydration mismatch among them) fails the test.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Minified React error|hydrat/i.test(message.text()))
      violations.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => {
    // Chromium's own cross-document view transition (the public pages' fade, app/styles/motion.css) reports this when
    // a test moves on before the fade has finished: no script of ours is involved, and a person sees the page at once.
    if (/Transition was aborted because of invalid state/.test(error.message)) return;
    violations.push(`${page.url()}: uncaught ${error.message}`);
  });
  const hydrated = async () => {
    for (const deadline = Date.now() + 15_000; ; await new Promise((r) => setTimeout(r, 25))) {
      if (violations.length) throw new Error(`The page did not run cleanly:\n${violations.join("\n")}`);
      // A public page is sent without scripts (app/lib/hydration.ts): it is ready once it has loaded.
      const done = await page
        .evaluate(
          () =>
            document.documentElement.hasAttribute("data-hydrated") ||
            (document.readyState === "complete" && !document.querySelector('script[type="module"]')),
        )
        .catch(() => false); // the document is being replaced: look again
      if (done) return;
      if (Date.now() > deadline) throw new Error(`${page.url()} was not hydrated within 15 s`);
    }
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const waitForURL = page.waitForURL.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated();
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated();
    return response;
  };
  page.waitForURL = async (...args) => {
    await waitForURL(...args);
    await hydrated();
  };
  // Nothing may leave the machine: third-party requests (the video embed) are answered locally.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>external</title>" }),
  );
  return page;
}

/**
 * Until the page has drawn two more frames and run what those frames queued (a PerformanceObserver's entries, a
 * toast's render): what the page did in answer to something already finished can be read at once after it.
 */
export const nextFrames = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
  );
