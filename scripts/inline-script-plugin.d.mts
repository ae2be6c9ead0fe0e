import type { Plugin } from "vite";

/** `import code from "./file.ts?inline-script"`: the file bundled and minified, as a string to write inline. */
export function inlineScripts(): Plugin;

/** The file bundled with what it imports, minified, as one IIFE; and the files it read. */
export function bundleInlineScript(file: string): Promise<{ code: string; files: string[] }>;
