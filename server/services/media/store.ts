import { sql } from "drizzle-orm";
import { CONTENT_TYPES, mediaFileName, type MediaItem, type MediaStorage, type VariantFormat } from "#domain/media.ts";
import type { S3Location } from "#server/config.ts";
import type { Db } from "#server/db/client.ts";
import { media, mediaVariants } from "#server/db/schema.ts";
import { isUniqueViolation } from "#server/lib/errors.ts";
import type { ProcessedImage } from "#server/media/process.ts";
import { locationOf, sha256Hex, type ObjectRef, type StoredAt } from "#server/media/storage.ts";
import { moveFiles, type MoveProgress, type MoveSummary } from "#server/media/storage-move.ts";
import { audited, type Actor } from "../activity";
import type { Tx } from "../jobs";
import type { MediaContext } from "./context";
import { byKey, one } from "./queries";

/** Stores a processed image and its files in one transaction (all or nothing), logged as created by `actor`. */
export async function store(
  ctx: MediaContext,
  key: string,
  processed: ProcessedImage,
  meta: { fileName: string; alt: string; sourceBytes: number },
  actor: Actor | undefined,
): Promise<{ item: MediaItem; created: boolean }> {
  // With a bucket, the files are objects first: a row never points at an object that is not there.
  const target = ctx.objects.target;
  const written = processed.variants.map((v) => ({
    ...v,
    name: mediaFileName(key, v.width, v.format),
    sha256: sha256Hex(v.data),
  }));
  const put = target ? await putAll(ctx, target, written) : [];
  try {
    const id = await audited(ctx.db, actor, "media", async (tx, audit) => {
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
    return { item: await one(ctx, id), created: true };
  } catch (error) {
    // The same file uploaded twice at once: the first one stored it.
    const existing = isUniqueViolation(error) ? await byKey(ctx, key) : null;
    if (existing) return { item: existing, created: false };
    // Nothing was stored: the objects just put go too, unless a row uses them (the same file in the trash).
    if (put.length) await cleanUp(ctx, put);
    throw error;
  }
}

/** Puts an image's files in the bucket; when one fails, those put are deleted again and the first error thrown. */
async function putAll(
  ctx: MediaContext,
  target: S3Location,
  written: { name: string; data: Buffer; format: VariantFormat }[],
): Promise<ObjectRef[]> {
  const results = await Promise.allSettled(
    written.map((f) => ctx.objects.put(target, f.name, f.data, CONTENT_TYPES[f.format])),
  );
  const failed = results.find((r) => r.status === "rejected");
  if (!failed) return results.map((r) => (r as PromiseFulfilledResult<ObjectRef>).value);
  const done = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  await cleanUp(ctx, done);
  throw failed.reason;
}

/** Objects put for an image that was not stored, removed unless a row uses them; a failure is only logged. */
const cleanUp = (ctx: MediaContext, refs: readonly ObjectRef[]) =>
  removeUnused(ctx, refs).catch((e: unknown) =>
    ctx.logger.warn({ reason: e instanceof Error ? e.message : String(e) }, "media: clean-up failed"),
  );

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

async function removeUnused(
  ctx: MediaContext,
  refs: readonly ObjectRef[],
  tx: Pick<Db, "execute"> = ctx.db,
): Promise<number> {
  const gone = await unused(tx, refs);
  if (gone.length) await ctx.objects.remove(gone);
  return gone.length;
}

/**
 * A trashed image deleted for good (the trash service's purge, in its transaction, once the entry's row is
 * deleted): its objects in the bucket go too, unless another row still points at one. A failed bucket call
 * throws, so the purge's transaction is rolled back and the entry stays in the trash, to be purged again.
 */
export async function purgeFilesIn(ctx: MediaContext, tx: Tx, files: readonly StoredAt[]): Promise<void> {
  const refs = files.flatMap((f) => {
    const at = locationOf(f);
    return at.storage === "s3" ? [{ bucket: at.bucket, key: at.key }] : [];
  });
  await removeUnused(ctx, refs, tx);
}

/**
 * Moves the library's files (and the trash's) to the bucket or back into their rows (`npm run media:move`,
 * decision 081): one image at a time, each in its own transaction, its bytes checked against their SHA-256 at the
 * new place before the old copy is cleared. Resumable and idempotent: what is already there is not looked at
 * again. `signal` stops it between two images.
 */
export async function moveLibrary(
  ctx: MediaContext,
  to: MediaStorage,
  options: { signal?: AbortSignal; progress?: (done: MoveProgress) => void; pageSize?: number } = {},
): Promise<MoveSummary> {
  return moveFiles({
    db: ctx.db,
    objects: ctx.objects,
    to,
    ...options,
    removeUnused: (refs) => removeUnused(ctx, refs),
    changed: async () => {
      await ctx.content.changedIn(ctx.db);
      ctx.content.invalidate();
    },
  });
}
