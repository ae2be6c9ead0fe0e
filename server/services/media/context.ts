import type { MediaInfo, VariantFormat } from "#domain/media.ts";
import type { Config } from "#server/config.ts";
import type { Db } from "#server/db/client.ts";
import type { media } from "#server/db/schema.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { createProcessingQueue } from "#server/media/process.ts";
import type { MediaObjects, StoredAt } from "#server/media/storage.ts";
import type { ContentService } from "../content";
import type { RateLimiter } from "../rate-limit";
import type { ByteCache, ServedVariant } from "./cache";

export type Row = typeof media.$inferSelect;
export type VariantRef = { mediaId: string; format: VariantFormat; width: number } & StoredAt;

/** The media service's dependencies with their defaults, and what an instance holds in memory: built once. */
export interface MediaContext {
  db: Db;
  content: ContentService;
  limiter: RateLimiter;
  logger: Logger;
  now: () => Date;
  storage: Pick<Config, "media" | "s3">;
  objects: MediaObjects;
  queue: ReturnType<typeof createProcessingQueue>;
  files: ByteCache;
  // A file asked for by many visitors at once, before this instance holds it, is read once.
  loading: Map<string, Promise<ServedVariant | null>>;
  // Descriptions for pages, dropped whenever content (or an alt text) changes on any instance.
  described: { generation: number; byKey: Map<string, MediaInfo | null> };
}
