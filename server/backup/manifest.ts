import { z } from "zod";

/**
 * What a backup archive says about itself (its first entry, `manifest.json`): which app and schema made it, when its
 * snapshot was taken, and for every entry that follows its rows and the SHA-256 of its bytes (docs/decisions/033).
 */
export const FORMAT = "atelier-backup";
/** Raised when the layout of the archive changes in a way an older restore could not read. */
export const FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = "manifest.json";

export const BACKUP_REASONS = ["daily", "manual", "command", "before-migration"] as const;
export type BackupReason = (typeof BACKUP_REASONS)[number];

export const REASON_LABELS: Record<BackupReason, string> = {
  daily: "Daily",
  manual: "Started in the back office",
  command: "npm run backup",
  "before-migration": "Before a migration",
};

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, { error: "not a plain SQL name" });

export const manifestSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.number().int().min(1),
  app: z.object({ name: z.string(), version: z.string() }),
  reason: z.enum(BACKUP_REASONS),
  /** The snapshot's moment: the database's now() in the backup's one transaction. */
  createdAt: z.iso.datetime({ offset: true }),
  server: z.object({ version: z.string() }),
  /** The last migration applied to the database: its name, its `created_at` in drizzle's table, how many there were. */
  schema: z.object({ migration: z.string(), migrationMillis: z.number().int(), migrations: z.number().int().min(1) }),
  /** The app's tables in the order they are restored (a table after those its foreign keys point at). */
  tables: z.array(
    z.object({
      name: identifier,
      columns: z.array(identifier).min(1),
      entry: z.string(),
      rows: z.number().int().min(0),
      bytes: z.number().int().min(0),
      sha256,
    }),
  ),
  sequences: z.array(z.object({ name: identifier, lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() })),
  /** The job queue's queues and its jobs not yet done (waiting, to retry or running), one JSON object a line. */
  jobs: z.object({
    queues: z.array(
      z.object({
        name: z.string(),
        policy: z.string(),
        retryLimit: z.number().int(),
        retryDelay: z.number().int(),
        retryBackoff: z.boolean(),
        retryDelayMax: z.number().int().nullable(),
        expireInSeconds: z.number().int(),
        retentionSeconds: z.number().int(),
        deleteAfterSeconds: z.number().int(),
      }),
    ),
    entry: z.string(),
    rows: z.number().int().min(0),
    bytes: z.number().int().min(0),
    sha256,
  }),
  totals: z.object({ rows: z.number().int().min(0), bytes: z.number().int().min(0) }),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type TableEntry = Manifest["tables"][number];

/** A backup's file name: `atelier-backup-20261125T030000Z.tar`, with the reason after the time when it is not daily. */
export const ARCHIVE_NAME = /^atelier-backup-\d{8}T\d{6}Z(-[a-z0-9_-]{1,80})?\.tar$/;

export function archiveName(at: Date, suffix?: string): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `atelier-backup-${stamp}${suffix ? `-${suffix}` : ""}.tar`;
}

/** Row counts worth a glance, from a manifest: every row, and the tables people ask about. */
export function keyCounts(manifest: Manifest) {
  const rows = (name: string) => manifest.tables.find((t) => t.name === name)?.rows ?? 0;
  return {
    total: manifest.totals.rows,
    orders: rows("orders"),
    accounts: rows("user"),
    images: rows("media"),
    messages: rows("messages"),
    activity: rows("activity_log"),
  };
}
