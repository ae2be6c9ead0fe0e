import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3Location } from "../config";
import { s3Key } from "../lib/s3";
import { beyondKeep, byAge } from "#domain/backups.ts";
import { hashing } from "./create";
import { ARCHIVE_NAME, MANIFEST_ENTRY, manifestSchema, type Manifest } from "./manifest";

/**
 * Backups in an S3-compatible bucket (BACKUP_TARGET=s3://bucket/prefix/, docs/decisions/082): each archive is uploaded
 * under `<prefix><its file name>` with its SHA-256 in the object's metadata, checked after the upload (the stored size
 * and checksum), listed from the bucket itself (a new server sees an old one's backups), pruned to BACKUP_KEEP there,
 * and downloaded for a restore test with its bytes checked against that checksum on the way.
 */

/** The object metadata key (x-amz-meta-sha256) holding the archive's SHA-256, hex. */
const SHA256_META = "sha256";
/** Parts of a multipart upload: at least 8 MiB, more for a file that would need over 9,000 parts (S3 allows 10,000). */
const MIN_PART = 8 * 1024 * 1024;
const MAX_PARTS = 9_000;
/** The manifest is read with a ranged GET of the archive's first bytes (a tar header, then the manifest). */
const HEAD_BYTES = 64 * 1024;
const MANIFEST_LIMIT = 16 * 1024 * 1024;

/** A bucket's failure, in words that name the bucket (never its credentials). */
export class RemoteBackupError extends Error {}

export interface RemoteBackups {
  client: S3Client;
  location: S3Location;
}

/** One archive in the bucket. */
export interface RemoteArchive {
  name: string;
  key: string;
  size: number;
  modifiedAt: Date;
  etag: string;
}

/** `s3://bucket/prefix/`, as people set it and read it. */
export const targetLabel = ({ bucket, prefix }: S3Location) => `s3://${bucket}/${prefix}`;

/** The service's own words for a failure (its error code and message, or the network's). */
export function reasonOf(error: unknown): string {
  const e = error as { name?: string; message?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  const code = e?.name && e.name !== "Error" ? e.name : e?.code;
  const message = e?.message && e.message !== code ? e.message : "";
  const text = [code, message].filter(Boolean).join(": ") || String(error);
  return status && !/^\d{3}\b/.test(text) ? `${text} (HTTP ${status})` : text;
}

/**
 * Uploads an archive (streamed, in parts: never held in memory) with its SHA-256 as metadata, then checks what the
 * bucket holds: its size and that checksum. The bytes read for the upload are hashed too: a file that changed since it
 * was verified fails here. An object of that name with another checksum is never overwritten.
 */
export async function uploadArchive(
  remote: RemoteBackups,
  file: string,
  name: string,
  expected: { size: number; sha256: string },
): Promise<RemoteArchive> {
  const { client, location } = remote;
  const key = s3Key(location.prefix, name);
  const where = `${targetLabel(location)}${name}`;
  const existing = await head(remote, key).catch((error: unknown) => {
    throw new RemoteBackupError(`The bucket ${targetLabel(location)} could not be reached: ${reasonOf(error)}`);
  });
  if (existing && existing.sha256 !== expected.sha256) {
    throw new RemoteBackupError(
      `${where} already exists and holds another file (its checksum differs); it was left as it is.`,
    );
  }
  if (!existing) {
    const hash = createHash("sha256");
    const counted = { bytes: 0 };
    const body = createReadStream(file).pipe(hashing(hash, counted));
    try {
      const upload = new Upload({
        client,
        params: {
          Bucket: location.bucket,
          Key: key,
          Body: body,
          ContentType: "application/x-tar",
          ContentLength: expected.size,
          Metadata: { [SHA256_META]: expected.sha256 },
        },
        partSize: Math.max(MIN_PART, Math.ceil(expected.size / MAX_PARTS)),
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    } catch (error) {
      body.destroy();
      throw new RemoteBackupError(`The upload of ${name} to ${targetLabel(location)} failed: ${reasonOf(error)}`);
    }
    const read = hash.digest("hex");
    if (counted.bytes !== expected.size || read !== expected.sha256) {
      await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: key })).catch(() => undefined);
      throw new RemoteBackupError(
        `${name} changed on this server while it was uploaded (its bytes no longer match the checksum taken when it ` +
          `was written); the copy in the bucket was removed.`,
      );
    }
  }
  const stored = await head(remote, key).catch((error: unknown) => {
    throw new RemoteBackupError(`${where} could not be checked after its upload: ${reasonOf(error)}`);
  });
  if (!stored) throw new RemoteBackupError(`${where} is not in the bucket after its upload.`);
  if (stored.size !== expected.size || stored.sha256 !== expected.sha256) {
    throw new RemoteBackupError(
      `${where} does not match the file on this server after its upload: the bucket holds ${stored.size} bytes ` +
        `(${expected.size} sent) with checksum ${stored.sha256 ?? "none"}.`,
    );
  }
  return { name, key, size: stored.size, modifiedAt: stored.modifiedAt, etag: stored.etag };
}

/** An object's size, time, ETag and stored SHA-256, or undefined when there is none of that key. */
export async function head(
  { client, location }: RemoteBackups,
  key: string,
): Promise<{ size: number; sha256: string | undefined; modifiedAt: Date; etag: string } | undefined> {
  try {
    const res = await client.send(new HeadObjectCommand({ Bucket: location.bucket, Key: key }));
    return {
      size: res.ContentLength ?? 0,
      sha256: res.Metadata?.[SHA256_META],
      modifiedAt: res.LastModified ?? new Date(0),
      etag: res.ETag ?? "",
    };
  } catch (error) {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404) return undefined;
    throw error;
  }
}

/**
 * The archives under the prefix (not below it), read from the bucket a page of 1,000 keys at a time, newest first: what
 * any server made there, not only this one.
 */
export async function listArchives(
  { client, location }: RemoteBackups,
  signal?: AbortSignal,
): Promise<RemoteArchive[]> {
  const found: RemoteArchive[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: location.bucket,
        Prefix: location.prefix,
        Delimiter: "/",
        ContinuationToken: token,
      }),
      { abortSignal: signal },
    );
    for (const o of page.Contents ?? []) {
      const name = o.Key?.slice(location.prefix.length) ?? "";
      if (!ARCHIVE_NAME.test(name)) continue;
      found.push({
        name,
        key: o.Key!,
        size: o.Size ?? 0,
        modifiedAt: o.LastModified ?? new Date(0),
        etag: o.ETag ?? "",
      });
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return found.sort((a, b) => byAge(b.name, a.name));
}

/**
 * Keeps the newest `keep` archives under the prefix (their names sort by time; the one just uploaded always) and deletes
 * the others, one request
 * each (DeleteObjects needs a checksum header some S3-compatible services refuse). Answers the names removed.
 */
export async function pruneArchives(remote: RemoteBackups, keep: number, justMade: string): Promise<string[]> {
  const archives = await listArchives(remote);
  const removed = beyondKeep(
    archives.map((a) => a.name),
    keep,
    justMade,
  );
  for (const name of removed) {
    await remote.client.send(
      new DeleteObjectCommand({ Bucket: remote.location.bucket, Key: s3Key(remote.location.prefix, name) }),
    );
  }
  return removed;
}

/** The manifest of an archive in the bucket, read from its first bytes (ranged GETs), without downloading it. */
export async function readRemoteManifest(remote: RemoteBackups, key: string, signal?: AbortSignal): Promise<Manifest> {
  const first = await range(remote, key, 0, HEAD_BYTES - 1, signal);
  const name = first.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
  const size = parseInt(first.subarray(124, 136).toString("utf8").replace(/\0.*$/s, "").trim(), 8);
  if (name !== MANIFEST_ENTRY || !Number.isFinite(size) || size <= 0 || size > MANIFEST_LIMIT) {
    throw new RemoteBackupError(`${key} is not a backup archive of this app: it does not start with its manifest.`);
  }
  const body =
    512 + size <= first.length ? first.subarray(512, 512 + size) : await range(remote, key, 512, 511 + size, signal);
  const parsed = manifestSchema.safeParse(JSON.parse(body.toString("utf8")));
  if (!parsed.success) throw new RemoteBackupError(`${key} is not a backup archive of this app: its manifest is not.`);
  return parsed.data;
}

async function range(
  { client, location }: RemoteBackups,
  key: string,
  from: number,
  to: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const res = await client.send(
    new GetObjectCommand({ Bucket: location.bucket, Key: key, Range: `bytes=${from}-${to}` }),
    { abortSignal: signal },
  );
  return Buffer.from(await res.Body!.transformToByteArray());
}

/**
 * Downloads an archive into `file` (streamed), checking its size and its SHA-256 against those stored with the object.
 * Answers what was read and what the bucket said (no stored checksum: an archive copied there by hand).
 */
export async function downloadArchive(
  remote: RemoteBackups,
  name: string,
  file: string,
): Promise<{ size: number; sha256: string; storedSha256: string | undefined }> {
  const { client, location } = remote;
  const key = s3Key(location.prefix, name);
  let res;
  try {
    res = await client.send(new GetObjectCommand({ Bucket: location.bucket, Key: key }));
  } catch (error) {
    throw new RemoteBackupError(
      `${targetLabel(location)}${name} could not be downloaded from the bucket: ${reasonOf(error)}`,
    );
  }
  const stored = res.Metadata?.[SHA256_META];
  const hash = createHash("sha256");
  const counted = { bytes: 0 };
  try {
    await pipeline(res.Body as Readable, hashing(hash, counted), createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    throw new RemoteBackupError(`The download of ${name} from the bucket broke off: ${reasonOf(error)}`);
  }
  const sha256 = hash.digest("hex");
  if (res.ContentLength !== undefined && counted.bytes !== res.ContentLength) {
    throw new RemoteBackupError(
      `The download of ${name} from the bucket is incomplete: ${counted.bytes} of ${res.ContentLength} bytes.`,
    );
  }
  if (stored && stored !== sha256) {
    throw new RemoteBackupError(
      `${name} in the bucket is damaged: its bytes do not match the checksum stored with it at its upload.`,
    );
  }
  return { size: counted.bytes, sha256, storedSha256: stored };
}
