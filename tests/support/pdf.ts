import { execFileSync } from "node:child_process";

/**
 * The text of a PDF as a reader gets it: poppler's pdftotext (Debian's poppler-utils, which .ci/run installs), which
 * maps each glyph back to its character through the font's ToUnicode table, as a copy from a PDF viewer does. A
 * character the document's font could not draw is missing from it. Lines as pdftotext lays them out, each trimmed;
 * a line that wrapped in its column is joined to the next when it ends with a space.
 */
export function pdfText(pdf: Buffer): string {
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", "-", "-"], { input: pdf, encoding: "utf8" });
  return text
    .split(/\r?\n|\f/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join("\n");
}
