import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, newPage, nextFrames, PHONE } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { heading, logIn, main, toast } from "../support/pages";
import { gate } from "../support/wait";

/**
 * The site's global behaviour (issue 10, parts 7 and 9): toasts that keep off the header and clear a form's stale
 * error, the phone number as the spec has it, the page fade on navigation, the loading spinner, and web fonts that
 * arrive without moving anything.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const WIDTHS = [DESKTOP, PHONE] as const;

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every visible link and button of the header, with its box. */
/** The back office's frame (its side column, or its top bar on small screens), which toasts must leave clear. */
const frame = (page: Page) => page.locator("aside").first();

async function frameTargets(page: Page): Promise<Box[]> {
  const boxes: Box[] = [];
  for (const target of await frame(page).locator("a, button, summary").all()) {
    if (await target.isVisible()) boxes.push((await target.boundingBox())!);
  }
  return boxes;
}

describe("toasts", () => {
  it.each(WIDTHS)(
    "at $width px: never over the back office's frame; a form's success removes its own earlier error toast",
    async (viewport) => {
      const page = await newPage(env.browser, env.server.url, { viewport });
      await logIn(page, ADMIN.email, ADMIN.password);
      const { rows } = await env.db.pool.query("select id from admin_users limit 1");
      await page.goto(`/admin-user/${rows[0].id}`);
      const email = main(page).getByLabel("Admin email");
      const error = page.getByRole("alert").filter({ hasText: "confirmed" });
      const success = toast(page, "Admin user is updated");

      // Refused on the server (no confirmed account with that address): an error toast.
      await email.fill("nobody-here@example.org");
      await main(page).getByRole("button", { name: "Update Admin" }).click();
      await expect.poll(() => error.count()).toBe(1);
      const shownAt = Date.now();
      const errorBox = (await error.boundingBox())!;
      expect(overlaps(errorBox, (await frame(page).boundingBox())!)).toBe(false);
      const targets = await frameTargets(page);
      expect(targets.length).toBeGreaterThan(0);
      for (const target of targets) expect(overlaps(errorBox, target)).toBe(false);

      // The same form succeeds: its success toast shows, and its error toast is gone at once, not 4 s later.
      await email.fill(ADMIN.email);
      await main(page).getByRole("button", { name: "Update Admin" }).click();
      await expect.poll(() => success.count()).toBe(1);
      expect(await error.count()).toBe(0);
      expect(Date.now() - shownAt).toBeLessThan(3500);
      for (const target of await frameTargets(page))
        expect(overlaps((await success.boundingBox())!, target)).toBe(false);
      await page.context().close();
    },
  );
});

describe("the contact form's phone number", () => {
  it.each(["123", "4567"])("the short number %s is accepted and stored as typed", async (number) => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/contact");
    const form = page.locator("#contact-sec form");
    await form.getByLabel("Full Name").fill("Short Number");
    await form.getByLabel("Phone Number").fill(number);
    await form.getByLabel("Email").fill(`short-${number}@example.org`);
    await form.getByLabel("Subject").fill("Extension");
    await form.getByLabel("Message").fill("Call me on my desk extension.");
    await form.getByRole("button", { name: "Send Message" }).click();
    // A plain post (the public pages run no script): the answer comes with the page, in the form.
    await expect.poll(() => toast(form, "Message is Updated").count()).toBe(1);
    const { rows } = await env.db.pool.query("select number from messages where email = $1", [
      `short-${number}@example.org`,
    ]);
    expect(rows).toEqual([{ number }]);
    await page.context().close();
  });
});

describe("navigation", () => {
  /** Holds the dashboard's data, as a slow server would, until the test has seen what the wait shows. */
  async function slowDashboard(page: Page) {
    const answer = gate();
    await page.route(/\/dashboard\.data/, async (route) => {
      await answer.opened;
      await route.continue();
    });
    return answer;
  }

  it("the old page fades out over 0.3 s, the new one fades in; a spinner shows while the dashboard loads", async () => {
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, ADMIN.email, ADMIN.password);
    // From a page React runs (the public pages, the dashboard and My Orders are plain HTML: their links load whole
    // pages, which fade by the browser's own view transition). To the dashboard, React draws it.
    await page.goto("/account");
    const dashboardData = await slowDashboard(page);
    // The opacity of whichever <main> is on screen, every frame, from the click on.
    await page.evaluate(() => {
      const samples: [number, number, string][] = [];
      (window as unknown as { samples: typeof samples }).samples = samples;
      const start = performance.now();
      const tick = () => {
        const main = document.querySelector("main")!;
        samples.push([performance.now() - start, Number(getComputedStyle(main).opacity), location.pathname]);
        if (performance.now() - start < 3500) requestAnimationFrame(tick);
        else (window as unknown as { sampled: boolean }).sampled = true;
      };
      requestAnimationFrame(tick);
    });
    await page.locator("header").getByRole("link", { name: "Dashboard" }).first().click();
    const spinner = page.getByTestId("page-spinner");
    await expect.poll(() => spinner.isVisible()).toBe(true);
    expect(await spinner.textContent()).toContain("Loading");
    // The old page has faded out all the way while the data was held: now it comes.
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { samples: [number, number, string][] }).samples.some(
            ([, o, p]) => p === "/account" && o < 0.01,
          ),
        ),
      )
      .toBe(true);
    dashboardData.open();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    await expect.poll(() => main(page).locator("h1").textContent()).toMatch(/^Welcome back/);
    await expect.poll(() => spinner.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => (window as unknown as { sampled?: boolean }).sampled)).toBe(true);
    const samples = await page.evaluate(() => (window as unknown as { samples: [number, number, string][] }).samples);

    const old = samples.filter(([, , p]) => p === "/account");
    const fresh = samples.filter(([, , p]) => p === "/dashboard");
    // Fading out: from opaque to transparent, taking about 0.3 s, with frames part way.
    const out = fadeBounds(old.map(([t, o]): [number, number] => [t, o]));
    expect(out.atLeast).toBeLessThan(600);
    expect(out.atMost).toBeGreaterThan(150);
    expect(old.some(([, o]) => o > 0.2 && o < 0.8)).toBe(true);
    // Transparent while the dashboard loads, then fading in to opaque, and staying so.
    // (The frame before the new page's first is the old page's last.)
    const fadeIn = fadeBounds([[old.at(-1)![0], 1], ...fresh.map(([t, o]): [number, number] => [t, 1 - o])]);
    expect(fadeIn.atLeast).toBeLessThan(600);
    expect(fadeIn.atMost).toBeGreaterThan(150);
    expect(fresh.some(([, o]) => o > 0.01 && o < 0.99)).toBe(true);
    expect(fresh.at(-1)![1]).toBe(1);
    await page.context().close();
  });
});

describe("web fonts", () => {
  it.each(WIDTHS)(
    "at $width px: Inter and Fraunces are self-hosted, preloaded, and arrive with no layout shift",
    async (viewport) => {
      const page = await newPage(env.browser, env.server.url, { viewport });
      await page.addInitScript(() => {
        const w = window as unknown as { cls: number; shifts: unknown[] };
        w.cls = 0;
        w.shifts = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (entry.hadRecentInput) continue;
            w.cls += entry.value;
            w.shifts.push(entry.toJSON());
          }
        }).observe({ type: "layout-shift", buffered: true });
      });
      const fonts: string[] = [];
      page.on("request", (r) => {
        if (r.resourceType() === "font") fonts.push(r.url());
      });
      for (const path of ["/", "/pricing", "/contact"]) {
        await page.goto(path, { waitUntil: "load" });
        await page.evaluate(() => document.fonts.ready);
        const state = await page.evaluate(() => ({
          inter: document.fonts.check('16px "Inter"'),
          fraunces: document.fonts.check('32px "Fraunces"'),
          body: getComputedStyle(document.body).fontFamily,
          heading: getComputedStyle(document.querySelector("h1")!).fontFamily,
          loaded: [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family.replace(/"/g, "")),
          preloads: [...document.querySelectorAll('link[rel="preload"][as="font"]')].map(
            (l) => (l as HTMLLinkElement).href,
          ),
        }));
        expect(state.inter && state.fraunces, path).toBe(true);
        expect(state.loaded).toEqual(expect.arrayContaining(["Inter", "Fraunces"]));
        expect(state.body.startsWith('Inter, "Inter Fallback"')).toBe(true);
        expect(state.heading.startsWith('Fraunces, "Fraunces Fallback: Georgia"')).toBe(true);
        expect(state.preloads).toHaveLength(2);
        // Let anything late (images, the header's account links) settle, then read the shifts.
        await page.waitForLoadState("networkidle");
        await nextFrames(page);
        const { cls, shifts } = await page.evaluate(() => {
          const w = window as unknown as { cls: number; shifts: unknown[] };
          return { cls: w.cls, shifts: w.shifts };
        });
        expect(shifts, `${path} moved`).toEqual([]);
        expect(cls).toBe(0);
      }
      // Only the two latin files, from our own origin, each fetched once (then from the cache).
      expect(new Set(fonts).size).toBe(2);
      for (const url of fonts)
        expect(url).toMatch(
          new RegExp(`^${env.server.url}/assets/(inter|fraunces)-latin-wght-normal-[\\w-]+\\.woff2$`),
        );
      await page.context().close();
    },
  );

  it.each(WIDTHS)("at $width px: fonts that arrive after the first paint move nothing", async (viewport) => {
    // A slow first visit: every font file arrives after the page's first paint (held until the page has painted).
    const page = await newPage(env.browser, env.server.url, { viewport });
    await page.route(/\.woff2$/, async (route) => {
      await page
        .waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, undefined, {
          timeout: 10_000,
        })
        .catch(() => undefined); // the page went away meanwhile: the font goes on
      await route.continue();
    });
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: unknown[] };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { hadRecentInput: boolean })[])
          if (!entry.hadRecentInput) w.shifts.push(entry.toJSON());
      }).observe({ type: "layout-shift", buffered: true });
    });
    for (const path of ["/", "/pricing", "/contact"]) {
      await page.goto(path, { waitUntil: "load" });
      await page.evaluate(() => document.fonts.ready);
      await nextFrames(page);
      const shifts = await page.evaluate(() => (window as unknown as { shifts: unknown[] }).shifts);
      expect(shifts, `${path} moved when its fonts arrived`).toEqual([]);
      expect(await heading(page).first().isVisible()).toBe(true);
    }
    await page.context().close();
  });
});

/**
 * What frames sampled once each tell of a fade from 1 to 0 (time, value): it lasted at least from the first frame
 * part way to the last one part way, and at most from the last frame before it to the first one after it. A loaded
 * machine draws few frames, so the first bound can be far below the fade's length and the second far above it;
 * each is checked against its own side of the expected length.
 */
function fadeBounds(frames: [number, number][]): { atLeast: number; atMost: number } {
  const started = frames.findIndex(([, v]) => v < 0.99);
  const ended = frames.findIndex(([, v]) => v < 0.01);
  expect(started).toBeGreaterThan(0); // opaque before it
  expect(ended).toBeGreaterThanOrEqual(started);
  return {
    atLeast: ended > started ? frames[ended - 1]![0] - frames[started]![0] : 0,
    atMost: frames[ended]![0] - frames[started - 1]![0],
  };
}
