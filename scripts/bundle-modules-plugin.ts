import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/** Where the client build's chunk → module sizes go (read by scripts/bundle-report.ts); outside build/client, so never served. */
export const BUNDLE_MODULES_FILE = "build/bundle-modules.json";

export interface BundleModules {
  /** Per output chunk (its file under build/client): the size each source module takes in it, after tree-shaking. */
  chunks: Record<string, { modules: Record<string, number>; imports: string[]; dynamicImports: string[] }>;
}

/**
 * A tiny Rollup/Rolldown plugin: after the client build, writes every chunk's modules with their rendered length, so
 * that the bundle report can say which modules make a page's scripts heavy (no visualizer dependency needed).
 */
export function bundleModules(): Plugin {
  let root = process.cwd();
  let server = false;
  return {
    name: "atelier:bundle-modules",
    apply: "build",
    configResolved(config) {
      root = config.root;
      // Only the browser's build: the server bundle is not downloaded by anyone.
      server = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (server) return;
      const chunks: BundleModules["chunks"] = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        const modules: Record<string, number> = {};
        for (const [id, info] of Object.entries(output.modules))
          if (info.renderedLength > 0) modules[path.relative(root, id.replace(/\0/g, "")) || id] = info.renderedLength;
        chunks[output.fileName] = { modules, imports: output.imports, dynamicImports: output.dynamicImports };
      }
      const file = path.resolve(root, BUNDLE_MODULES_FILE);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ chunks } satisfies BundleModules));
    },
  };
}
