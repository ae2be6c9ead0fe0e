/**
 * `npm run bundle-report`: where the signed-in pages' JavaScript goes, read from the last build (no server needed).
 *
 * For each page it takes the routes React Router matches (its client manifest, build/client/assets/manifest-*.js),
 * then every script the page loads before it is interactive: the client entry, each matched route's module and their
 * imports (what the server writes as modulepreload links). It prints their count, raw and gzip (level 9, as built)
 * bytes, and the biggest source modules in them, from build/bundle-modules.json (written by the build's own small
 * plugin, scripts/bundle-modules-plugin.mjs). Modules loaded later by a dynamic import are not counted. A plain page
 * (a matched route's handle opts out of hydration: app/lib/hydration.ts) loads no module: its scripts are the inline
 * ones the server writes (the plain pages' script and the route's own), read from the server build's route handles.
 * Settings: BUNDLE_PAGES (comma-separated paths), BUNDLE_TOP (modules listed per page, default 8),
 * `--json` prints the figures as JSON.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { matchRoutes, type RouteObject } from "react-router";
import { BUNDLE_MODULES_FILE, type BundleModules } from "./bundle-modules-plugin.mjs";
import { hydrates, routeInlineScripts } from "#app/lib/hydration.ts";
import { PLAIN_PAGE_SCRIPT } from "#app/lib/plain-page-script.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const CLIENT = path.join(ROOT, "build/client");

/** The customer area's three pages and five of the back office's (the orders desk, customers, a content editor). */
export const SIGNED_IN_PAGES = [
  "/dashboard",
  "/my-order",
  "/item/1",
  "/total-orders",
  "/customers",
  "/customers/1",
  "/edit-banner",
  "/admin",
];

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

/** Each route's handle, from the server build (where a plain route's handle holds its inline script's text). */
export type RouteHandles = Record<string, unknown>;

export async function readRouteHandles(): Promise<RouteHandles> {
  const build = (await import(pathToFileURL(path.join(ROOT, "build/server/index.js")).href)) as {
    routes: Record<string, { module: { handle?: unknown } }>;
  };
  return Object.fromEntries(Object.entries(build.routes).map(([id, r]) => [id, r.module.handle]));
}

export interface PageBundle {
  page: string;
  routes: string[];
  /** Sent without React: `files` are then its inline scripts, named `inline:<route id>`. */
  plain: boolean;
  files: string[];
  raw: number;
  gzip: number;
  /** Source modules (or packages) by bytes in those files, biggest first. */
  top: { module: string; bytes: number }[];
}

/** The manifest the server build names (an older one may linger in assets/ after a build without emptying it). */
export function readManifest(): Manifest {
  const server = readFileSync(path.join(ROOT, "build/server/index.js"), "utf8");
  const named = server.match(/manifest-[a-z0-9]+\.js/)?.[0];
  const file = named ?? readdirSync(path.join(CLIENT, "assets")).find((f) => /^manifest-.*\.js$/.test(f));
  if (!file) throw new Error("no client manifest: run `npm run build` first");
  const text = readFileSync(path.join(CLIENT, "assets", file), "utf8");
  return JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;\s*$/, "")) as Manifest;
}

function routeTree(manifest: Manifest): RouteObject[] {
  const children = new Map<string | undefined, ManifestRoute[]>();
  for (const r of Object.values(manifest.routes)) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r]);
  const build = (parent: string | undefined): RouteObject[] =>
    (children.get(parent) ?? []).map((r) =>
      r.index ? { id: r.id, path: r.path, index: true } : { id: r.id, path: r.path, children: build(r.id) },
    );
  return build(undefined);
}

/** The package a module belongs to (node_modules/<scope/name>), or the source file itself. */
function owner(module: string): string {
  const m = module.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g);
  return m ? m[m.length - 1]!.replace("node_modules/", "") : module;
}

export function pageBundle(
  manifest: Manifest,
  modules: BundleModules | null,
  handles: RouteHandles,
  page: string,
  top = 8,
): PageBundle {
  const matches = matchRoutes(routeTree(manifest), page) ?? [];
  const routes = matches.map((m) => m.route.id!);
  const matched = routes.map((id) => ({ id, handle: handles[id] }));
  if (!hydrates(matched)) {
    const scripts = [
      { name: "inline:root", body: PLAIN_PAGE_SCRIPT },
      ...matched.flatMap((m) => routeInlineScripts([m]).map((body) => ({ name: `inline:${m.id}`, body }))),
    ];
    return {
      page,
      routes,
      plain: true,
      files: scripts.map((s) => s.name),
      raw: scripts.reduce((sum, s) => sum + Buffer.byteLength(s.body), 0),
      gzip: scripts.reduce((sum, s) => sum + gzipSync(s.body, { level: 9 }).length, 0),
      top: scripts.map((s) => ({ module: s.name, bytes: Buffer.byteLength(s.body) })),
    };
  }
  const files = new Set<string>([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routes) {
    const r = manifest.routes[id]!;
    files.add(r.module);
    for (const i of r.imports ?? []) files.add(i);
  }
  let raw = 0;
  let gzip = 0;
  const bytes = new Map<string, number>();
  for (const file of files) {
    const body = readFileSync(path.join(CLIENT, file));
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    const chunk = modules?.chunks[file.replace(/^\//, "")];
    // Rendered lengths are before minification: each module gets its share of the file's real size.
    const sizes = Object.entries(chunk?.modules ?? {});
    const rendered = sizes.reduce((sum, [, size]) => sum + size, 0);
    for (const [module, size] of sizes) {
      const key = owner(module);
      bytes.set(key, (bytes.get(key) ?? 0) + (size * body.length) / rendered);
    }
  }
  const biggest = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    page,
    routes,
    plain: false,
    files: [...files],
    raw,
    gzip,
    top: biggest.map(([module, b]) => ({ module, bytes: b })),
  };
}

export async function bundleReport(pages = SIGNED_IN_PAGES, top = 8): Promise<PageBundle[]> {
  const manifest = readManifest();
  const file = path.join(ROOT, BUNDLE_MODULES_FILE);
  const modules = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as BundleModules) : null;
  const handles = await readRouteHandles();
  return pages.map((page) => pageBundle(manifest, modules, handles, page, top));
}

const kb = (n: number) => (n / 1024).toFixed(1);

async function main() {
  const pages = process.env.BUNDLE_PAGES?.split(",") ?? SIGNED_IN_PAGES;
  const rows = await bundleReport(pages, Number(process.env.BUNDLE_TOP ?? 8));
  if (process.argv.includes("--json")) return console.log(JSON.stringify(rows, null, 2));
  console.log(
    "| page            | scripts         | raw KB | gzip KB |\n|-----------------|-----------------|--------|---------|",
  );
  for (const r of rows) {
    const count = r.plain ? `${r.files.length} inline` : `${r.files.length} modules`;
    console.log(
      `| ${r.page.padEnd(15)} | ${count.padStart(15)} | ${kb(r.raw).padStart(6)} | ${kb(r.gzip).padStart(7)} |`,
    );
  }
  if (!existsSync(path.join(ROOT, BUNDLE_MODULES_FILE))) return console.log("\n(no module sizes: rebuild)");
  for (const r of rows) {
    console.log(
      r.plain
        ? `\n${r.page} (${r.routes.join(" > ")}): a plain page, its inline scripts (bytes as sent, before gzip)`
        : `\n${r.page} (${r.routes.join(" > ")}): biggest modules (their share of the minified files, before gzip)`,
    );
    for (const t of r.top) console.log(`  ${kb(t.bytes).padStart(6)} KB  ${t.module}`);
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
