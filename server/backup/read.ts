import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
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
