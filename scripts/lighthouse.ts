/**
 * `npm run lighthouse`: mobile Lighthouse on the four public pages, measured on this machine (not part of `npm test`).
 *
 * Builds if needed, starts the built app on a scratch data folder (its own embedded PostgreSQL, the demo content of a
 * first start), asks each page once so that the page cache holds it, then runs Lighthouse's default mobile audit
 * (simulated throttling: a slow 4G network and a 4x slower CPU) with Debian's Chromium, and prints the four category
 * scores, LCP, TBT and CLS of each page, and the landing page's JavaScript (gzip and brotli bytes of every script it
 * loads). Settings: CHROMIUM_PATH (default /usr/bin/chromium), LIGHTHOUSE_RUNS (default 1: runs per page, the median
 * performance run is kept), LIGHTHOUSE_PAGES (comma-separated paths), LIGHTHOUSE_REPORTS (a folder to write each
 * page's full Lighthouse report to, as JSON).
 *
 * Then the signed-in pages (issue 28, part 6): a customer signs up and is given a membership by the admin (the scratch
 * app's ADMIN_EMAIL/ADMIN_PASSWORD, ADMIN_2FA=optional), and Lighthouse opens each page with the session cookie
 * (extraHeaders): /dashboard, /my-order and /item/{id} on mobile, four back-office pages on mobile and with the desktop
 * preset. A table gives each page's scripts (gzip bytes of the module files it loads and of its inline code, the
 * figure of `npm run bundle-report`; React Router's hydration data apart), its goal, and its scores, against the goals: customer pages scripts <= 90 KB gzipped and
 * performance >= 95, back office <= 120 KB and >= 90 (desktop >= 98), accessibility and best practices 100.
 * The public pages include the blog (issue 36): /blog and `article`, which stands for the newest published article's
 * address; a scratch app has no article on its first start, so one is written first (a split article with headings,
 * a list, a quote, a video and a members' part), as the articles service would store it.
 * LIGHTHOUSE_ONLY=public or LIGHTHOUSE_ONLY=signed-in runs one half; LIGHTHOUSE_USE_BUILD=1 measures build/ as it is.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import pg from "pg";
import { runningEmbeddedConnection } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { photo } from "#tests/support/images.ts";
import { ROOT } from "#tests/support/server.ts";
import { buildIsCurrent } from "./build-state.mjs";
import { signIn, startApp } from "./bench/support";

const PAGES = (process.env.LIGHTHOUSE_PAGES ?? "/,/service/,/pricing,/contact,/blog,article").split(",");
const ONLY = process.env.LIGHTHOUSE_ONLY; // "public" | "signed-in" | unset (both)
const ADMIN = { email: "lighthouse-admin@example.com", password: "quiet-harbour-71-lighthouse" };
const CUSTOMER = { email: "lighthouse-customer@example.com", password: "quiet-harbour-71-customer", name: "Robin Lee" };
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface Row {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
  failed: string[];
  raw?: unknown;
}

/**
 * The gzip (level 9, as built) and brotli bytes of every script a page names: its modules and its inline scripts.
 * `codeGzip` counts the code alone (what `npm run bundle-report` counts): the module files and the inline scripts,
 * without React Router's hydration data (the loaders' answers it writes as inline scripts, `dataGzip`).
 */
export async function pageScriptBytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ files: number; gzip: number; brotli: number; codeGzip: number; dataGzip: number }> {
  const res = await fetch(url, { headers, redirect: "manual" });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  const html = await res.text();
  const sources = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+\.js)"/g)) sources.add(m[1]!);
  const bodies: Buffer[] = [];
  let moduleGzip = 0;
  for (const src of sources) {
    const file = path.join(ROOT, "build/client", src);
    bodies.push(
      existsSync(file) ? readFileSync(file) : Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer()),
    );
    moduleGzip += gzipSync(bodies[bodies.length - 1]!, { level: 9 }).length;
  }
  let codeGzip = moduleGzip;
  let dataGzip = 0;
  for (const m of html.matchAll(
    /<script\b(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g,
  )) {
    const body = Buffer.from(m[1]!);
    bodies.push(body);
    const size = gzipSync(body, { level: 9 }).length;
    // React Router's context and streamed loader data; its module bootstrap (which imports the entry) is code.
    if (/__reactRouterContext/.test(m[1]!) && !/\bimport\(/.test(m[1]!)) dataGzip += size;
    else codeGzip += size;
  }
  let gzip = 0;
  let brotli = 0;
  for (const body of bodies) {
    gzip += gzipSync(body, { level: 9 }).length;
    brotli += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files: sources.size, gzip, brotli, codeGzip, dataGzip };
}

async function audit(
  url: string,
  port: number,
  { cookie, desktop = false }: { cookie?: string; desktop?: boolean } = {},
  categories = ["performance", "accessibility", "best-practices", "seo"],
): Promise<Row & { raw: unknown }> {
  const result = await lighthouse(
    url,
    {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: categories,
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    },
    desktop ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  // The audits that cost points outside performance (performance's own are its metrics).
  const failed = ["accessibility", "best-practices", "seo"]
    .filter((c) => categories.includes(c))
    .flatMap((c) =>
      (lhr.categories[c]?.auditRefs ?? [])
        .filter((r) => r.weight > 0 && (lhr.audits[r.id]?.score ?? 1) < 1)
        .map((r) => `${c}:${r.id}`),
    );
  return {
    page: new URL(url).pathname,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcp: value("largest-contentful-paint"),
    tbt: value("total-blocking-time"),
    cls: value("cumulative-layout-shift"),
    failed,
    raw: lhr,
  };
}

interface SignedInRow extends Row {
  form: "mobile" | "desktop";
  scriptsKb: number;
  /** React Router's hydration data, written as inline scripts: not counted against the goal. */
  dataKb: number;
  goalKb: number;
  goalPerf: number;
  pass: boolean;
}

/** A customer with an active membership (given by the admin, as the customer record's form does) and an item's id. */
async function signedInSetup(url: string) {
  const admin = await signIn(url, ADMIN);
  const customer = await signIn(url, CUSTOMER, true);
  const api = async (method: string, call: string, body?: unknown) => {
    const res = await fetch(`${url}/api${call}`, {
      method,
      headers: { cookie: admin, origin: url, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} /api${call}: ${res.status} ${await res.text()}`);
    return (await res.json()) as unknown;
  };
  const ids = (value: unknown): string[] =>
    JSON.stringify(value)
      .match(/"(?:_id|id)":"([^"]+)"/g)!
      .map((m) => m.split(":")[1]!.replaceAll('"', ""));
  const customerId = ids(await api("GET", `/customers?q=${encodeURIComponent(CUSTOMER.email)}`))[0]!;
  await api("POST", `/customers/${customerId}/membership`, { days: 30, reason: "Lighthouse run" });
  const itemId = ids(await api("GET", "/all-database"))[0]!;
  return { admin, customer, customerId, itemId };
}

async function signedIn(appUrl: string, port: number): Promise<SignedInRow[]> {
  const { admin, customer, customerId, itemId } = await signedInSetup(appUrl);
  const pages: { page: string; cookie: string; goalKb: number; goalPerf: number; desktop?: number }[] = [
    { page: "/dashboard", cookie: customer, goalKb: 90, goalPerf: 95 },
    { page: "/my-order", cookie: customer, goalKb: 90, goalPerf: 95 },
    { page: `/item/${itemId}`, cookie: customer, goalKb: 90, goalPerf: 95 },
    { page: "/total-orders", cookie: admin, goalKb: 120, goalPerf: 90, desktop: 98 },
    { page: "/customers", cookie: admin, goalKb: 120, goalPerf: 90, desktop: 98 },
    { page: `/customers/${customerId}`, cookie: admin, goalKb: 120, goalPerf: 90, desktop: 98 },
    { page: "/edit-banner", cookie: admin, goalKb: 120, goalPerf: 90, desktop: 98 },
  ];
  const rows: SignedInRow[] = [];
  // LIGHTHOUSE_SIGNED_IN=/item,/customers: only the pages starting so.
  const only = process.env.LIGHTHOUSE_SIGNED_IN?.split(",");
  for (const p of pages.filter((p) => !only || only.some((o) => p.page.startsWith(o)))) {
    const url = appUrl + p.page;
    const scripts = await pageScriptBytes(url, { cookie: p.cookie });
    const forms = p.desktop ? (["mobile", "desktop"] as const) : (["mobile"] as const);
    for (const form of forms) {
      const runs: Row[] = [];
      // No SEO: signed-in pages are not for search engines (noindex, no description), on purpose.
      for (let i = 0; i < RUNS; i++)
        runs.push(
          await audit(url, port, { cookie: p.cookie, desktop: form === "desktop" }, [
            "performance",
            "accessibility",
            "best-practices",
          ]),
        );
      runs.sort((a, b) => a.performance - b.performance);
      const row = runs[Math.floor(runs.length / 2)]!;
      if (new URL(row.page, appUrl).pathname !== new URL(url).pathname)
        throw new Error(`${p.page} went to ${row.page}`);
      const goalPerf = form === "desktop" ? p.desktop! : p.goalPerf;
      const reports = process.env.LIGHTHOUSE_REPORTS;
      if (reports) {
        mkdirSync(reports, { recursive: true });
        const name = `${p.page.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}-${form}`;
        writeFileSync(path.join(reports, `${name}.json`), JSON.stringify(row.raw));
      }
      // Module files and inline code alike (a plain page's scripts are all inline: decision 057); the hydration
      // data is the page's data, shown apart.
      const scriptsKb = scripts.codeGzip / 1024;
      rows.push({
        ...row,
        page: p.page.replace(itemId, "{id}").replace(customerId, "{id}"),
        form,
        scriptsKb,
        dataKb: scripts.dataGzip / 1024,
        goalKb: p.goalKb,
        goalPerf,
        pass:
          scriptsKb <= p.goalKb &&
          row.performance >= goalPerf &&
          row.accessibility === 100 &&
          row.bestPractices === 100,
      });
      console.log(`  ${p.page} (${form}): performance ${runs.map((r) => r.performance).join("/")}`);
    }
  }
  return rows;
}

function printSignedIn(rows: SignedInRow[]) {
  const pad = (v: string | number, n: number) => String(v).padStart(n);
  console.log(
    `\n| signed-in page  | form    | scripts gz KB | goal KB | data gz KB | perf | goal | a11y | BP  | LCP (ms) | TBT (ms) | pass |\n|-----------------|---------|---------------|---------|------------|------|------|------|-----|----------|----------|------|`,
  );
  for (const r of rows)
    console.log(
      `| ${r.page.padEnd(15)} | ${r.form.padEnd(7)} | ${pad(r.scriptsKb.toFixed(1), 13)} | ${pad(r.goalKb, 7)} | ${pad(r.dataKb.toFixed(1), 10)} | ${pad(r.performance, 4)} | ${pad(r.goalPerf, 4)} | ${pad(r.accessibility, 4)} | ${pad(r.bestPractices, 3)} | ${pad(r.lcp.toFixed(0), 8)} | ${pad(r.tbt.toFixed(0), 8)} | ${r.pass ? "pass" : "FAIL"} |`,
    );
  for (const r of rows)
    if (r.failed.length) console.log(`  ${r.page} (${r.form}) lost points on: ${r.failed.join(", ")}`);
}

/** A demo article's body, as the server's cleaning stores it. */
const DEMO_BODY = [
  "<p>Light is the first material of any room. Before colour, before furniture, the way daylight enters and moves decides how a space feels at nine in the morning and at four in the afternoon.</p>",
  "<h2>Start with the windows</h2><p>Note where the sun falls through the day. North light is even and cool; south light is warm and changes by the hour. Place the rooms you use most where their hours of light are.</p>",
  "<ul><li>Keep sills and reveals pale to throw light inwards.</li><li>Hang curtains wider than the frame, so they clear the glass when open.</li><li>Use mirrors opposite windows, not beside them.</li></ul>",
  "<blockquote><p>A room is finished when the light has somewhere to go.</p></blockquote>",
  '<div data-youtube-video=""><iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0" title="A tour of a north-facing flat" allowfullscreen=""></iframe></div>',
  "<hr data-members-only />",
  "<h2>The studio's paint schedule</h2><p>The undercoats, finishes and light reflectance values we specify for north-facing rooms.</p>",
].join("");

/** A photo-like cover (1600 × 900) uploaded to the media library by the admin, as an image field stores it. */
async function uploadCover(url: string): Promise<string> {
  const cookie = await signIn(url, ADMIN);
  const form = new FormData();
  form.set("alt", "A pale living room in the morning light");
  const bytes = await (await photo(1600, 900)).jpeg({ quality: 82 }).toBuffer();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), "room.jpg");
  const res = await fetch(`${url}/api/media`, { method: "POST", body: form, headers: { cookie, origin: url } });
  if (res.status !== 201) throw new Error(`the cover's upload answered ${res.status}: ${await res.text()}`);
  const { item } = (await res.json()) as { item: { url: string; key: string } };
  // The library processes an image's sizes in the background: wait until they are there.
  for (let i = 0; i < 100 && (await fetch(new URL(item.url, url))).status !== 200; i++)
    await new Promise((r) => setTimeout(r, 200));
  return item.url;
}

/**
 * The address of the newest published article of the app on `dataDir` (its embedded database, reached as `npm run
 * backup` reaches it); with none, a demo article is written and published first, and content_changed notified.
 */
async function articleAddress(dataDir: string, url: string): Promise<string> {
  const client = new pg.Client(runningEmbeddedConnection(dataDir, silentLogger));
  await client.connect();
  try {
    const newest = async () =>
      (
        await client.query<{ slug: string }>(
          "select slug from articles where state = 'published' order by published_at desc, id desc limit 1",
        )
      ).rows[0]?.slug;
    let slug = await newest();
    if (!slug) {
      const cover = await uploadCover(url);
      await client.query(
        `insert into articles (slug, title, excerpt, body_html, access, tags, tag_slugs, author_name, state, published_at, cover_image)
         values ($1, $2, $3, $4, 'split', $5, $6, 'Ada Lane', 'published', now(), $7)`,
        [
          "designing-with-daylight",
          "Designing with daylight",
          "How light moves through a room, and how to plan for it before choosing a single colour.",
          DEMO_BODY,
          ["Light", "Planning"],
          ["light", "planning"],
          cover,
        ],
      );
      await client.query("select pg_notify('content_changed', '')");
      slug = await newest();
    }
    return `/blog/${slug}`;
  } finally {
    await client.end();
  }
}

async function main() {
  // LIGHTHOUSE_USE_BUILD=1: measure build/ as it is (a shared tree where another process builds, under its lock).
  if (process.env.LIGHTHOUSE_USE_BUILD !== "1" && !buildIsCurrent()) {
    console.log("building");
    if (spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" }).status !== 0)
      throw new Error("build failed");
  }
  const scratch = mkdtempSync(path.join(tmpdir(), "atelier-lighthouse-"));
  const app = await startApp({
    DATA_DIR: path.join(scratch, "data"),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // Staff sign in with a password alone here (a second factor would send the admin to /account/security).
    ADMIN_2FA: "optional",
  });
  mkdirSync(path.join(scratch, "chromium"));
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  const rows: Row[] = [];
  try {
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      userDataDir: path.join(scratch, "chromium"),
    });
    const port = chrome.port;
    const publicPages =
      ONLY === "signed-in"
        ? []
        : PAGES.includes("article")
          ? await articleAddress(path.join(scratch, "data"), app.url).then((a) =>
              PAGES.map((p) => (p === "article" ? a : p)),
            )
          : PAGES;
    for (const page of publicPages) await fetch(app.url + page); // into the page cache
    for (const page of publicPages) {
      const runs: Row[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(app.url + page, port));
      runs.sort((a, b) => a.performance - b.performance);
      const row = runs[Math.floor(runs.length / 2)]!;
      rows.push(row);
      const reports = process.env.LIGHTHOUSE_REPORTS;
      if (reports) {
        mkdirSync(reports, { recursive: true });
        const name = page.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home";
        writeFileSync(path.join(reports, `${name}.json`), JSON.stringify(row.raw));
      }
      console.log(`  ${page}: performance ${runs.map((r) => r.performance).join("/")}`);
    }
    const signedInRows = ONLY === "public" ? [] : await signedIn(app.url, port);
    const pad = (v: string | number, n: number) => String(v).padStart(n);
    if (publicPages.length) {
      const js = await pageScriptBytes(`${app.url}/`);
      console.log(
        `\n| page       | perf | a11y | best pr. | SEO | LCP (ms) | TBT (ms) | CLS   |\n|------------|------|------|----------|-----|----------|----------|-------|`,
      );
      for (const r of rows)
        console.log(
          `| ${r.page.padEnd(10)} | ${pad(r.performance, 4)} | ${pad(r.accessibility, 4)} | ${pad(r.bestPractices, 8)} | ${pad(r.seo, 3)} | ${pad(r.lcp.toFixed(0), 8)} | ${pad(r.tbt.toFixed(0), 8)} | ${r.cls.toFixed(3)} |`,
        );
      console.log(
        `\nLanding page JavaScript: ${js.files} files + inline scripts, ${(js.gzip / 1024).toFixed(1)} KB gzipped (level 9), ${(js.brotli / 1024).toFixed(1)} KB brotli (what Chromium downloads).`,
      );
      for (const r of rows) if (r.failed.length) console.log(`  ${r.page} lost points on: ${r.failed.join(", ")}`);
    }
    if (signedInRows.length) printSignedIn(signedInRows);
  } finally {
    chrome?.kill();
    await app.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
