import { crc32, deflateSync } from "node:zlib";
import sharp, { type Sharp } from "sharp";

/**
 * Images made on the spot for the media tests: a photo-like picture (gradients and grain, so encoders work as on a
 * photo) in each accepted format, one carrying camera GPS data and an orientation tag, and hostile files.
 */
export async function photo(width: number, height: number): Promise<Sharp> {
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#c8a27a"/><stop offset="0.5" stop-color="#3e5c50"/><stop offset="1" stop-color="#e9e1d4"/>
      </linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      <circle cx="${width * 0.3}" cy="${height * 0.4}" r="${Math.min(width, height) * 0.2}" fill="#b5653e"/>
      <rect x="${width * 0.55}" y="${height * 0.2}" width="${width * 0.3}" height="${height * 0.6}" fill="#f4efe6"/>
    </svg>`,
  );
  const base = await sharp(svg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const grain = await sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 24 } },
  })
    .raw()
    .toBuffer();
  const d = base.data;
  for (let i = 0; i < d.length; i++) d[i] = Math.max(0, Math.min(255, d[i]! + ((grain[i]! - 128) >> 2)));
  return sharp(d, { raw: { width, height, channels: 3 } });
}

export const GPS = { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100", GPSLongitudeRef: "E" };

/** A JPEG with camera metadata: make, GPS position and an orientation tag (6: rotate 90° to show it upright). */
export async function jpegWithGps(width = 1200, height = 800): Promise<Buffer> {
  return (await photo(width, height))
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: "TestCam", Model: "GPS-1" }, IFD3: GPS })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** Whether an EXIF block points to a GPS directory (tag 0x8825, in either byte order). */
export const hasGpsDirectory = (exif: Buffer | undefined) =>
  !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

export async function imageOf(format: "jpeg" | "png" | "webp" | "avif", width: number, height: number) {
  const image = await photo(width, height);
  if (format === "jpeg") return image.jpeg({ quality: 88 }).toBuffer();
  if (format === "png") return image.png().toBuffer();
  if (format === "webp") return image.webp({ quality: 85 }).toBuffer();
  return image.avif({ quality: 60, effort: 0 }).toBuffer();
}

/** The start of a Linux executable, named like a photo. */
export const executable = () =>
  Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4096, 0x90)]);

/** A PNG of a few hundred bytes that declares 30 000 × 30 000 pixels (900 megapixels). */
export function decompressionBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(30_000, 0);
  ihdr.writeUInt32BE(30_000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(30_001 * 3 * 4))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export const svgWithScript = () =>
  Buffer.from(
    `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>`,
  );
