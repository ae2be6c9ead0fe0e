import { startGenerator } from "./generator-dom";

/**
 * The item page's one script when the server sends it as a plain page: bundled and minified by the build into a
 * string (`?inline-script`, scripts/inline-script-plugin.mjs) that the item route names in its handle and the root writes
 * inline after the page's content, where the page's Content-Security-Policy allows it by its hash.
 */
const root = document.getElementById("generator");
if (root) startGenerator(root);
