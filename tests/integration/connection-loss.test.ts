import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { connect, isDatabaseUnavailable } from "#server/db/client.ts";
import { createTestDatabase } from "../support/db";
import { withDatabase } from "../support/global-db";

/**
 * A connection that is checked out of the pool (a transaction, a backup's snapshot) when the server drops it: pg
 * emits 'error' on the client, and pg-pool takes its own listener off clients it hands out, so an unheard one is an
 * uncaught exception that stops the whole process (CI's lifecycle test met it during a database outage).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const url = () => withDatabase(inject("testDb").admin, database.name) as never;

describe("a connection lost while it is checked out", () => {
  it("fails the transaction that held it, as an outage, and the process goes on", async () => {
    const app = connect(url(), { max: 2 });
    const killer = connect(url(), { max: 1 });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);
    process.prependListener("uncaughtException", onUncaught);
    // The transaction's connection (the pool's first): the moment its socket closes.
    const closed = new Promise<void>((resolve) =>
      app.pool.once("connect", (client) => {
        client.once("end", () => resolve());
      }),
    );
    try {
      const failure = await app.db
        .transaction(async (tx) => {
          const [row] = (await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows;
          await killer.pool.query("select pg_terminate_backend($1)", [row!.pid]);
          // Idle in the transaction while the socket closes: the error arrives as an event, not as a reply.
          await closed;
          await tx.execute(sql`select 1`);
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
      expect(uncaught).toEqual([]);
      // The broken connection went back to the pool as broken: the next query gets a working one.
      expect((await app.pool.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
    } finally {
      process.removeListener("uncaughtException", onUncaught);
      await app.close();
      await killer.close();
    }
  });
});
