import { defineConfig } from "vite";

/**
 * Bundles the Node entry (server/entry.ts, which settles NODE_ENV, then loads server/main.ts) to build/server/main.js;
 * packages stay external. The app's chunk sits beside it, so paths relative to the bundle hold for both.
 */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: "server/entry.ts",
    outDir: "build/server",
    emptyOutDir: false,
    target: "node24",
    sourcemap: true,
    rollupOptions: { output: { entryFileNames: "main.js", chunkFileNames: "[name]-[hash].js", format: "esm" } },
  },
  ssr: { target: "node" },
});
