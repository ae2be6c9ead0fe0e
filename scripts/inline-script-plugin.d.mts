import type { Plugin } from "vite";

/** `import code from "./file.ts?inline-script"`: the file bundled and minified, as a string to write inline. */
export function inlineScripts(): Plugin;
