import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ConfigError, loadConfig } from "#server/config.ts";
import { applicationName, checkConnections, connectionsOfHost, poolOptions } from "#server/db/capacity.ts";
import { connect } from "#server/db/client.ts";
import { withSharedSecrets } from "#server/db/secrets.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createTestDatabase } from "../support/db";
import { withDatabase } from "../support/global-db";

/** Issue 24, part 4: what the hosts on one database share (the auth secret) and how many connections they may open. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const host = (env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: "test", DATA_DIR: mkdtempSync(path.join(tmpdir(), "atelier-host-")), ...env });

/** A logger that keeps what it is told, warnings marked. */
function recording() {
  const lines: string[] = [];
  return {
    lines,
    info: (message: string) => void lines.push(message),
    warn: (message: string) => void lines.push(`WARN ${message}`),
  };
}

describe("the auth secret without AUTH_SECRET (decision 035)", () => {
  it("is made once and kept in the database: hosts starting at once all get the same one", async () => {
    await database.pool.query("delete from app_secrets");
    const hosts = Array.from({ length: 6 }, () => host());
    const secrets = await Promise.all(hosts.map((h) => withSharedSecrets(h, database.db, silentLogger)));
    const values = new Set(secrets.map((c) => c.authSecret));
    expect(values.size).toBe(1);
    expect([...values][0]!.length).toBeGreaterThanOrEqual(32);
    const { rows } = await database.pool.query("select name from app_secrets");
    expect(rows).toEqual([{ name: "auth" }]);
    // A later start, on any host, reads it again.
    expect((await withSharedSecrets(host(), database.db, silentLogger)).authSecret).toBe([...values][0]);
  });

  it("takes over the secret an earlier version generated in DATA_DIR, so its sessions and sent links stay valid", async () => {
    await database.pool.query("delete from app_secrets");
    const first = host();
    mkdirSync(path.join(first.dataDir, "secrets"));
    writeFileSync(path.join(first.dataDir, "secrets", "auth-secret"), `${"e".repeat(43)}\n`);
    const log = recording();
    expect((await withSharedSecrets(first, database.db, log)).authSecret).toBe("e".repeat(43));
    expect(log.lines.join("\n")).toMatch(/is now kept in the database/);
    expect(log.lines.join("\n")).not.toContain("e".repeat(43));
    // Another host with a file of its own of the same earlier version uses the database's, and says so.
    const second = host();
    mkdirSync(path.join(second.dataDir, "secrets"));
    writeFileSync(path.join(second.dataDir, "secrets", "auth-secret"), "f".repeat(43));
    const warned = recording();
    expect((await withSharedSecrets(second, database.db, warned)).authSecret).toBe("e".repeat(43));
    expect(warned.lines.join("\n")).toMatch(/^WARN .*holds another auth secret than the database's/m);
  });

  it("is AUTH_SECRET when it is set, whatever the database keeps", async () => {
    const config = await withSharedSecrets(host({ AUTH_SECRET: "z".repeat(40) }), database.db, silentLogger);
    expect(config.authSecret).toBe("z".repeat(40));
  });
});

describe("connections (server/db/capacity.ts)", () => {
  const admin = () => withDatabase(inject("testDb").admin, database.name) as never;

  it("names each pool after its host and the most that host opens", () => {
    const config = host({ WEB_CONCURRENCY: "4", DATABASE_POOL_SIZE: "10" });
    // 4 workers × (10 + 4 for the job queue) + the first process's 10
    expect(connectionsOfHost(config)).toBe(66);
    expect(applicationName(config)).toMatch(/^atelier [0-9a-f]{8} max=66$/);
    expect(applicationName(config)).toBe(applicationName({ ...config }));
    expect(applicationName(host({ WEB_CONCURRENCY: "4" }))).not.toBe(applicationName(config)); // another DATA_DIR
  });

  it("refuses a host whose processes alone may open more than the server accepts, saying what to change", async () => {
    const limit = host({ WEB_CONCURRENCY: "4", DATABASE_MAX_CONNECTIONS: "50" });
    const error = await checkConnections(database.pool, limit, silentLogger).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "This host may open up to 66 connections to PostgreSQL (4 processes × (DATABASE_POOL_SIZE 10 + 4 for the job " +
        "queue) + 10 for the first process), but DATABASE_MAX_CONNECTIONS is 50. Set DATABASE_POOL_SIZE=6 or lower, " +
        "or raise max_connections on the server; behind PgBouncer, set DATABASE_MAX_CONNECTIONS to what PgBouncer accepts.",
    );
    // The suggestion fits: 4 × (6 + 4) + 6 = 46.
    await checkConnections(database.pool, { ...limit, databasePoolSize: 6 }, silentLogger);
    // Without DATABASE_MAX_CONNECTIONS, the server's own limit (max_connections less the reserved ones).
    const server = await checkConnections(database.pool, host({ WEB_CONCURRENCY: "1" }), silentLogger);
    const { rows } = await database.pool.query<{ max: number }>(
      "select current_setting('max_connections')::int as max",
    );
    expect(server.server.max).toBe(rows[0]!.max);
    expect(server.limit).toBe(rows[0]!.max - server.server.reserved);
  });

  it("warns when the hosts on the database together may open more, counting each running host's claim", async () => {
    const other = host({ WEB_CONCURRENCY: "2", DATABASE_POOL_SIZE: "8" });
    const otherPool = connect(admin(), poolOptions(other));
    const held = await otherPool.pool.connect(); // a running host always holds one (its content listener)
    try {
      const me = host({ WEB_CONCURRENCY: "2", DATABASE_POOL_SIZE: "8", DATABASE_MAX_CONNECTIONS: "60" });
      const log = recording();
      const budget = await checkConnections(database.pool, me, log);
      expect(budget.thisHost).toBe(2 * (8 + 4) + 8);
      expect(budget.otherHosts).toEqual([32]);
      const warning = log.lines.find((l) => l.startsWith("WARN"));
      expect(warning).toMatch(/may open up to \d+ connections together, but DATABASE_MAX_CONNECTIONS is 60/);
      expect(warning).toMatch(/1 other host 32/);
      expect(warning).toMatch(/Set DATABASE_POOL_SIZE=\d+ or lower on each of the 2 hosts/);
      // With room for both, nothing is said.
      const quiet = recording();
      await checkConnections(database.pool, { ...me, databaseMaxConnections: 500 }, quiet);
      expect(quiet.lines.filter((l) => l.startsWith("WARN"))).toEqual([]);
    } finally {
      held.release();
      await otherPool.close();
    }
  });
});
