/**
 * Backups on this server and in a bucket (docs/decisions/033 and 082), as pure rules: which archives a place keeps,
 * what the screen calls each place, and the restore tests' places and states.
 */

/** Where a copy of a backup is: the server's BACKUP_DIR, or the BACKUP_TARGET bucket. */
export const BACKUP_PLACES = ["server", "bucket"] as const;
export type BackupPlace = (typeof BACKUP_PLACES)[number];

export const PLACE_LABELS: Record<BackupPlace, string> = {
  server: "On this server",
  bucket: "In the bucket",
};

/** A restore test: asked for (waiting), running, then passed or failed. */
export const DRILL_STATES = ["waiting", "running", "passed", "failed"] as const;
export type DrillState = (typeof DRILL_STATES)[number];

export const DRILL_STATE_LABELS: Record<DrillState, string> = {
  waiting: "Waiting to start",
  running: "Running",
  passed: "Passed",
  failed: "Failed",
};

/** Where a backup is, in words: "On this server", "In the bucket", or both. */
export function placesLabel(places: readonly BackupPlace[]): string {
  const has = (p: BackupPlace) => places.includes(p);
  if (has("server") && has("bucket")) return "On this server and in the bucket";
  if (has("bucket")) return PLACE_LABELS.bucket;
  if (has("server")) return PLACE_LABELS.server;
  return "Nowhere";
}

/**
 * The archives a place no longer keeps: all but the newest `keep`. Archive names sort by the time they were taken
 * (atelier-backup-20261125T030000Z…), so the order of the names is their age. Each place (the folder, the bucket) is
 * pruned on its own with this rule.
 */
export function beyondKeep(names: readonly string[], keep: number, justMade?: string): string[] {
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`BACKUP_KEEP must be a whole number of 1 or more: ${keep}`);
  // The backup just made is always kept (a name cannot order two backups of the same second), with the newest
  // `keep - 1` of the others.
  const others = [...new Set(names)].filter((n) => n !== justMade).sort(byAge);
  const room = justMade !== undefined && names.includes(justMade) ? keep - 1 : keep;
  return others.slice(0, Math.max(0, others.length - room));
}

/**
 * Oldest first, by name: the time, then a name without a suffix before those with one (the second backup of a second
 * is named `…Z-2.tar`, and a plain sort would put it before `…Z.tar`, since "-" sorts before ".").
 */
export function byAge(a: string, b: string): number {
  const key = (name: string) => name.replace(/\.tar$/, "");
  const [x, y] = [key(a), key(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** What a restore test records: each table's rows (as the manifest says, and counted after the restore) and checksum. */
export interface DrillRecord {
  tables: { name: string; rows: number; restored: number; sha256: string }[];
  jobs: { rows: number; sha256: string };
  rows: number;
  ms: number;
  /** The archive tested: its size and SHA-256 as read, and the one stored with its copy in the bucket, if any. */
  archive: { size: number; sha256: string; storedSha256: string | null };
  /** The backup's moment, from its manifest. */
  createdAt: string;
}
