import type { Plugin } from "vite";

/** Where the client build's chunk → module sizes go (read by scripts/bundle-report.ts). */
export const BUNDLE_MODULES_FILE: string;

export interface BundleModules {
  /** Per output chunk (its file under build/client): the size each source module takes in it, after tree-shaking. */
  chunks: Record<string, { modules: Record<string, number>; imports: string[]; dynamicImports: string[] }>;
}

/** Writes build/bundle-modules.json after the client build. */
export function bundleModules(): Plugin;
