import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "#server/db/schema.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createContentService } from "#server/services/content.ts";
import { createTestDatabase } from "../support/db";
import { withDatabase } from "../support/global-db";
import { until } from "../support/wait";

/**
 * The content snapshot behind every public page (services/content.ts) on a real PostgreSQL. A page rendered after a
 * change must show it: the page cache stores what it renders under the generation it started in, so content read
 * before the change would be kept as current until the cache's lifetime ran out.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let pool: pg.Pool;
/** While set, each query's answer is held until it resolves: a read that is slow to come back. */
let gate: Promise<void> | undefined;
/** Reads that met the gate (their answer held until it opens). */
let heldReads = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.pool.query(
    `insert into content_entries (type, data) values ('banner', '{"bannerHeading": "Before the change"}')`,
  );
  pool = new pg.Pool({ ...(withDatabase(inject("testDb").admin as never, database.name) as pg.PoolConfig), max: 3 });
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = async (...args: unknown[]) => {
    const held = gate;
    if (held) heldReads++;
    const result = await query(...args);
    if (held) await held;
    return result;
  };
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const heading = (snapshot: { banner: Array<Record<string, unknown>> }) => snapshot.banner[0]?.bannerHeading;

describe("the content snapshot", () => {
  it("a read started before a change is not handed to a reader that comes after it", async () => {
    const content = createContentService({
      db: drizzle(pool, { schema }),
      pool,
      logger: silentLogger,
      ttlMs: 60_000,
    });
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    // A page starts reading: it gets the content as it was, but its answer is slow to come back.
    const early = content.snapshot();
    await until("the early read under way", () => heldReads > 0);
    gate = undefined;
    // Meanwhile the content changes and the change is heard (as the LISTEN connection would hear it).
    await database.pool.query(
      `update content_entries set data = '{"bannerHeading": "After the change"}' where type = 'banner'`,
    );
    content.invalidate();
    const generation = content.generation();
    // A page rendered now, for the new generation, must read the new content.
    const late = content.snapshot();
    release();
    expect(heading(await early)).toBe("Before the change");
    expect(heading(await late)).toBe("After the change");
    expect(content.generation()).toBe(generation);
    // And the snapshot kept is the new one.
    expect(heading(await content.snapshot())).toBe("After the change");
  });
});
