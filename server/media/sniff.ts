import type { SourceFormat } from "#domain/media.ts";

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));

/**
 * What a file really is, from its first bytes (never its name or the type the browser claims): one of the image
 * formats we know, or null. An ISO-BMFF file (`ftyp` box) is AVIF only when its major or a compatible brand says so
 * (HEIC photos are not AVIF). SVG is recognised so that it can be refused with a reason of its own.
 */
export function sniffImage(bytes: Uint8Array): SourceFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  if (bytes.length >= 16 && ascii(bytes, 4, 8) === "ftyp") {
    const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
    const end = Math.min(boxSize >= 16 ? boxSize : 16, bytes.length, 256);
    const brands = [ascii(bytes, 8, 12)];
    for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(bytes, i, i + 4));
    return brands.some((b) => b === "avif" || b === "avis") ? "avif" : null;
  }
  if (looksLikeSvg(bytes)) return "svg";
  return null;
}

/** Text that opens with an XML declaration, a doctype or a comment and has an <svg element early on. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (!head.startsWith("<")) return false;
  return /<svg[\s>]/i.test(head);
}
