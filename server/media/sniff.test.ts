import { describe, expect, it } from "vitest";
import { sniffImage } from "./sniff";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));
/** An ISO-BMFF `ftyp` box of 24 bytes: major brand, version, one compatible brand. */
const ftyp = (major: string, compatible: string) =>
  bytes([0, 0, 0, 24], "ftyp", major, [0, 0, 0, 0], compatible, "mif1");

describe("sniffImage", () => {
  it("reads the four accepted formats from their first bytes", () => {
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(sniffImage(bytes("\x89PNG\r\n\x1a\n", [0, 0, 0, 13]))).toBe("png");
    expect(sniffImage(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("webp");
    expect(sniffImage(ftyp("avif", "mif1"))).toBe("avif");
    expect(sniffImage(ftyp("mif1", "avif"))).toBe("avif");
  });
  it("knows an SVG whatever its preamble, to refuse it with its own reason", () => {
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe("svg");
    expect(sniffImage(Buffer.from('\uFEFF  <?xml version="1.0"?>\n<!-- x -->\n<svg width="1">'))).toBe("svg");
  });
  it("refuses everything else, whatever it is called", () => {
    expect(sniffImage(bytes([0x7f], "ELF", [2, 1, 1]))).toBeNull();
    expect(sniffImage(bytes("MZ", [0x90, 0]))).toBeNull();
    expect(sniffImage(bytes("GIF89a"))).toBeNull();
    expect(sniffImage(ftyp("heic", "mif1"))).toBeNull();
    expect(sniffImage(bytes("RIFF", [1, 2, 3, 4], "WAVE"))).toBeNull();
    expect(sniffImage(Buffer.from("<html><body>hi</body></html>"))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
    expect(sniffImage(bytes([0xff, 0xd8]))).toBeNull();
  });
});
