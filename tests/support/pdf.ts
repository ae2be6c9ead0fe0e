import { inflateSync } from "node:zlib";

/**
 * The text of a PDF as @react-pdf/renderer (pdfkit) writes it with the built-in fonts: every content stream inflated,
 * each text-showing operator's string decoded (hex glyph codes in WinAnsi, Latin-1 for what we print), one line per
 * text object. Enough to check what a generated document says; not a general PDF reader.
 */
export function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString("latin1");
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (const m of raw.matchAll(streams)) {
    const bytes = Buffer.from(m[1]!, "latin1");
    let content: string;
    try {
      content = inflateSync(bytes).toString("latin1");
    } catch {
      content = m[1]!;
    }
    for (const block of content.matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
      let line = "";
      for (const op of block[1]!.matchAll(
        /\[((?:<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)|[^\]])*)\]\s*TJ|(<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\))\s*Tj/g,
      )) {
        const parts = op[1] ?? op[2]!;
        let text = "";
        for (const s of parts.matchAll(/<([0-9a-fA-F]*)>|\(((?:\\.|[^\\)])*)\)/g)) {
          if (s[1] !== undefined) text += Buffer.from(s[1], "hex").toString("latin1");
          else text += s[2]!.replace(/\\([()\\])/g, "$1");
        }
        line += text;
      }
      out.push(line);
    }
  }
  // A line that wraps, or words set apart, come as several text objects: one ending in a space continues.
  return out.reduce((text, part, i) => (i === 0 ? part : text + (text.endsWith(" ") ? "" : "\n") + part), "");
}
