import { defineConfig } from "vite";

/** Bundles the Node entry (server/main.ts) to build/server/main.js; packages stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: "server/main.ts",
    outDir: "build/server",
    emptyOutDir: false,
    target: "node24",
    sourcemap: true,
    rollupOptions: { output: { entryFileNames: "main.js", format: "esm" } },
  },
  ssr: { target: "node" },
});
