/**
 * A document's plain text (the privacy notice, the terms) as blocks to draw: a blank line separates blocks; a block
 * of "- " lines is a list; a block whose first line is short and ends without punctuation starts with a heading.
 * Drawn as text by React, never as HTML, so nothing typed into the text can become markup.
 */
export type DocumentBlock =
  { kind: "heading"; text: string } | { kind: "paragraph"; text: string } | { kind: "list"; items: string[] };

const HEADING_MAX = 80;
const isHeading = (line: string) => line.length <= HEADING_MAX && !/[.,;:!?)]$/.test(line) && !line.startsWith("- ");

export function documentBlocks(text: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  for (const chunk of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const lines = chunk
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    if (!lines.length) continue;
    if (lines.length > 1 && isHeading(lines[0]!)) blocks.push({ kind: "heading", text: lines.shift()! });
    else if (lines.length === 1 && isHeading(lines[0]!)) {
      blocks.push({ kind: "heading", text: lines[0]! });
      continue;
    }
    let paragraph: string[] = [];
    let items: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
      if (items.length) blocks.push({ kind: "list", items });
      paragraph = [];
      items = [];
    };
    for (const line of lines) {
      if (line.startsWith("- ")) {
        if (paragraph.length) flush();
        items.push(line.slice(2).trim());
      } else {
        if (items.length) flush();
        paragraph.push(line);
      }
    }
    flush();
  }
  return blocks;
}
