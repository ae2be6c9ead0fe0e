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
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ROOT } from "../tests/support/server";
import { buildIsCurrent } from "./build-state.mjs";
import { startApp } from "./bench/support";

const PAGES = (process.env.LIGHTHOUSE_PAGES ?? "/,/service/,/pricing,/contact").split(",");
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

/** The gzip (level 9, as built) and brotli bytes of every script a page names: its modules and its inline scripts. */
export async function pageScriptBytes(url: string): Promise<{ files: number; gzip: number; brotli: number }> {
  const html = await (await fetch(url)).text();
  const sources = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="(\/assets\/[^"]+\.js)"/g)) sources.add(m[1]!);
  const bodies: Buffer[] = [];
  for (const src of sources) {
    const file = path.join(ROOT, "build/client", src);
    bodies.push(
      existsSync(file) ? readFileSync(file) : Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer()),
    );
  }
  for (const m of html.matchAll(
    /<script\b(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g,
  ))
    bodies.push(Buffer.from(m[1]!));
  let gzip = 0;
  let brotli = 0;
  for (const body of bodies) {
    gzip += gzipSync(body, { level: 9 }).length;
    brotli += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files: sources.size, gzip, brotli };
}

async function audit(url: string, port: number): Promise<Row & { raw: unknown }> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  // The audits that cost points outside performance (performance's own are its metrics).
  const failed = ["accessibility", "best-practices", "seo"].flatMap((c) =>
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

async function main() {
  if (!buildIsCurrent()) {
    console.log("building");
    if (spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" }).status !== 0)
      throw new Error("build failed");
  }
  const scratch = mkdtempSync(path.join(tmpdir(), "atelier-lighthouse-"));
  const app = await startApp({ DATA_DIR: path.join(scratch, "data") });
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
    for (const page of PAGES) await fetch(app.url + page); // into the page cache
    for (const page of PAGES) {
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
    const js = await pageScriptBytes(`${app.url}/`);
    const pad = (v: string | number, n: number) => String(v).padStart(n);
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
