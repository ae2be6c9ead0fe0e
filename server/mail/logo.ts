import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

/**
 * The mails' logo: the site's logo drawn as a PNG. Gmail and Outlook do not show an SVG in a mail (the site's own logo
 * is one), and every mail client shows a PNG. It is linked, not attached: one address the site serves
 * (`/mail/logo-{version}.png`), so every mail stays small and the back office's preview draws it like a mail client;
 * Gmail fetches it through its image proxy and shows it at once, Outlook shows it with the mail's other pictures. The
 * version is the PNG's own hash: a new logo gets a new address, so a client's or a proxy's cached copy of the old one
 * is never shown for it.
 */

/** Drawn this tall in the mail, in CSS pixels; the PNG holds twice as many for high-density screens. */
export const MAIL_LOGO_HEIGHT = 36;
/** The widest a logo is drawn (a wide word mark), in CSS pixels. */
export const MAIL_LOGO_MAX_WIDTH = 240;
const SCALE = 2;

/** The address pattern of the mails' logo (Express), and the address of one version of it. */
export const MAIL_LOGO_ROUTE = "/mail/logo-:version.png";
export const mailLogoPath = (version: string) => `/mail/logo-${version}.png`;

export interface MailLogoPng {
  data: Buffer;
  /** The first 16 hex digits of the PNG's SHA-256: its address's version. */
  version: string;
  /** As drawn in the mail (CSS pixels): the `<img>`'s width and height attributes. */
  width: number;
  height: number;
}

/** Draws a logo (SVG, PNG, JPEG, WebP or AVIF bytes) as the mails' PNG: 36 px tall at most, transparency kept. */
export async function renderMailLogo(source: Buffer): Promise<MailLogoPng> {
  // An SVG is drawn at a density that gives the target size without scaling a small bitmap up.
  const { data, info } = await sharp(source, { density: 288, limitInputPixels: 40_000_000 })
    .resize({
      height: MAIL_LOGO_HEIGHT * SCALE,
      width: MAIL_LOGO_MAX_WIDTH * SCALE,
      fit: "inside",
      withoutEnlargement: false,
    })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer({ resolveWithObject: true });
  return {
    data,
    version: createHash("sha256").update(data).digest("hex").slice(0, 16),
    width: Math.max(1, Math.round(info.width / SCALE)),
    height: Math.max(1, Math.round(info.height / SCALE)),
  };
}

/**
 * The PNG of the logo the content names, drawn once per logo address and kept (a logo's address names its bytes: a
 * media file's key is its hash, a shipped image does not change while the site runs). `read` gives a site path's
 * bytes; a logo on another site, or one that cannot be read or drawn, has no PNG: the mails show the agency's name.
 */
export function createMailLogo(read: (sitePath: string) => Promise<Buffer | undefined>) {
  let kept: { logo: string; png: Promise<MailLogoPng | undefined> } | undefined;
  return function mailLogo(logo: string | undefined): Promise<MailLogoPng | undefined> {
    if (!logo || !logo.startsWith("/") || logo.startsWith("//")) return Promise.resolve(undefined);
    if (kept?.logo !== logo) {
      const entry: NonNullable<typeof kept> = {
        logo,
        png: read(logo)
          .then((bytes) => (bytes ? renderMailLogo(bytes) : undefined))
          .catch(() => {
            // Not kept: a database that was away a moment must not leave the mails without their logo.
            if (kept === entry) kept = undefined;
            return undefined;
          }),
      };
      kept = entry;
    }
    return kept.png;
  };
}

/** A media library file's address (server/http/media.ts serves them): its key, width and format. */
const MEDIA_FILE = /^\/media\/([0-9a-f]{24})-([1-9][0-9]{0,4})\.(webp|avif|svg)$/;

/**
 * Reads a site path's bytes as the site serves them: a media library file from the database, any other from the
 * shipped files (the first of `publicDirs` that holds it; nothing outside them).
 */
export function siteFileReader({
  publicDirs,
  mediaFile,
}: {
  publicDirs: string[];
  mediaFile: (key: string, width: number, format: "webp" | "avif" | "svg") => Promise<{ data: Buffer } | null>;
}) {
  return async (sitePath: string): Promise<Buffer | undefined> => {
    const pathname = sitePath.split(/[?#]/, 1)[0]!;
    const m = MEDIA_FILE.exec(pathname);
    if (m) return (await mediaFile(m[1]!, Number(m[2]), m[3] as "webp" | "avif" | "svg"))?.data;
    let relative: string;
    try {
      relative = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
    for (const dir of publicDirs) {
      const file = path.resolve(dir, `.${path.posix.normalize(relative)}`);
      if (!file.startsWith(path.resolve(dir) + path.sep)) continue;
      try {
        return await readFile(file);
      } catch {
        // Not in this folder: the next one.
      }
    }
    return undefined;
  };
}

export type MailLogo = ReturnType<typeof createMailLogo>;
