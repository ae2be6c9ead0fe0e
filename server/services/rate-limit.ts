import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

export interface RateLimitRule {
  /** What is limited, e.g. "contact". */
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counters in PostgreSQL, so that every app instance on one database shares them.
 * One statement per check: insert the window's row or add one to it, and read the count back.
 */
export function createRateLimiter(db: Db, now: () => number = Date.now) {
  let lastPrune = 0;
  return {
    /** Counts one attempt; returns false when the limit for this key is already reached. */
    async hit(rule: RateLimitRule, key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
      const t = now();
      const windowStart = new Date(Math.floor(t / rule.windowMs) * rule.windowMs);
      const fullKey = `${rule.name}:${key}`;
      const result = await db.execute<{ count: number }>(sql`
        insert into rate_limits (key, window_start, count) values (${fullKey}, ${windowStart.toISOString()}, 1)
        on conflict (key, window_start) do update set count = rate_limits.count + 1
        returning count`);
      const count = Number(result.rows[0]?.count ?? 0);
      if (t - lastPrune > 10 * 60_000) {
        lastPrune = t;
        await db.execute(sql`delete from rate_limits where window_start < now() - interval '1 day'`);
      }
      const retryAfterSeconds = Math.ceil((windowStart.getTime() + rule.windowMs - t) / 1000);
      return { allowed: count <= rule.limit, retryAfterSeconds };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
