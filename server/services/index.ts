import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../lib/logger";
import { createContentService } from "./content";
import { createInboxService } from "./inbox";
import { createRateLimiter } from "./rate-limit";

/** Every domain service, wired once with its dependencies; pages and the REST API both receive this object. */
export function createServices(database: Database, config: Config, logger: Logger) {
  const rateLimiter = createRateLimiter(database.db);
  const content = createContentService({
    db: database.db,
    pool: database.pool,
    logger,
    ttlMs: config.contentCacheTtlMs,
  });
  const inbox = createInboxService(database.db, rateLimiter, config.publicFormLimit);
  return {
    content,
    inbox,
    rateLimiter,
    async start() {
      await content.start();
    },
    async close() {
      await content.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
