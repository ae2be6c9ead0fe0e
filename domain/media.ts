/**
 * The media library's rules shared by the server and the browser (issue 11; docs/decisions/017 and 018): what may be
 * uploaded, which widths an image gets, how its files are addressed, and how a page asks for them.
 * No server-only imports here, and no zod: every public page draws images with it (the alt text's schema is in
 * ./media-alt.ts).
 */

/** The largest upload accepted. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The most pixels an upload may declare: a 24-megapixel photo passes, a decompression bomb does not. */
export const MAX_UPLOAD_PIXELS = 100_000_000;
/** Alt text is a sentence, not an essay. */
export const MAX_ALT_LENGTH = 300;

/** What an upload may be, read from its bytes; `svg` only for the shipped illustrations (never uploaded). */
export const sourceFormats = ["jpeg", "png", "webp", "avif", "svg"] as const;
export type SourceFormat = (typeof sourceFormats)[number];
/** The formats accepted from an upload, with the type a browser may claim for each (for the file chooser). */
export const UPLOAD_TYPES = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
} as const satisfies Partial<Record<SourceFormat, string>>;
export const UPLOAD_ACCEPT = Object.values(UPLOAD_TYPES).join(",");

/** What is served: WebP for every image, AVIF beside it when it is worth its cost, SVG as it came. */
export const variantFormats = ["webp", "avif", "svg"] as const;
export type VariantFormat = (typeof variantFormats)[number];
export const CONTENT_TYPES: Record<VariantFormat, string> = {
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
};

/** Where a file's bytes are kept: in its database row, or in an S3 bucket (MEDIA_STORAGE, decision 081). */
export const mediaStorages = ["database", "s3"] as const;
export type MediaStorage = (typeof mediaStorages)[number];

/** The widths written for a raster image, smallest first; none is larger than the original. */
export const STANDARD_WIDTHS = [320, 640, 960, 1280, 1920] as const;

/**
 * The widths of an image `width` pixels wide: the standard widths below it, then the original width (at most 1920).
 * A standard width within 15% of that top one adds bytes, not sharpness, and is left out.
 */
export function variantWidths(width: number): number[] {
  const top = Math.min(Math.max(1, Math.floor(width)), STANDARD_WIDTHS.at(-1)!);
  return [...STANDARD_WIDTHS.filter((w) => w * 1.15 <= top), top];
}

/** A file's address: content-hashed (the key is the start of the upload's SHA-256), so it never changes meaning. */
export const mediaUrl = (key: string, width: number, format: VariantFormat) =>
  `/media/${mediaFileName(key, width, format)}`;

/** A file's name: the last part of its address, and of its object key in a bucket. */
export const mediaFileName = (key: string, width: number, format: VariantFormat) => `${key}-${width}.${format}`;

/**
 * Where a page loads a file from: the app's own address, or the CDN's (`base`, MEDIA_PUBLIC_URL and the bucket's
 * prefix) when every file of the image is in the bucket behind it.
 */
export const servedUrl = (info: Pick<MediaInfo, "key" | "base">, width: number, format: VariantFormat) =>
  info.base ? `${info.base}${mediaFileName(info.key, width, format)}` : mediaUrl(info.key, width, format);

const MEDIA_URL = /^\/media\/([0-9a-f]{24})-([1-9][0-9]{0,4})\.(webp|avif|svg)$/;

/** The parts of a library address, or null for anything else (a typed URL, a shipped file). */
export function parseMediaUrl(url: unknown): { key: string; width: number; format: VariantFormat } | null {
  if (typeof url !== "string") return null;
  const m = MEDIA_URL.exec(url);
  return m ? { key: m[1]!, width: Number(m[2]), format: m[3] as VariantFormat } : null;
}

/** What a page needs to draw a library image: its size, alt text, colour and which files exist. */
export interface MediaInfo {
  key: string;
  width: number;
  height: number;
  alt: string;
  color: string;
  /** The widths written, smallest first (an SVG: its one width). */
  widths: number[];
  /** Whether AVIF files sit beside the WebP ones. */
  avif: boolean;
  svg: boolean;
  /**
   * Where pages load its files from when not from the app (`https://cdn.example/media/`): set only when the files are
   * in the bucket MEDIA_PUBLIC_URL serves (decision 081).
   */
  base?: string;
}

/** An image of the library as the back office and the API see it. */
export interface MediaItem extends MediaInfo {
  _id: string;
  fileName: string;
  sourceFormat: SourceFormat;
  sourceBytes: number;
  createdAt: string;
  createdBy: string | null;
  /** What an image field holds once this image is picked: its largest file. */
  url: string;
  /** The smallest file, for previews. */
  thumbnail: string;
}

/** Where an image is used: the section, the record, the field, and the screen that edits it. */
export interface Usage {
  where: string;
  field: string;
  edit: string | null;
}

/** The address an image field holds after a pick from the library: the largest file. */
export const defaultUrl = (info: Pick<MediaInfo, "key" | "widths" | "svg">) =>
  mediaUrl(info.key, info.widths.at(-1)!, info.svg ? "svg" : "webp");

/** "url 320w, url 640w, …" for one format. */
export const srcSet = (info: Pick<MediaInfo, "key" | "widths" | "base">, format: "webp" | "avif") =>
  info.widths.map((w) => `${servedUrl(info, w, format)} ${w}w`).join(", ");

/** The height of an image drawn `width` wide, in its proportions. */
export const heightAt = (info: Pick<MediaInfo, "width" | "height">, width: number) =>
  Math.max(1, Math.round((width * info.height) / info.width));

/** Bytes for people: "2.4 MB", "310 KB". */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

// What a refused upload is told (the REST answer's error, the picker's message).
export const UPLOAD_MESSAGES = {
  tooLarge: `The file is too large: images up to ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB are accepted.`,
  tooManyPixels: `The image is too large: at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels are accepted. Resize it and upload it again.`,
  wrongType: "This file is not a JPEG, PNG, WebP or AVIF image. Export it in one of those formats and upload it again.",
  svg: "SVG files are not accepted: an SVG can carry script. Export it as PNG or WebP and upload that.",
  broken: "This image could not be read: the file is damaged or incomplete. Export it again and upload the new file.",
  noFile: "Choose an image file to upload.",
  notMultipart: "Send the image as a form upload (multipart/form-data) with the file in the field “file”.",
  busy: "Too many images are being processed right now. Try again in a minute.",
} as const;
