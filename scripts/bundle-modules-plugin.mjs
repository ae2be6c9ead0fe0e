// A tiny Rollup/Rolldown plugin: after the client build, writes every chunk's modules with their rendered length to
// build/bundle-modules.json (outside build/client, so never served), so that `npm run bundle-report` can say which
// modules make a page's scripts heavy, without a visualizer dependency. Plain JavaScript (typed by the .d.mts beside
// it) so that vite.config.ts imports it with its extension.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const BUNDLE_MODULES_FILE = "build/bundle-modules.json";

/** @returns {import("vite").Plugin} */
export function bundleModules() {
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
      /** @type {import("./bundle-modules-plugin.d.mts").BundleModules["chunks"]} */
      const chunks = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        /** @type {Record<string, number>} */
        const modules = {};
        for (const [id, info] of Object.entries(output.modules))
          if (info.renderedLength > 0) modules[path.relative(root, id.replace(/\0/g, "")) || id] = info.renderedLength;
        chunks[output.fileName] = { modules, imports: output.imports, dynamicImports: output.dynamicImports };
      }
      const file = path.resolve(root, BUNDLE_MODULES_FILE);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ chunks }));
    },
  };
}
