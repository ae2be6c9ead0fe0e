import { sql } from "drizzle-orm";
import { CONTENT_TYPES, mediaFileName, type MediaStorage, type VariantFormat } from "#domain/media.ts";
import type { Db } from "../db/client";
import { AppError } from "../lib/errors";
import { setTrashedFileStorage } from "../services/trash";
import type { Tx } from "../services/jobs";
import { sha256Hex, type MediaObjects, type ObjectRef } from "./storage";

/** How far a move is: images (library and trash) and files moved so far, out of the images to move at its start. */
export interface MoveProgress {
  images: number;
  files: number;
  bytes: number;
  total: number;
}

export interface MoveSummary extends MoveProgress {
  to: MediaStorage;
  /** Images still to move: 0 when done; more when stopped (run again to go on). */
  left: number;
  stopped: boolean;
  /** Objects deleted from the bucket after their bytes were back in their rows. */
  removed: number;
  ms: number;
}

/** A file of an image that a move found in the wrong place or damaged: it stops the move, nothing of it changed. */
class MoveError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

interface Group {
  id: string;
  key: string;
}

interface FileRow {
  format: VariantFormat;
  width: number;
  sha256: string;
  data: Buffer | null;
  s3_bucket: string | null;
  s3_key: string | null;
}

/** The two tables whose rows hold files: the library's, and the trash's (images deleted less than 30 days ago). */
const SETS = [
  {
    name: "library",
    groups: (from: MediaStorage, after: string, limit: number) => sql`
      select m.id::text as id, m.key from media m
      where exists (select 1 from media_variants v where v.media_id = m.id and v.storage = ${from})
        and m.id::text > ${after}
      order by m.id::text limit ${limit}`,
    count: (from: MediaStorage) => sql`
      select count(distinct media_id)::int as n from media_variants where storage = ${from}`,
    // The image's row first, as a deletion takes it: a deletion waits for the move of its image, or the other way.
    lock: (id: string) => sql`select 1 from media where id = ${id} for update`,
    files: (id: string, from: MediaStorage) => sql`
      select format, width, sha256, data, s3_bucket, s3_key from media_variants
      where media_id = ${id} and storage = ${from} for update`,
    set: async (tx: Tx, id: string, file: FileRow, at: Located) => {
      await tx.execute(sql`update media_variants
        set storage = ${at.storage}, data = ${at.data}, s3_bucket = ${at.bucket}, s3_key = ${at.key}
        where media_id = ${id} and format = ${file.format} and width = ${file.width}`);
    },
  },
  {
    name: "trash",
    groups: (from: MediaStorage, after: string, limit: number) => sql`
      select t.id::text as id, t.row->>'key' as key from trash t
      where t.kind = 'media'
        and exists (select 1 from trash_files f where f.trash_id = t.id and f.storage = ${from})
        and t.id::text > ${after}
      order by t.id::text limit ${limit}`,
    count: (from: MediaStorage) => sql`
      select count(distinct trash_id)::int as n from trash_files where storage = ${from}`,
    // The entry's row first, as a restore or a purge takes it.
    lock: (id: string) => sql`select 1 from trash where id = ${id} for update`,
    files: (id: string, from: MediaStorage) => sql`
      select format, width, sha256, data, s3_bucket, s3_key from trash_files
      where trash_id = ${id} and storage = ${from} for update`,
    set: (tx: Tx, id: string, file: FileRow, at: Located) =>
      setTrashedFileStorage(tx, { trashId: id, format: file.format, width: file.width }, at),
  },
] as const;

/** Where a file goes: its bytes in its row, or its object. */
type Located =
  | { storage: "database"; data: Buffer; bucket: null; key: null }
  | { storage: "s3"; data: null; bucket: string; key: string };

interface MoveDeps {
  db: Db;
  objects: MediaObjects;
  to: MediaStorage;
  signal?: AbortSignal;
  progress?: (done: MoveProgress) => void;
  pageSize?: number;
  /** Deletes those of these objects no row points at any more (the media service's rule). */
  removeUnused: (refs: readonly ObjectRef[]) => Promise<number>;
  /** Tells every instance that pages' image addresses may have changed. */
  changed: () => Promise<void>;
}

/**
 * Moves every file to `to` (decision 081): one image per transaction, rows locked while its files are copied and
 * checked, so the app keeps serving each file from wherever its row says, and an interrupted move goes on where it
 * stopped. To the bucket: each object is read back and its SHA-256 compared before the row lets go of its bytes.
 * Back: each object's bytes are compared before they go into the row; the objects are deleted once that committed.
 */
export async function moveFiles(deps: MoveDeps): Promise<MoveSummary> {
  const { db, objects, to, signal, progress, pageSize = 50, removeUnused, changed } = deps;
  const started = Date.now();
  const from: MediaStorage = to === "s3" ? "database" : "s3";
  if (to === "s3" && !objects.target)
    throw new AppError(
      400,
      "There is no bucket to move the files to: set MEDIA_STORAGE=s3 and MEDIA_S3_BUCKET (and S3_ENDPOINT, S3_REGION and the keys for a service other than AWS).",
    );
  const done: MoveProgress = { images: 0, files: 0, bytes: 0, total: await imagesAt(db, from) };
  let removed = 0;
  let stopped = false;

  outer: for (const set of SETS) {
    let after = "";
    for (;;) {
      const { rows: groups } = await db.execute<Group & Record<string, unknown>>(set.groups(from, after, pageSize));
      if (!groups.length) break;
      let movedHere = 0;
      const toRemove: ObjectRef[] = [];
      for (const group of groups) {
        if (signal?.aborted) {
          stopped = true;
          break;
        }
        after = group.id;
        const moved = await moveImage(deps, set, group, from, toRemove);
        if (!moved.files) continue; // moved meanwhile (another run), or deleted
        done.images++;
        done.files += moved.files;
        done.bytes += moved.bytes;
        movedHere++;
        progress?.({ ...done });
      }
      if (movedHere) await changed();
      // The rows hold the bytes now (committed, and pages told): the objects may go.
      if (toRemove.length) removed += await removeUnused(toRemove);
      if (stopped) break outer;
    }
  }
  const left = await imagesAt(db, from);
  return { ...done, to, left, stopped, removed, ms: Date.now() - started };
}

/** The images (library and trash) that have files at `from`. */
async function imagesAt(db: Db, from: MediaStorage): Promise<number> {
  let n = 0;
  for (const set of SETS) n += (await db.execute<{ n: number }>(set.count(from))).rows[0]!.n;
  return n;
}

/**
 * One image's files moved in one transaction, its row locked first: how many and their bytes (none: moved meanwhile,
 * or deleted). The objects whose bytes went back into their rows are added to `toRemove`, to go once it committed.
 */
async function moveImage(
  { db, objects, to }: MoveDeps,
  set: (typeof SETS)[number],
  group: Group,
  from: MediaStorage,
  toRemove: ObjectRef[],
): Promise<{ files: number; bytes: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(set.lock(group.id));
    const { rows: files } = await tx.execute<FileRow & Record<string, unknown>>(set.files(group.id, from));
    let bytes = 0;
    for (const file of files) {
      const name = mediaFileName(group.key, file.width, file.format);
      if (to === "s3") {
        const data = file.data!;
        if (sha256Hex(data) !== file.sha256)
          throw new MoveError(`The file ${name} in the database does not match its checksum: it was not moved.`);
        const ref = await objects.put(objects.target!, name, data, CONTENT_TYPES[file.format]);
        const back = await objects.get(ref);
        if (!back || sha256Hex(back) !== file.sha256)
          throw new MoveError(
            `The bucket ${ref.bucket} did not give back the bytes stored as ${ref.key}: the file stays in the database.`,
          );
        await set.set(tx, group.id, file, { storage: "s3", data: null, bucket: ref.bucket, key: ref.key });
        bytes += data.length;
      } else {
        const ref = { bucket: file.s3_bucket!, key: file.s3_key! };
        const data = await objects.get(ref);
        if (!data)
          throw new MoveError(`The file ${name} is missing from the bucket ${ref.bucket} (object ${ref.key}).`);
        if (sha256Hex(data) !== file.sha256)
          throw new MoveError(
            `The object ${ref.key} in the bucket ${ref.bucket} does not match its checksum: it stays there.`,
          );
        await set.set(tx, group.id, file, { storage: "database", data, bucket: null, key: null });
        toRemove.push(ref);
        bytes += data.length;
      }
    }
    return { files: files.length, bytes };
  });
}

/** The summary line of a move, for people. */
export function describeMove(summary: MoveSummary): string {
  const where = summary.to === "s3" ? "to the bucket" : "into the database";
  const mb = (summary.bytes / (1024 * 1024)).toFixed(1);
  const head = `Moved ${summary.images} ${summary.images === 1 ? "image" : "images"} (${summary.files} files, ${mb} MB) ${where} in ${(summary.ms / 1000).toFixed(1)} s.`;
  const removed = summary.to === "database" ? ` ${summary.removed} objects deleted from the bucket.` : "";
  const tail =
    summary.left === 0
      ? ` Every image is ${summary.to === "s3" ? "in the bucket" : "in the database"} now.`
      : ` ${summary.left} ${summary.left === 1 ? "image is" : "images are"} left${summary.stopped ? " (stopped)" : ""}: run the same command again to go on.`;
  return head + removed + tail;
}
