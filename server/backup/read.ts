import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { hashing } from "./create";
import { MANIFEST_ENTRY, manifestSchema, type Manifest } from "./manifest";

/** A restore refused or undone, with a message that says why and what to do (nothing was left behind). */
export class RestoreError extends Error {}

const MANIFEST_LIMIT = 16 * 1024 * 1024;

/** The manifest of an archive: its first entry, read without reading the rest. */
export async function readManifest(file: string): Promise<Manifest> {
  const size = await stat(file).then(
    (s) => s.size,
    () => {
      throw new RestoreError(`There is no backup file at ${file}.`);
    },
  );
  if (size < 1024) throw new RestoreError(`${file} is not a backup archive of this app (${size} bytes).`);
  const extract = tar.extract();
  pipeline(createReadStream(file), extract).catch(() => undefined);
  try {
    for await (const entry of extract) {
      if (entry.header.name !== MANIFEST_ENTRY || (entry.header.size ?? 0) > MANIFEST_LIMIT) break;
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const parsed = manifestSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      if (parsed.success) return parsed.data;
      break;
    }
  } catch {
    /* not a tar, or not JSON: said below */
  } finally {
    extract.destroy();
  }
  throw new RestoreError(`${file} is not a backup archive of this app: it does not start with its manifest.`);
}

/**
 * Reads a whole archive once and checks it against its own manifest: the manifest first, then every entry in its place
 * with the byte count and SHA-256 the manifest gives (what a restore checks, without a database). Answers the archive's
 * size and SHA-256, which go with its copy in a bucket (docs/decisions/082). Memory: the streams' buffers.
 */
export async function verifyArchive(file: string, manifest: Manifest): Promise<{ size: number; sha256: string }> {
  const expected = [
    ...manifest.tables.map((t) => ({ entry: t.entry, bytes: t.bytes, sha256: t.sha256 })),
    manifest.jobs,
  ];
  const whole = createHash("sha256");
  const counted = { bytes: 0 };
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), hashing(whole, counted), extract);
  reading.catch(() => undefined);
  const damaged = (why: string) =>
    new RestoreError(`${path.basename(file)} is damaged (${why}): it does not match its manifest.`);
  let index = -1;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (index === -1) {
        if (name !== MANIFEST_ENTRY || (entry.header.size ?? 0) > MANIFEST_LIMIT) {
          throw damaged("its first entry is not the manifest");
        }
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        const written = manifestSchema.safeParse(safeJson(Buffer.concat(chunks).toString("utf8")));
        if (!written.success || JSON.stringify(written.data) !== JSON.stringify(manifestSchema.parse(manifest))) {
          throw damaged("its manifest is not the one it was written with");
        }
        index++;
        continue;
      }
      const want = expected[index];
      if (!want || name !== want.entry) throw damaged(`found ${name} where ${want?.entry ?? "the end"} belongs`);
      const hash = createHash("sha256");
      let bytes = 0;
      for await (const chunk of entry) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
      if (bytes !== want.bytes || hash.digest("hex") !== want.sha256) {
        throw damaged(`${name} does not match its checksum in the manifest`);
      }
      index++;
    }
    await reading;
  } catch (error) {
    if (error instanceof RestoreError) throw error;
    throw damaged(error instanceof Error ? error.message : String(error));
  } finally {
    extract.destroy();
  }
  if (index < expected.length) throw damaged(`it ends before ${expected[Math.max(index, 0)]!.entry}`);
  return { size: counted.bytes, sha256: whole.digest("hex") };
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
