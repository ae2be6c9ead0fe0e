import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { connect } from "#server/db/client.ts";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { runMigrations } from "#server/db/migrate.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { loadConfig } from "#server/config.ts";
import { installJobQueue } from "#server/services/jobs.ts";

/**
 * One PostgreSQL server per test run: the embedded one (default) or TEST_DATABASE_URL when TEST_DB=external.
 * A template database is migrated once; each test file clones it (CREATE DATABASE … TEMPLATE).
 */
declare module "vitest" {
  export interface ProvidedContext {
    testDb: { admin: pg.ClientConfig; template: string; label: string };
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DB === "external";
  let admin: pg.ClientConfig;
  let stopServer = async () => {};
  let dir: string | undefined;
  if (external) {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DB=external needs TEST_DATABASE_URL");
    admin = { connectionString: url };
  } else {
    dir = mkdtempSync(path.join(tmpdir(), "atelier-test-"));
    chmodSync(dir, 0o755); // the postgres user must reach the cluster inside
    const server = await startEmbeddedPostgres(dir, silentLogger);
    admin = server.connection;
    stopServer = server.stop;
  }
  const template = `atelier_template_${process.pid}`;
  await withClient(admin, async (c) => {
    await c.query(`drop database if exists ${template}`);
    await c.query(`create database ${template}`);
  });
  const database = connect(withDatabase(admin, template), { max: 2 });
  await runMigrations(database);
  // The job queue's schema too: each clone then starts its queue without installing it.
  await installJobQueue(
    database.pool,
    loadConfig({ NODE_ENV: "test", DATA_DIR: dir ?? tmpdir(), AUTH_SECRET: "x".repeat(40) }).jobs,
  );
  await database.close();
  project.provide("testDb", { admin, template, label: external ? "external PostgreSQL" : "embedded PostgreSQL" });

  return async () => {
    await withClient(admin, async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 or datname = $2`,
        [`atelier_t_${process.pid}_%`, template],
      );
      for (const { datname } of rows) await c.query(`drop database if exists ${datname} with (force)`);
    });
    await stopServer();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(config: pg.ClientConfig, database: string): pg.ClientConfig {
  if (config.connectionString) {
    const url = new URL(config.connectionString);
    url.pathname = `/${database}`;
    return { connectionString: url.toString() };
  }
  return { ...config, database };
}

export async function withClient<T>(config: pg.ClientConfig, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
