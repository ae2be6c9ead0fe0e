import { withDeps } from "#server/lib/with-deps.ts";
import type { Db } from "../db/client";
import type { Logger } from "../lib/logger";
import { createMediaObjects, type MediaObjects } from "../media/storage";
import type { Config } from "../config";
import { createProcessingQueue } from "../media/process";
import type { ContentService } from "./content";
import type { RateLimiter } from "./rate-limit";
import { ByteCache } from "./media/cache";
import { importTrusted, mayUpload, remove, restoreIn, setAlt, upload } from "./media/commands";
import type { MediaContext } from "./media/context";
import { describe, file, list, one, usages, usagesByKey } from "./media/queries";
import { moveLibrary, purgeFilesIn } from "./media/store";

export type { MediaItem, Usage } from "#domain/media.ts";
export { ByteCache, type ServedVariant } from "./media/cache";
export { inUseMessage, UPLOAD_LIMIT } from "./media/commands";

/** Memory for served files (least recently used go first); one file larger than an eighth of it is never kept. */
const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

export interface MediaServiceOptions {
  db: Db;
  content: ContentService;
  limiter: RateLimiter;
  logger: Logger;
  cacheBytes?: number;
  /** The clock of the trash's dates (the services' one, which tests move). */
  now?: () => Date;
  /** Where files are kept (decision 081): MEDIA_STORAGE and its bucket; the database alone when not given. */
  storage?: Pick<Config, "media" | "s3">;
  /** The bucket's client (tests give a failing one); made from `storage.s3` when not given. */
  objects?: MediaObjects;
}

/**
 * The media library (issue 11, docs/decisions/017 and 018): uploads checked by their bytes and processed once, files
 * stored in PostgreSQL (so every instance serves every image), served from a bounded in-memory cache, described to the
 * public pages, and never deleted while a section uses them. Every change is in the activity log. The reads are in
 * media/queries.ts, the changes in media/commands.ts, the files and the bucket in media/store.ts, each a function over
 * one context this factory builds (decision 085).
 */
export function createMediaService({
  db,
  content,
  limiter,
  logger,
  cacheBytes = DEFAULT_CACHE_BYTES,
  now = () => new Date(),
  storage = {
    media: { storage: "database" },
    s3: { endpoint: undefined, region: "us-east-1", credentials: undefined, forcePathStyle: false },
  },
  objects = createMediaObjects(storage),
}: MediaServiceOptions) {
  const ctx: MediaContext = {
    db,
    content,
    limiter,
    logger,
    now,
    storage,
    objects,
    queue: createProcessingQueue(),
    files: new ByteCache(cacheBytes),
    loading: new Map(),
    described: { generation: -1, byKey: new Map() },
  };
  return {
    upload: withDeps(ctx, upload),
    mayUpload: withDeps(ctx, mayUpload),
    importTrusted: withDeps(ctx, importTrusted),
    list: withDeps(ctx, list),
    get: withDeps(ctx, one),
    usages: withDeps(ctx, usages),
    usagesByKey: withDeps(ctx, usagesByKey),
    setAlt: withDeps(ctx, setAlt),
    remove: withDeps(ctx, remove),
    restoreIn: withDeps(ctx, restoreIn),
    describe: withDeps(ctx, describe),
    file: withDeps(ctx, file),
    purgeFilesIn: withDeps(ctx, purgeFilesIn),
    moveFiles: withDeps(ctx, moveLibrary),
    /** Bytes held by the file cache (tests and the benchmark). */
    cachedBytes: () => ctx.files.bytes,
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
