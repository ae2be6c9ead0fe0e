import { createHash } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { editHref, recordTitle, sections } from "#domain/registry.ts";
import { parseWith } from "#domain/validation.ts";
import { altSchema } from "#domain/media-alt.ts";
import {
  CONTENT_TYPES,
  defaultUrl,
  mediaFileName,
  type MediaStorage,
  mediaUrl,
  parseMediaUrl,
  type MediaInfo,
  type MediaItem,
  type Usage,
  type VariantFormat,
} from "#domain/media.ts";
import type { PageInfo } from "#domain/pagination.ts";
import type { Db } from "../db/client";
import { contentEntries, media, mediaVariants, simpleItems } from "../db/schema";
import { AppError, badRequest, isId, isUniqueViolation, notFound } from "../lib/errors";
import { isDatabaseUnavailable } from "../db/client";
import type { Logger } from "../lib/logger";
import { pageOf } from "../lib/paging";
import {
  createMediaObjects,
  locationOf,
  publicBase,
  sha256Hex,
  type MediaObjects,
  type ObjectRef,
  type StoredAt,
} from "../media/storage";
import { moveFiles, type MoveProgress, type MoveSummary } from "../media/storage-move";
import type { Config, S3Location } from "../config";
import {
  acceptedFormat,
  createProcessingQueue,
  processImage,
  processTrustedSvg,
  type ProcessedImage,
} from "../media/process";
import { audited, type Actor } from "./activity";
import type { Tx } from "./jobs";
import { putInTrash, type TrashedRow } from "./trash";

export type { MediaItem, Usage };
import type { ContentService } from "./content";
import type { RateLimiter } from "./rate-limit";

/** A served file, ready to send. */
export interface ServedVariant {
  data: Buffer;
  contentType: string;
  etag: string;
}

type Row = typeof media.$inferSelect;
type VariantRef = { mediaId: string; format: VariantFormat; width: number } & StoredAt;

/** Uploads per administrator per ten minutes: far above a person's pace, far below a script's. */
export const UPLOAD_LIMIT = { name: "media-upload", limit: 60, windowMs: 10 * 60_000 };
/** Memory for served files (least recently used go first); one file larger than an eighth of it is never kept. */
const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

export interface MediaServiceOptions {
  db: Db;
  content: ContentService;
  limiter: RateLimiter;
  logger: Logger;
  cacheBytes?: number;
  /** The clock of the trash's dates (the services' one, which tests move). */
  now?: () => Date;
  /** Where files are kept (decision 081): MEDIA_STORAGE and its bucket; the database alone when not given. */
  storage?: Pick<Config, "media" | "s3">;
  /** The bucket's client (tests give a failing one); made from `storage.s3` when not given. */
  objects?: MediaObjects;
}

/**
 * The media library (issue 11, docs/decisions/017 and 018): uploads checked by their bytes and processed once, files
 * stored in PostgreSQL (so every instance serves every image), served from a bounded in-memory cache, described to the
 * public pages, and never deleted while a section uses them. Every change is in the activity log.
 */
export function createMediaService({
  db,
  content,
  limiter,
  logger,
  cacheBytes = DEFAULT_CACHE_BYTES,
  now = () => new Date(),
  storage = {
    media: { storage: "database" },
    s3: { endpoint: undefined, region: "us-east-1", credentials: undefined, forcePathStyle: false },
  },
  objects = createMediaObjects(storage),
}: MediaServiceOptions) {
  const queue = createProcessingQueue();
  const files = new ByteCache(cacheBytes);
  // A file asked for by many visitors at once, before this instance holds it, is read once.
  const loading = new Map<string, Promise<ServedVariant | null>>();
  const loadOnce = (id: string, read: () => Promise<ServedVariant | null>) => {
    let pending = loading.get(id);
    if (!pending) {
      pending = read().finally(() => loading.delete(id));
      loading.set(id, pending);
    }
    return pending;
  };

  /** A file from where its row says its bytes are, kept in memory. */
  async function load(id: string, key: string, width: number, format: VariantFormat): Promise<ServedVariant | null> {
    const [row] = await db
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
    const data = where.storage === "s3" ? await objects.get(where) : row.data;
    if (!data) {
      // The row says the bucket has it, and the bucket says it has not: someone deleted it there.
      logger.error({ file: id, bucket: row.s3Bucket, key: row.s3Key }, "media: a file is missing from its bucket");
      return null;
    }
    const served = { data, contentType: CONTENT_TYPES[format], etag: `"${id}"` };
    files.set(id, served);
    return served;
  }
  // Descriptions for pages, dropped whenever content (or an alt text) changes on any instance.
  let described = { generation: -1, byKey: new Map<string, MediaInfo | null>() };

  async function variantsOf(ids: string[]): Promise<Map<string, VariantRef[]>> {
    const out = new Map<string, VariantRef[]>();
    if (!ids.length) return out;
    const rows = await db
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

  function info(row: Row, variants: VariantRef[]): MediaInfo {
    const svg = variants.some((v) => v.format === "svg");
    const widths = [...new Set(variants.filter((v) => v.format !== "avif").map((v) => v.width))];
    const named = variants.map((v) => ({ ...v, name: mediaFileName(row.key, v.width, v.format) }));
    const base = publicBase(storage.media, row.key, named);
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

  function item(row: Row, variants: VariantRef[]): MediaItem {
    const i = info(row, variants);
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

  async function byKey(key: string): Promise<MediaItem | null> {
    const [row] = await db.select().from(media).where(eq(media.key, key));
    return row ? item(row, (await variantsOf([row.id])).get(row.id) ?? []) : null;
  }

  async function one(id: string): Promise<MediaItem> {
    if (!isId(id)) throw notFound("No such image.");
    const [row] = await db.select().from(media).where(eq(media.id, id));
    if (!row) throw notFound("No such image.");
    return item(row, (await variantsOf([row.id])).get(row.id) ?? []);
  }

  /** Stores a processed image and its files in one transaction (all or nothing), logged as created by `actor`. */
  async function store(
    key: string,
    processed: ProcessedImage,
    meta: { fileName: string; alt: string; sourceBytes: number },
    actor: Actor | undefined,
  ): Promise<{ item: MediaItem; created: boolean }> {
    // With a bucket, the files are objects first: a row never points at an object that is not there.
    const target = objects.target;
    const written = processed.variants.map((v) => ({
      ...v,
      name: mediaFileName(key, v.width, v.format),
      sha256: sha256Hex(v.data),
    }));
    const put = target ? await putAll(target, written) : [];
    try {
      const id = await audited(db, actor, "media", async (tx, audit) => {
        const [row] = await tx
          .insert(media)
          .values({
            key,
            fileName: meta.fileName,
            sourceFormat: processed.sourceFormat,
            sourceBytes: meta.sourceBytes,
            width: processed.width,
            height: processed.height,
            color: processed.color,
            alt: meta.alt,
            createdBy: actor?.email ?? null,
          })
          .returning();
        await tx.insert(mediaVariants).values(
          written.map((v, i) => ({
            mediaId: row!.id,
            format: v.format,
            width: v.width,
            height: v.height,
            size: v.data.length,
            sha256: v.sha256,
            ...(put[i]
              ? { storage: "s3" as const, data: null, s3Bucket: put[i].bucket, s3Key: put[i].key }
              : { storage: "database" as const, data: v.data }),
          })),
        );
        await audit.created(row!.id, {
          fileName: meta.fileName,
          alt: meta.alt,
          width: processed.width,
          height: processed.height,
          files: processed.variants.map((v) => `${v.format} ${v.width}`).join(", "),
        });
        return row!.id;
      });
      return { item: await one(id), created: true };
    } catch (error) {
      // The same file uploaded twice at once: the first one stored it.
      const existing = isUniqueViolation(error) ? await byKey(key) : null;
      if (existing) return { item: existing, created: false };
      // Nothing was stored: the objects just put go too, unless a row uses them (the same file in the trash).
      if (put.length)
        await removeUnused(put).catch((e: unknown) =>
          logger.warn({ reason: e instanceof Error ? e.message : String(e) }, "media: clean-up failed"),
        );
      throw error;
    }
  }

  /** Puts an image's files in the bucket; when one fails, those put are deleted again and the first error thrown. */
  async function putAll(
    target: S3Location,
    written: { name: string; data: Buffer; format: VariantFormat }[],
  ): Promise<ObjectRef[]> {
    const results = await Promise.allSettled(
      written.map((f) => objects.put(target, f.name, f.data, CONTENT_TYPES[f.format])),
    );
    const failed = results.find((r) => r.status === "rejected");
    if (!failed) return results.map((r) => (r as PromiseFulfilledResult<ObjectRef>).value);
    const done = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    await removeUnused(done).catch((e: unknown) =>
      logger.warn({ reason: e instanceof Error ? e.message : String(e) }, "media: clean-up failed"),
    );
    throw failed.reason;
  }

  /** Of these objects, those no row (a library file or a trashed one) points at any more. */
  async function unused(tx: Pick<Db, "execute">, refs: readonly ObjectRef[]): Promise<ObjectRef[]> {
    if (!refs.length) return [];
    const keys = refs.map((r) => r.key);
    const { rows } = await tx.execute<{ bucket: string; key: string }>(sql`
      select s3_bucket as bucket, s3_key as key from media_variants where s3_key = any(${sql.param(keys)}::text[])
      union select s3_bucket, s3_key from trash_files where s3_key = any(${sql.param(keys)}::text[])`);
    const used = new Set(rows.map((r) => `${r.bucket}/${r.key}`));
    return refs.filter((r) => !used.has(`${r.bucket}/${r.key}`));
  }

  async function removeUnused(refs: readonly ObjectRef[], tx: Pick<Db, "execute"> = db): Promise<number> {
    const gone = await unused(tx, refs);
    if (gone.length) await objects.remove(gone);
    return gone.length;
  }

  /** Where each of these images is used: the sections (and simple items) whose fields hold one of its addresses. */
  async function usagesOf(tx: Pick<Db, "select">, keys: string[]): Promise<Map<string, Usage[]>> {
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

  return {
    /**
     * An administrator's upload: the real type from the bytes (415), processed once in the queue (413 too many
     * pixels, 400 damaged, 503 queue full), then stored whole. The same bytes uploaded again are the same image.
     */
    async upload(
      input: { bytes: Buffer; fileName: string; alt?: string },
      actor: Actor,
    ): Promise<{ item: MediaItem; created: boolean; timings?: ProcessedImage["timings"] }> {
      acceptedFormat(input.bytes);
      const alt = parseWith(altSchema, { alt: input.alt ?? "" });
      if (!alt.ok) throw badRequest(alt.errors);
      const key = keyOf(input.bytes);
      const existing = await byKey(key);
      if (existing) return { item: existing, created: false };
      const processed = await queue.run(() => processImage(input.bytes));
      logger.info(
        {
          width: processed.width,
          height: processed.height,
          files: processed.variants.length,
          ms: processed.timings.total,
        },
        "image processed",
      );
      const stored = await store(
        key,
        processed,
        { fileName: cleanFileName(input.fileName), alt: alt.data.alt, sourceBytes: input.bytes.length },
        actor,
      );
      return { ...stored, timings: processed.timings };
    },

    /** Counts one upload of this administrator; false past the limit. */
    async mayUpload(actor: Actor): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
      return limiter.hit(UPLOAD_LIMIT, actor.id);
    },

    /**
     * One of our own shipped files (demo content): an SVG illustration stored as it is, or a raster processed like an
     * upload but in WebP only (a first start stays quick). Never reached from a request.
     */
    async importTrusted(input: { bytes: Buffer; fileName: string; alt: string }): Promise<MediaItem> {
      const key = keyOf(input.bytes);
      const existing = await byKey(key);
      if (existing) return existing;
      const processed = input.fileName.toLowerCase().endsWith(".svg")
        ? await processTrustedSvg(input.bytes)
        : await queue.run(() => processImage(input.bytes, { avif: false }));
      const meta = { fileName: input.fileName, alt: input.alt, sourceBytes: input.bytes.length };
      return (await store(key, processed, meta, undefined)).item;
    },

    /** The library, newest first, one page counted and cut in SQL. */
    async list(page: unknown, perPage: number): Promise<{ items: MediaItem[]; page: PageInfo }> {
      const { rows, page: info } = await pageOf(db, media, {
        orderBy: [desc(media.createdAt), desc(media.id)],
        page,
        perPage,
      });
      const variants = await variantsOf(rows.map((r) => r.id));
      return { items: rows.map((r) => item(r, variants.get(r.id) ?? [])), page: info };
    },

    get: one,

    /** Where an image is used (shown beside it in the library). */
    async usages(id: string): Promise<Usage[]> {
      const found = await one(id);
      return (await usagesOf(db, [found.key])).get(found.key) ?? [];
    },

    /** Where each image of a page of the library is used, in one query. */
    async usagesByKey(keys: string[]): Promise<Record<string, Usage[]>> {
      return Object.fromEntries(await usagesOf(db, keys));
    },

    /** Changes an image's alt text; the public pages show it at once (every instance is told). */
    async setAlt(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      if (!isId(id)) throw notFound("No such image.");
      const parsed = parseWith(altSchema, input);
      if (!parsed.ok) throw badRequest(parsed.errors);
      const modified = await audited(db, actor, "media", async (tx, audit) => {
        const [before] = await tx.select().from(media).where(eq(media.id, id)).for("update");
        if (!before) throw notFound("No such image.");
        if (before.alt === parsed.data.alt) return false;
        await tx.update(media).set({ alt: parsed.data.alt }).where(eq(media.id, id));
        await audit.updated(id, { alt: before.alt }, { alt: parsed.data.alt });
        await content.changedIn(tx);
        return true;
      });
      if (modified) content.invalidate();
      return { modified };
    },

    /**
     * Deletes an image nobody uses; one in use is refused (409) with the places that use it. The image and its files
     * go to the trash for 30 days (decision 039).
     */
    async remove(id: string, actor: Actor): Promise<void> {
      if (!isId(id)) throw notFound("No such image.");
      const key = await audited(db, actor, "media", async (tx, audit) => {
        // No section may start using the image between the check and the delete.
        await tx.execute(sql`lock table content_entries, simple_items in share mode`);
        const [row] = await tx.select().from(media).where(eq(media.id, id)).for("update");
        if (!row) throw notFound("No such image.");
        const usages = (await usagesOf(tx, [row.key])).get(row.key) ?? [];
        if (usages.length) throw new AppError(409, inUseMessage(usages));
        await putInTrash(tx, {
          kind: "media",
          entity: "media",
          recordId: id,
          title: row.fileName,
          row: { ...row, createdAt: row.createdAt.toISOString() },
          deletedAt: now(),
          deletedBy: actor,
          filesOfMedia: id,
        });
        await tx.delete(media).where(eq(media.id, id));
        await audit.deleted(id, { fileName: row.fileName, alt: row.alt, width: row.width, height: row.height });
        return row.key;
      });
      files.dropKey(key);
    },

    /**
     * An image taken out of the trash (the trash service's restore, in its transaction): its row and files back as they
     * were, under the same addresses; refused (409) when the same file was uploaded again since.
     */
    async restoreIn(tx: Tx, { trashId, recordId, row }: TrashedRow): Promise<void> {
      const key = String(row.key);
      const [again] = await tx.select({ id: media.id }).from(media).where(eq(media.key, key));
      if (again)
        throw new AppError(
          409,
          "The same image was uploaded again since: it is in the library already. Delete this copy from the trash.",
        );
      await tx.insert(media).values({
        id: recordId,
        key,
        fileName: String(row.fileName),
        sourceFormat: row.sourceFormat as Row["sourceFormat"],
        sourceBytes: Number(row.sourceBytes),
        width: Number(row.width),
        height: Number(row.height),
        color: String(row.color),
        alt: String(row.alt ?? ""),
        createdBy: row.createdBy === null || row.createdBy === undefined ? null : String(row.createdBy),
        createdAt: new Date(String(row.createdAt)),
      });
      // Each file where it was: its bytes in the row, or its object, left in the bucket while it was in the trash.
      await tx.execute(sql`insert into media_variants
          (media_id, format, width, height, size, storage, sha256, data, s3_bucket, s3_key)
        select ${recordId}, format, width, height, size, storage, sha256, data, s3_bucket, s3_key
        from trash_files where trash_id = ${trashId}`);
      // Pages describe images per content generation: a key they found missing is looked up again.
      await content.changedIn(tx);
    },

    /**
     * What the public pages need to draw the library images that `value` (a page's content, any shape) points to:
     * keyed by image key. Kept in memory until content changes, so a page costs no query for it after the first.
     */
    async describe(value: unknown): Promise<Record<string, MediaInfo>> {
      const keys = new Set<string>();
      collectKeys(value, keys);
      const generation = content.generation();
      if (described.generation !== generation) described = { generation, byKey: new Map() };
      const cache = described.byKey;
      const missing = [...keys].filter((k) => !cache.has(k));
      if (missing.length) {
        try {
          const rows = await db.select().from(media).where(inArray(media.key, missing));
          const variants = await variantsOf(rows.map((r) => r.id));
          for (const k of missing) cache.set(k, null);
          for (const r of rows) cache.set(r.key, info(r, variants.get(r.id) ?? []));
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
    },

    /** One served file by its address's parts; from memory after the first time. */
    async file(key: string, width: number, format: VariantFormat): Promise<ServedVariant | null> {
      const id = `${key}-${width}.${format}`;
      return files.get(id) ?? loadOnce(id, () => load(id, key, width, format));
    },

    /**
     * A trashed image deleted for good (the trash service's purge, in its transaction, once the entry's row is
     * deleted): its objects in the bucket go too, unless another row still points at one. A failed bucket call
     * throws, so the purge's transaction is rolled back and the entry stays in the trash, to be purged again.
     */
    async purgeFilesIn(tx: Tx, files: readonly StoredAt[]): Promise<void> {
      const refs = files.flatMap((f) => {
        const at = locationOf(f);
        return at.storage === "s3" ? [{ bucket: at.bucket, key: at.key }] : [];
      });
      await removeUnused(refs, tx);
    },

    /**
     * Moves the library's files (and the trash's) to the bucket or back into their rows (`npm run media:move`,
     * decision 081): one image at a time, each in its own transaction, its bytes checked against their SHA-256 at the
     * new place before the old copy is cleared. Resumable and idempotent: what is already there is not looked at
     * again. `signal` stops it between two images.
     */
    async moveFiles(
      to: MediaStorage,
      options: { signal?: AbortSignal; progress?: (done: MoveProgress) => void; pageSize?: number } = {},
    ): Promise<MoveSummary> {
      return moveFiles({
        db,
        objects,
        to,
        ...options,
        removeUnused: (refs) => removeUnused(refs),
        changed: async () => {
          await content.changedIn(db);
          content.invalidate();
        },
      });
    },

    /** Bytes held by the file cache (tests and the benchmark). */
    cachedBytes: () => files.bytes,
  };
}

export type MediaService = ReturnType<typeof createMediaService>;

/** The first 24 hex digits of the SHA-256 of the uploaded bytes: the image's name in every address. */
const keyOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex").slice(0, 24);

/** A file name for people: no folders, no control characters, at most 200 characters. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f\uD800-\uDFFF]/g, "").trim();
  return clean.slice(0, 200) || "image";
}

/** "This image is used by Banner (Banner Image or Video Link) and Team Member “Ada” (Member Image). …" */
export function inUseMessage(usages: Usage[]): string {
  const places = usages.map((u) => `${u.where} (${u.field})`);
  const list = places.length < 2 ? places.join("") : `${places.slice(0, -1).join(", ")} and ${places.at(-1)}`;
  return `This image is used by ${list}. Choose another image there first, then delete it.`;
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

/** A least-recently-used cache bounded by the bytes it holds. */
export class ByteCache {
  private readonly entries = new Map<string, ServedVariant>();
  bytes = 0;
  constructor(private readonly max: number) {}
  get(id: string): ServedVariant | undefined {
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
    }
    return hit;
  }
  set(id: string, value: ServedVariant): void {
    if (value.data.length > this.max / 8 || this.entries.has(id)) return;
    this.entries.set(id, value);
    this.bytes += value.data.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.max) break;
      this.entries.delete(k);
      this.bytes -= v.data.length;
    }
  }
  dropKey(key: string): void {
    for (const [k, v] of this.entries) {
      if (!k.startsWith(`${key}-`)) continue;
      this.entries.delete(k);
      this.bytes -= v.data.length;
    }
  }
}
