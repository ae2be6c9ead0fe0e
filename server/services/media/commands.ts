import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { altSchema } from "#domain/media-alt.ts";
import type { MediaItem, Usage } from "#domain/media.ts";
import { parseWith } from "#domain/validation.ts";
import { media } from "#server/db/schema.ts";
import { AppError, badRequest, isId, notFound } from "#server/lib/errors.ts";
import { acceptedFormat, processImage, processTrustedSvg, type ProcessedImage } from "#server/media/process.ts";
import { audited, type Actor } from "../activity";
import type { Tx } from "../jobs";
import { putInTrash, type TrashedRow } from "../trash";
import type { MediaContext, Row } from "./context";
import { byKey, usagesOf } from "./queries";
import { store } from "./store";

/** Uploads per administrator per ten minutes: far above a person's pace, far below a script's. */
export const UPLOAD_LIMIT = { name: "media-upload", limit: 60, windowMs: 10 * 60_000 };

/**
 * An administrator's upload: the real type from the bytes (415), processed once in the queue (413 too many
 * pixels, 400 damaged, 503 queue full), then stored whole. The same bytes uploaded again are the same image.
 */
export async function upload(
  ctx: MediaContext,
  input: { bytes: Buffer; fileName: string; alt?: string },
  actor: Actor,
): Promise<{ item: MediaItem; created: boolean; timings?: ProcessedImage["timings"] }> {
  acceptedFormat(input.bytes);
  const alt = parseWith(altSchema, { alt: input.alt ?? "" });
  if (!alt.ok) throw badRequest(alt.errors);
  const key = keyOf(input.bytes);
  const existing = await byKey(ctx, key);
  if (existing) return { item: existing, created: false };
  const processed = await ctx.queue.run(() => processImage(input.bytes));
  ctx.logger.info(
    {
      width: processed.width,
      height: processed.height,
      files: processed.variants.length,
      ms: processed.timings.total,
    },
    "image processed",
  );
  const stored = await store(
    ctx,
    key,
    processed,
    { fileName: cleanFileName(input.fileName), alt: alt.data.alt, sourceBytes: input.bytes.length },
    actor,
  );
  return { ...stored, timings: processed.timings };
}

/** Counts one upload of this administrator; false past the limit. */
export async function mayUpload(
  ctx: MediaContext,
  actor: Actor,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  return ctx.limiter.hit(UPLOAD_LIMIT, actor.id);
}

/**
 * One of our own shipped files (demo content): an SVG illustration stored as it is, or a raster processed like an
 * upload but in WebP only (a first start stays quick). Never reached from a request.
 */
export async function importTrusted(
  ctx: MediaContext,
  input: { bytes: Buffer; fileName: string; alt: string },
): Promise<MediaItem> {
  const key = keyOf(input.bytes);
  const existing = await byKey(ctx, key);
  if (existing) return existing;
  const processed = input.fileName.toLowerCase().endsWith(".svg")
    ? await processTrustedSvg(input.bytes)
    : await ctx.queue.run(() => processImage(input.bytes, { avif: false }));
  const meta = { fileName: input.fileName, alt: input.alt, sourceBytes: input.bytes.length };
  return (await store(ctx, key, processed, meta, undefined)).item;
}

/** Changes an image's alt text; the public pages show it at once (every instance is told). */
export async function setAlt(
  ctx: MediaContext,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  if (!isId(id)) throw notFound("No such image.");
  const parsed = parseWith(altSchema, input);
  if (!parsed.ok) throw badRequest(parsed.errors);
  const modified = await audited(ctx.db, actor, "media", async (tx, audit) => {
    const [before] = await tx.select().from(media).where(eq(media.id, id)).for("update");
    if (!before) throw notFound("No such image.");
    if (before.alt === parsed.data.alt) return false;
    await tx.update(media).set({ alt: parsed.data.alt }).where(eq(media.id, id));
    await audit.updated(id, { alt: before.alt }, { alt: parsed.data.alt });
    await ctx.content.changedIn(tx);
    return true;
  });
  if (modified) ctx.content.invalidate();
  return { modified };
}

/**
 * Deletes an image nobody uses; one in use is refused (409) with the places that use it. The image and its files
 * go to the trash for 30 days (decision 039).
 */
export async function remove(ctx: MediaContext, id: string, actor: Actor): Promise<void> {
  if (!isId(id)) throw notFound("No such image.");
  const key = await audited(ctx.db, actor, "media", async (tx, audit) => {
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
      deletedAt: ctx.now(),
      deletedBy: actor,
      filesOfMedia: id,
    });
    await tx.delete(media).where(eq(media.id, id));
    await audit.deleted(id, { fileName: row.fileName, alt: row.alt, width: row.width, height: row.height });
    return row.key;
  });
  ctx.files.dropKey(key);
}

/**
 * An image taken out of the trash (the trash service's restore, in its transaction): its row and files back as they
 * were, under the same addresses; refused (409) when the same file was uploaded again since.
 */
export async function restoreIn(ctx: MediaContext, tx: Tx, { trashId, recordId, row }: TrashedRow): Promise<void> {
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
  await ctx.content.changedIn(tx);
}

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
