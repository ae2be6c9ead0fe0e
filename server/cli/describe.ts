import { count, fileSize } from "#domain/format.ts";
import type { Manifest } from "../backup/manifest";

/** One paragraph about an archive, for the backup and restore commands. */
export function describeBackup(file: string, size: number, manifest: Manifest, ms?: number): string {
  const tables = manifest.tables.filter((t) => t.rows > 0).length;
  return [
    `${file}: ${fileSize(size)}, ${count(manifest.totals.rows)} rows in ${tables} tables` +
      ` and ${manifest.jobs.rows} pending jobs${ms === undefined ? "" : `, in ${(ms / 1000).toFixed(1)} s`}.`,
    `Snapshot of ${manifest.createdAt} by version ${manifest.app.version}, schema migration ${manifest.schema.migration}.`,
  ].join("\n");
}
