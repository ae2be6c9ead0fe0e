import { availableParallelism } from "node:os";
import sharp, { type Metadata, type OutputInfo, type Sharp, type SharpOptions } from "sharp";
import {
  MAX_UPLOAD_PIXELS,
  UPLOAD_MESSAGES,
  UPLOAD_TYPES,
  variantWidths,
  type SourceFormat,
  type VariantFormat,
} from "#domain/media.ts";
import { AppError } from "../lib/errors";
import { sniffImage } from "./sniff";

// libvips works in libuv's thread pool, never on the event loop. One core is left to the event loop (on two cores:
// one libvips thread), and libvips' operation cache is off: every image is processed once, so nothing would hit it.
sharp.concurrency(Math.max(1, availableParallelism() - 1));
sharp.cache(false);

/**
 * AVIF is kept only when its files are at least this much smaller than the WebP ones: on a photo it halves the bytes
 * (1920 px: 60 KB against 122 KB) for about twice WebP's time; on a flat illustration it may not pay, and is dropped.
 * Efforts measured on this machine: WebP 2 is three times faster than 4 for the same size, AVIF 1 twice as fast as 2.
 */
const AVIF_PAYS = 0.85;
const WEBP = { quality: 78, effort: 2 } as const;
const AVIF = { quality: 50, effort: 1 } as const;

export interface Variant {
  format: VariantFormat;
  width: number;
  height: number;
  data: Buffer;
}

export interface ProcessedImage {
  sourceFormat: SourceFormat;
  /** After orientation. */
  width: number;
  height: number;
  color: string;
  variants: Variant[];
  /** Where the time went (ms): decoding to the largest width, WebP, AVIF. */
  timings: { decode: number; webp: number; avif: number; total: number };
}

/** The options every untrusted input is opened with: a pixel bound, and any decoder warning is an error. */
const untrusted: SharpOptions = { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: "warning" };

/** The real format of an upload, or the refusal (415) that names what is accepted. */
export function acceptedFormat(bytes: Buffer): keyof typeof UPLOAD_TYPES {
  const format = sniffImage(bytes);
  if (format === "svg") throw new AppError(415, UPLOAD_MESSAGES.svg);
  if (!format) throw new AppError(415, UPLOAD_MESSAGES.wrongType);
  return format;
}

/**
 * Processes an upload once: checks its real type (415) and declared size (413) before decoding anything, decodes it
 * once (oriented by its EXIF tag, in sRGB, at most 1920 px wide), and writes each width of `variantWidths` as WebP, and
 * as AVIF when that pays. No metadata is written to any file (sharp keeps none unless told to): camera GPS data never
 * leaves. A damaged or truncated file is a 400.
 */
export async function processImage(bytes: Buffer, options: { avif?: boolean } = {}): Promise<ProcessedImage> {
  const started = performance.now();
  const sourceFormat = acceptedFormat(bytes);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, untrusted).metadata();
  } catch (error) {
    throw refusal(error);
  }
  const expected = sourceFormat === "avif" ? "heif" : sourceFormat;
  if (meta.format !== expected || !meta.width || !meta.height) throw new AppError(400, UPLOAD_MESSAGES.broken);
  if (meta.width * meta.height > MAX_UPLOAD_PIXELS) throw new AppError(413, UPLOAD_MESSAGES.tooManyPixels);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  const widths = variantWidths(width);

  let top: { data: Buffer; info: OutputInfo };
  try {
    top = await sharp(bytes, untrusted)
      .autoOrient()
      .resize({ width: widths.at(-1)!, withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw refusal(error);
  }
  const decoded = performance.now();
  const raw = { width: top.info.width, height: top.info.height, channels: top.info.channels as 1 | 2 | 3 | 4 };
  const at = (w: number): Sharp => {
    const image = sharp(top.data, { raw });
    return w === raw.width ? image : image.resize({ width: w });
  };
  const encode = async (w: number, format: "webp" | "avif"): Promise<Variant> => {
    const pipeline = format === "webp" ? at(w).webp(WEBP) : at(w).avif(AVIF);
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { format, width: info.width, height: info.height, data };
  };
  const webp: Variant[] = [];
  for (const w of widths) webp.push(await encode(w, "webp"));
  const webpDone = performance.now();
  const avif: Variant[] = [];
  if (options.avif !== false) for (const w of widths) avif.push(await encode(w, "avif"));
  const avifDone = performance.now();
  const bytesOf = (vs: Variant[]) => vs.reduce((n, v) => n + v.data.length, 0);
  const keepAvif = avif.length > 0 && bytesOf(avif) <= bytesOf(webp) * AVIF_PAYS;

  return {
    sourceFormat,
    width,
    height,
    color: await averageColour(sharp(top.data, { raw })),
    variants: keepAvif ? [...webp, ...avif] : webp,
    timings: {
      decode: Math.round(decoded - started),
      webp: Math.round(webpDone - decoded),
      avif: Math.round(avifDone - webpDone),
      total: Math.round(performance.now() - started),
    },
  };
}

/**
 * One of our own shipped SVG illustrations (demo content): trusted, stored as it is, measured from its viewBox; its
 * placeholder is the light background it is drawn on. Uploaded SVGs never come here: they are refused (acceptedFormat).
 */
export async function processTrustedSvg(bytes: Buffer): Promise<ProcessedImage> {
  const meta = await sharp(bytes).metadata();
  if (meta.format !== "svg" || !meta.width || !meta.height) throw new Error("not an SVG illustration");
  return {
    sourceFormat: "svg",
    width: meta.width,
    height: meta.height,
    // Our illustrations are drawn on the page's own light background: no rendering needed to know it.
    color: "#f4efe6",
    variants: [{ format: "svg", width: meta.width, height: meta.height, data: bytes }],
    timings: { decode: 0, webp: 0, avif: 0, total: 0 },
  };
}

/** A raster copy of an SVG illustration `width` pixels wide (PNG), for demo photos that show the srcset path. */
export async function rasterise(svg: Buffer, width: number): Promise<Buffer> {
  const meta = await sharp(svg).metadata();
  const density = Math.min(2400, Math.ceil((72 * width) / (meta.width ?? width)));
  return sharp(svg, { density }).resize({ width }).flatten({ background: "#ffffff" }).png().toBuffer();
}

/** What a decoder's failure means for the uploader: too many pixels (413) or a damaged file (400). */
const refusal = (error: unknown) =>
  /pixel limit/i.test(String(error))
    ? new AppError(413, UPLOAD_MESSAGES.tooManyPixels)
    : new AppError(400, UPLOAD_MESSAGES.broken);

/** The colour painted while an image loads: its dominant colour, transparency seen on white (as the pages show it). */
async function averageColour(image: Sharp): Promise<string> {
  // stats() reads its input, not a pipeline's result: flatten and shrink first, then measure that.
  const small = await image.flatten({ background: "#ffffff" }).resize(64).png().toBuffer();
  return hex((await sharp(small).stats()).dominant);
}

const hex = ({ r, g, b }: { r: number; g: number; b: number }) =>
  `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/**
 * Processing runs one image at a time (the rest wait their turn), and at most `maxWaiting` wait: past that an upload is
 * told to try again (503), so a burst of uploads can neither take every core nor queue without bound.
 */
export function createProcessingQueue(maxWaiting = 8) {
  let running: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  return {
    run<T>(job: () => Promise<T>): Promise<T> {
      if (waiting >= maxWaiting) return Promise.reject(new AppError(503, UPLOAD_MESSAGES.busy));
      waiting++;
      const result = running.then(
        () => job(),
        () => job(),
      );
      running = result.then(
        () => undefined,
        () => undefined,
      );
      return result.finally(() => waiting--);
    },
  };
}
