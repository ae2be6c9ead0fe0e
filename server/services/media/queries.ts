import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { editHref, recordTitle, sections } from "#domain/registry.ts";
import {
  CONTENT_TYPES,
  defaultUrl,
  mediaFileName,
  mediaUrl,
  parseMediaUrl,
  type MediaInfo,
  type MediaItem,
  type Usage,
  type VariantFormat,
} from "#domain/media.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { isDatabaseUnavailable, type Db } from "#server/db/client.ts";
import { contentEntries, media, mediaVariants, simpleItems } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import { pageOf } from "#server/lib/paging.ts";
import { locationOf, publicBase } from "#server/media/storage.ts";
import type { ServedVariant } from "./cache";
import type { MediaContext, Row, VariantRef } from "./context";

const loadOnce = (ctx: MediaContext, id: string, read: () => Promise<ServedVariant | null>) => {
  let pending = ctx.loading.get(id);
  if (!pending) {
    pending = read().finally(() => ctx.loading.delete(id));
    ctx.loading.set(id, pending);
  }
  return pending;
};

/** A file from where its row says its bytes are, kept in memory. */
async function load(
  ctx: MediaContext,
  id: string,
  key: string,
  width: number,
  format: VariantFormat,
): Promise<ServedVariant | null> {
  const [row] = await ctx.db
    .select({
      data: mediaVariants.data,
      storage: mediaVariants.storage,
      s3Bucket: mediaVariants.s3Bucket,
      s3Key: mediaVariants.s3Key,
    })
    .from(mediaVariants)
    .innerJoin(media, eq(media.id, mediaVariants.mediaId))
    .where(and(eq(media.key, key), eq(mediaVariants.format, format), eq(mediaVariants.width, width)));
  if (!row) return null;
  const where = locationOf(row);
  const data = where.storage === "s3" ? await ctx.objects.get(where) : row.data;
  if (!data) {
    // The row says the bucket has it, and the bucket says it has not: someone deleted it there.
    ctx.logger.error({ file: id, bucket: row.s3Bucket, key: row.s3Key }, "media: a file is missing from its bucket");
    return null;
  }
  const served = { data, contentType: CONTENT_TYPES[format], etag: `"${id}"` };
  ctx.files.set(id, served);
  return served;
}

/** One served file by its address's parts; from memory after the first time. */
export async function file(
  ctx: MediaContext,
  key: string,
  width: number,
  format: VariantFormat,
): Promise<ServedVariant | null> {
  const id = `${key}-${width}.${format}`;
  return ctx.files.get(id) ?? loadOnce(ctx, id, () => load(ctx, id, key, width, format));
}

async function variantsOf(ctx: MediaContext, ids: string[]): Promise<Map<string, VariantRef[]>> {
  const out = new Map<string, VariantRef[]>();
  if (!ids.length) return out;
  const rows = await ctx.db
    .select({
      mediaId: mediaVariants.mediaId,
      format: mediaVariants.format,
      width: mediaVariants.width,
      storage: mediaVariants.storage,
      s3Bucket: mediaVariants.s3Bucket,
      s3Key: mediaVariants.s3Key,
    })
    .from(mediaVariants)
    .where(inArray(mediaVariants.mediaId, ids))
    .orderBy(mediaVariants.width);
  for (const r of rows) out.set(r.mediaId, [...(out.get(r.mediaId) ?? []), r]);
  return out;
}

function info(ctx: MediaContext, row: Row, variants: VariantRef[]): MediaInfo {
  const svg = variants.some((v) => v.format === "svg");
  const widths = [...new Set(variants.filter((v) => v.format !== "avif").map((v) => v.width))];
  const named = variants.map((v) => ({ ...v, name: mediaFileName(row.key, v.width, v.format) }));
  const base = publicBase(ctx.storage.media, row.key, named);
  return {
    key: row.key,
    width: row.width,
    height: row.height,
    alt: row.alt,
    color: row.color,
    widths,
    avif: variants.some((v) => v.format === "avif"),
    svg,
    ...(base ? { base } : {}),
  };
}

function item(ctx: MediaContext, row: Row, variants: VariantRef[]): MediaItem {
  const i = info(ctx, row, variants);
  return {
    _id: row.id,
    ...i,
    fileName: row.fileName,
    sourceFormat: row.sourceFormat,
    sourceBytes: row.sourceBytes,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    url: defaultUrl(i),
    thumbnail: mediaUrl(i.key, i.widths[0]!, i.svg ? "svg" : "webp"),
  };
}

export async function byKey(ctx: MediaContext, key: string): Promise<MediaItem | null> {
  const [row] = await ctx.db.select().from(media).where(eq(media.key, key));
  return row ? item(ctx, row, (await variantsOf(ctx, [row.id])).get(row.id) ?? []) : null;
}

export async function one(ctx: MediaContext, id: string): Promise<MediaItem> {
  if (!isId(id)) throw notFound("No such image.");
  const [row] = await ctx.db.select().from(media).where(eq(media.id, id));
  if (!row) throw notFound("No such image.");
  return item(ctx, row, (await variantsOf(ctx, [row.id])).get(row.id) ?? []);
}

/** The library, newest first, one page counted and cut in SQL. */
export async function list(
  ctx: MediaContext,
  page: unknown,
  perPage: number,
): Promise<{ items: MediaItem[]; page: PageInfo }> {
  const { rows, page: info } = await pageOf(ctx.db, media, {
    orderBy: [desc(media.createdAt), desc(media.id)],
    page,
    perPage,
  });
  const variants = await variantsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => item(ctx, r, variants.get(r.id) ?? [])), page: info };
}

/** Where each of these images is used: the sections (and simple items) whose fields hold one of its addresses. */
export async function usagesOf(tx: Pick<Db, "select">, keys: string[]): Promise<Map<string, Usage[]>> {
  const out = new Map<string, Usage[]>(keys.map((k) => [k, []]));
  if (!keys.length) return out;
  const patterns = keys.map((k) => `%/media/${k}-%`);
  const [entries, items] = await Promise.all([
    tx
      .select({ id: contentEntries.id, type: contentEntries.type, data: contentEntries.data })
      .from(contentEntries)
      .where(sql`${contentEntries.data}::text like any(${sql.param(patterns)}::text[])`),
    tx
      .select({ category: simpleItems.category, imageLink: simpleItems.imageLink })
      .from(simpleItems)
      .where(sql`${simpleItems.imageLink} like any(${sql.param(patterns)}::text[])`),
  ]);
  for (const e of entries) {
    const section = sections.find((s) => s.type === e.type);
    if (!section) continue;
    for (const f of section.fields) {
      const used = out.get(parseMediaUrl(e.data[f.name])?.key ?? "");
      if (!used) continue;
      const title = recordTitle(section, e.data);
      used.push({
        where: section.cardinality === "list" && title ? `${section.title} “${title}”` : section.title,
        field: f.label,
        edit: editHref(section, e.id),
      });
    }
  }
  for (const i of items) {
    out
      .get(parseMediaUrl(i.imageLink)?.key ?? "")
      ?.push({ where: `Item “${i.category}”`, field: "Image Link", edit: null });
  }
  return out;
}

/** Where an image is used (shown beside it in the library). */
export async function usages(ctx: MediaContext, id: string): Promise<Usage[]> {
  const found = await one(ctx, id);
  return (await usagesOf(ctx.db, [found.key])).get(found.key) ?? [];
}

/** Where each image of a page of the library is used, in one query. */
export async function usagesByKey(ctx: MediaContext, keys: string[]): Promise<Record<string, Usage[]>> {
  return Object.fromEntries(await usagesOf(ctx.db, keys));
}

/**
 * What the public pages need to draw the library images that `value` (a page's content, any shape) points to:
 * keyed by image key. Kept in memory until content changes, so a page costs no query for it after the first.
 */
export async function describe(ctx: MediaContext, value: unknown): Promise<Record<string, MediaInfo>> {
  const keys = new Set<string>();
  collectKeys(value, keys);
  const generation = ctx.content.generation();
  if (ctx.described.generation !== generation) ctx.described = { generation, byKey: new Map() };
  const cache = ctx.described.byKey;
  const missing = [...keys].filter((k) => !cache.has(k));
  if (missing.length) {
    try {
      const rows = await ctx.db.select().from(media).where(inArray(media.key, missing));
      const variants = await variantsOf(
        ctx,
        rows.map((r) => r.id),
      );
      for (const k of missing) cache.set(k, null);
      for (const r of rows) cache.set(r.key, info(ctx, r, variants.get(r.id) ?? []));
    } catch (error) {
      // During a database outage a page still draws: those images go out as plain <img src>, asked again later.
      if (!isDatabaseUnavailable(error)) throw error;
    }
  }
  const out: Record<string, MediaInfo> = {};
  for (const k of keys) {
    const found = cache.get(k);
    if (found) out[k] = found;
  }
  return out;
}

function collectKeys(value: unknown, keys: Set<string>, depth = 0): void {
  if (typeof value === "string") {
    const parsed = parseMediaUrl(value);
    if (parsed) keys.add(parsed.key);
    return;
  }
  if (depth > 6 || value === null || typeof value !== "object") return;
  for (const v of Object.values(value)) collectKeys(v, keys, depth + 1);
}
