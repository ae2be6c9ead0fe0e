import { createHash } from "node:crypto";
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { MediaStorage } from "#domain/media.ts";
import type { Config, S3Location } from "../config";
import { AppError } from "../lib/errors";
import { s3Client, s3Key } from "../lib/s3";

/**
 * Where the media library's files are kept (decision 081): in their database rows (MEDIA_STORAGE=database, the
 * default) or as objects of an S3 bucket (MEDIA_STORAGE=s3), each file saying for itself where it is. This module
 * speaks to the bucket; the media service decides what goes where.
 */

/** How every file is cached, by browsers and CDNs alike: its bytes never change under its name. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** A file as one place keeps it: in its row, or as an object. */
type FileLocation = { storage: "database" } | { storage: "s3"; bucket: string; key: string };

/** The columns of a stored file that say where it is (media_variants and trash_files alike). */
export interface StoredAt {
  storage: MediaStorage;
  s3Bucket: string | null;
  s3Key: string | null;
}

/** An object of a bucket. */
export interface ObjectRef {
  bucket: string;
  key: string;
}

/** The hex SHA-256 of a file's bytes, kept beside it and checked before a move clears the copy it came from. */
export const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * The address pages load an image's files from when MEDIA_PUBLIC_URL is set: the CDN in front of the bucket, then the
 * bucket's prefix (objects are `<prefix><file name>`), so `https://cdn.example` and `media/` give
 * `https://cdn.example/media/`. Only for an image whose every file is an object of that bucket under its own name:
 * any other is served by the app.
 */
export function publicBase(
  config: Config["media"],
  key: string,
  files: readonly (StoredAt & { name: string })[],
): string | undefined {
  if (config.storage !== "s3" || !config.publicUrl || !files.length) return undefined;
  const { bucket, prefix } = config.location;
  const all = files.every((f) => f.storage === "s3" && f.s3Bucket === bucket && f.s3Key === s3Key(prefix, f.name));
  return all && key ? `${config.publicUrl}/${prefix}` : undefined;
}

/** The origin of MEDIA_PUBLIC_URL, which pages may load images from (the Content-Security-Policy's img-src). */
export function mediaImageSources(config: Config["media"]): string[] {
  return config.storage === "s3" && config.publicUrl ? [new URL(config.publicUrl).origin] : [];
}

/** A bucket call that failed: said plainly to the person (503: nothing was changed), with the cause for the log. */
class MediaStorageError extends AppError {
  constructor(what: string, ref: ObjectRef, cause: unknown) {
    super(
      503,
      `The image storage (bucket ${ref.bucket}) could not ${what}: ${describeS3Error(cause)}. Nothing was changed; try again in a minute.`,
    );
    this.cause = cause;
  }
}

/** An S3 error in a few words, with no secret in it (never a signature or a key). */
export function describeS3Error(error: unknown): string {
  const e = error as { name?: string; Code?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  const named = e?.name && !/^(Aggregate)?Error$/.test(e.name) ? e.name : undefined;
  const name = e?.Code ?? named ?? e?.code ?? "no answer";
  return status ? `${name} (HTTP ${status})` : String(name);
}

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
};

/** The bucket side of the library: put, read and delete its objects. */
export interface MediaObjects {
  /** Where new files go: the configured bucket and prefix, or undefined (MEDIA_STORAGE=database). */
  target: S3Location | undefined;
  /** Stores a file under `<prefix><name>` of the target bucket, with its type and a year's immutable cache. */
  put(location: S3Location, name: string, bytes: Uint8Array, contentType: string): Promise<ObjectRef>;
  /** An object's bytes, or null when the bucket has no such object. */
  get(ref: ObjectRef): Promise<Buffer | null>;
  /** Deletes objects (a missing one is no error). */
  remove(refs: readonly ObjectRef[]): Promise<void>;
}

export function createMediaObjects(config: Pick<Config, "s3" | "media">, client?: S3Client): MediaObjects {
  let made = client;
  const s3 = () => (made ??= s3Client(config.s3));
  return {
    target: config.media.storage === "s3" ? config.media.location : undefined,

    async put(location, name, bytes, contentType) {
      const ref = { bucket: location.bucket, key: s3Key(location.prefix, name) };
      try {
        await s3().send(
          new PutObjectCommand({
            Bucket: ref.bucket,
            Key: ref.key,
            Body: bytes,
            ContentLength: bytes.length,
            ContentType: contentType,
            CacheControl: IMMUTABLE,
          }),
        );
      } catch (error) {
        throw new MediaStorageError("store a file", ref, error);
      }
      return ref;
    },

    async get(ref) {
      try {
        const answer = await s3().send(new GetObjectCommand({ Bucket: ref.bucket, Key: ref.key }));
        if (!answer.Body) return null;
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) return null;
        throw new MediaStorageError("read a file", ref, error);
      }
    },

    async remove(refs) {
      // One call per object: DeleteObjects needs a checksum header some S3-compatible services do not take.
      const results = await Promise.allSettled(
        refs.map((ref) => s3().send(new DeleteObjectCommand({ Bucket: ref.bucket, Key: ref.key }))),
      );
      const failed = results.findIndex((r) => r.status === "rejected" && !isMissing(r.reason));
      if (failed >= 0)
        throw new MediaStorageError("delete a file", refs[failed]!, (results[failed] as PromiseRejectedResult).reason);
    },
  };
}

/** Where a stored file is, from its columns. */
export function locationOf(row: StoredAt): FileLocation {
  return row.storage === "s3" && row.s3Bucket && row.s3Key
    ? { storage: "s3", bucket: row.s3Bucket, key: row.s3Key }
    : { storage: "database" };
}
