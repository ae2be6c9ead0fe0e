import { createHash } from "node:crypto";
import type pg from "pg";
import { sql } from "drizzle-orm";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import type { Person } from "#domain/privacy.ts";
import type { Tx } from "./jobs";

export interface RateLimitRule {
  /** What is limited, e.g. "contact". */
  name: string;
  limit: number;
  windowMs: number;
}

/** The table of the library's PostgreSQL store (drizzle/0006_rate_limiter.sql), shared by every app instance. */
const TABLE = "rate_limiter";

// Keys hold addresses and emails; the store's key column is 255 characters.
const keyOf = (key: string) => (key.length > 200 ? createHash("sha256").update(key).digest("hex") : key);

/**
 * Rate limits from rate-limiter-flexible's PostgreSQL store (docs/decisions/015): one atomic upsert per attempt, in
 * the database every app instance shares. A rule is a fixed window of `windowMs` starting at the key's first hit.
 */
export function createRateLimiter({ pool }: { pool: pg.Pool }) {
  const limiters = new Map<string, RateLimiterPostgres>();
  const limiterFor = (rule: RateLimitRule) => {
    let limiter = limiters.get(rule.name);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: TABLE,
        tableCreated: true,
        keyPrefix: rule.name,
        points: rule.limit,
        duration: Math.ceil(rule.windowMs / 1000),
      });
      limiters.set(rule.name, limiter);
    }
    return limiter;
  };
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  return {
    /** Counts one attempt; `allowed` is false once the limit for this key is reached. */
    async hit(rule: RateLimitRule, key: string): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
      try {
        const res = await limiterFor(rule).consume(keyOf(key));
        return { allowed: true, retryAfterSeconds: seconds(res.msBeforeNext) };
      } catch (error) {
        if (error instanceof RateLimiterRes) return { allowed: false, retryAfterSeconds: seconds(error.msBeforeNext) };
        throw error; // the store failed (the database is away): not a verdict on the caller
      }
    },

    /** Attempts counted for this key in its current window (0 when none). */
    async count(rule: RateLimitRule, key: string): Promise<{ count: number; retryAfterSeconds: number }> {
      const res = await limiterFor(rule).get(keyOf(key));
      return { count: res?.consumedPoints ?? 0, retryAfterSeconds: res ? seconds(res.msBeforeNext) : 0 };
    },

    /** Counts one attempt without refusing anything (failures counted after the fact). */
    async add(rule: RateLimitRule, key: string): Promise<number> {
      const res = await limiterFor(rule).penalty(keyOf(key), 1);
      return res.consumedPoints;
    },

    /** Forgets a key's attempts (a successful sign-in clears its failures). */
    async reset(rule: RateLimitRule, key: string): Promise<void> {
      await limiterFor(rule).delete(keyOf(key));
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * The endings of the stored keys that are a person's (decision 086): the store writes `<rule>:<key>`, and a key is
 * their address or account id (as stored: hashed when long), or an address-and-network pair ending in `|<address>`.
 */
export function personKeyEndings(person: Person): string[] {
  return [
    ...[person.userId, ...person.emails].map((k) => `:${keyOf(k)}`),
    ...person.emails.map((email) => `|${email}`),
  ];
}

/**
 * Forgets a person's counters (sign-in failures, reset and confirmation requests, deletion attempts): an attempt
 * after the erasure counts again, as for anyone. Counters of a network address stay: they are the network's.
 */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  await tx.execute(sql`
    delete from ${sql.identifier(TABLE)}
    where exists (select 1 from unnest(${sql.param(personKeyEndings(person))}::text[]) as e(ending)
                  where right(key, length(e.ending)) = e.ending)`);
}
