// A small Vite plugin: `import code from "./file.ts?inline-script"` gives the file bundled with what it imports and
// minified, as one string of JavaScript (an IIFE), for a page to write inline. A plain page (no React) that needs a
// little behaviour of its own gets it typed, linted and tested like the rest of the code, and sends a few kilobytes
// instead of the 105 KB of React and React Router (decision 057). Rolldown is Vite 8's own bundler, so nothing new
// is installed. Plain JavaScript (typed by the .d.mts beside it) so that vite.config.ts imports it with its extension.
import { rolldown } from "rolldown";

const QUERY = "?inline-script";
const PREFIX = "\0inline-script:";

/** @returns {import("vite").Plugin} */
export function inlineScripts() {
  return {
    name: "atelier:inline-scripts",
    enforce: "pre",
    async resolveId(source, importer) {
      if (!source.endsWith(QUERY)) return null;
      const resolved = await this.resolve(source.slice(0, -QUERY.length), importer, { skipSelf: true });
      return resolved ? PREFIX + resolved.id : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const { code, files } = await bundleInlineScript(id.slice(PREFIX.length));
      // Rebuilt in development when any file it bundles changes.
      for (const file of files) this.addWatchFile(file);
      return `export default ${JSON.stringify(code)};`;
    },
  };
}

/**
 * The file bundled with what it imports, minified, as one IIFE; and the files it read. The plugin's work, and what the
 * tests call to check a script as the page will send it.
 * @param {string} file
 * @returns {Promise<{ code: string; files: string[] }>}
 */
export async function bundleInlineScript(file) {
  const bundle = await rolldown({ input: file, platform: "browser", logLevel: "warn" });
  try {
    const { output } = await bundle.generate({ format: "iife", minify: true });
    const [chunk] = output;
    return { code: chunk.code.trim(), files: chunk.moduleIds };
  } finally {
    await bundle.close();
  }
}
