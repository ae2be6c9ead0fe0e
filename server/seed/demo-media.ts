import { readFile } from "node:fs/promises";
import type { NewRecord } from "#domain/registry.ts";
import type { Logger } from "../lib/logger";
import { rasterise } from "../media/process";
import type { MediaService } from "../services/media";

// Source tree: server/seed/demo-media.ts; built bundle: build/server/main.js. Both are two folders below the root.
const IMAGES = new URL("../../public/images/", import.meta.url);
const SHIPPED = /^\/images\/([a-z0-9-]+\.svg)$/;

/**
 * Demo photographs: raster copies of some shipped illustrations (rendered with sharp, then processed as an upload
 * would be), so that a fresh site shows the whole path: variants, srcset, sizes, alt text. The other illustrations
 * enter the library as the SVG files they are (ours, trusted).
 */
const PHOTOS: Record<string, { width: number; alt: string }> = {
  "hero.svg": { width: 1280, alt: "A calm living room with a sofa, a reading lamp and tall plants by the window" },
  "about-living.svg": { width: 960, alt: "A bright living space with natural materials and soft light" },
  "about-workspace.svg": { width: 960, alt: "A quiet home workspace with a desk, shelves and a window" },
};

/**
 * The demo records with their shipped image paths (/images/x.svg) replaced by library addresses: every image the
 * records use is entered into the library first (once: the same file is the same image).
 */
export async function withLibraryImages(
  media: MediaService,
  records: readonly NewRecord[],
  logger: Logger,
): Promise<NewRecord[]> {
  const started = Date.now();
  const files = new Set<string>();
  for (const r of records) {
    for (const v of Object.values(r.data)) if (typeof v === "string" && SHIPPED.test(v)) files.add(v);
  }
  const urls = new Map<string, string>();
  for (const path of files) {
    const name = SHIPPED.exec(path)![1]!;
    let bytes: Buffer;
    try {
      bytes = await readFile(new URL(name, IMAGES));
    } catch {
      continue; // not shipped with this build: the record keeps its path
    }
    const photo = PHOTOS[name];
    const item = photo
      ? await media.importTrusted({
          bytes: await rasterise(bytes, photo.width),
          fileName: name.replace(/\.svg$/, ".png"),
          alt: photo.alt,
        })
      : await media.importTrusted({ bytes, fileName: name, alt: "" });
    urls.set(path, item.url);
  }
  logger.info({ images: urls.size, ms: Date.now() - started }, "entered the demo images into the media library");
  return records.map(
    (r) =>
      ({
        ...r,
        data: Object.fromEntries(
          Object.entries(r.data).map(([k, v]) => [k, typeof v === "string" ? (urls.get(v) ?? v) : v]),
        ),
      }) as NewRecord,
  );
}
