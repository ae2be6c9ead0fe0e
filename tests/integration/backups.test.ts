import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { backupBeforeMigrations } from "#server/backup/before-migration.ts";
import { MANIFEST_ENTRY, type Manifest } from "#server/backup/manifest.ts";
import { readManifest, restoreBackup, restoreIntoDataDir, RestoreError } from "#server/backup/restore.ts";
import { applyMigrationsUpTo, migrations } from "#server/backup/schema.ts";
import { loadConfig, type Config } from "#server/config.ts";
import { connect, type Database } from "#server/db/client.ts";
import { runMigrations } from "#server/db/migrate.ts";
import { openDatabase } from "#server/db/open.ts";
import { createApp } from "#server/http/app.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createServices } from "#server/services/index.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { attemptSignIn, signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { withClient, withDatabase } from "../support/global-db";
import { imageOf } from "../support/images";
import type { CookieJar } from "../support/session";
import { until } from "../support/wait";

/**
 * Issue 24, part 1: a backup is one archive of one snapshot, taken while orders keep coming; it restores into an empty
 * database or data folder, where the app starts and every row, image byte and password is as it was; and a restore
 * refuses what it must, leaving nothing behind.
 */
const ADMIN = { ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-1" };
const CUSTOMER = { email: "drill@example.org", password: "drill-pass-1" };
const work = mkdtempSync(path.join(tmpdir(), "atelier-backups-"));
chmodSync(work, 0o755); // a restored data folder's cluster runs as the postgres user
const jobs = { retryLimit: 2, retryDelaySeconds: 1 };

let app: TestApp;
let admin: CookieJar;
let customer: CookieJar;
let packageId: string;
let imageId: string;
const dropAfter: string[] = [];

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN, BACKUP_DIR: path.join(work, "backups"), BACKUP_KEEP: "3" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  admin = await signInAsAdmin(app);
  customer = await signUp(app, CUSTOMER.email, { password: CUSTOMER.password });
  packageId = ((await (await app.request("/api/pricings")).json()) as { _id: string }[])[0]!._id;
  for (let i = 0; i < 5; i++) await placeOrder();
  const form = new FormData();
  form.set("alt", "A drawing room");
  form.set("file", new Blob([new Uint8Array(await imageOf("jpeg", 1600, 1000))], { type: "image/jpeg" }), "room.jpg");
  const upload = await app.request("/api/media", { method: "POST", body: form, jar: admin });
  expect(upload.status).toBe(201);
  imageId = ((await upload.json()) as { item: { _id: string } }).item._id;
}, 120_000);

afterAll(async () => {
  await app?.close();
  const { admin: server } = inject("testDb");
  await withClient(server, async (c) => {
    for (const name of dropAfter) await c.query(`drop database if exists ${name} with (force)`);
  });
  rmSync(work, { recursive: true, force: true });
});

async function placeOrder() {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId, customerName: "Dora Drill", customerAddress: "2 Quay St", customerCountry: "Ireland" },
    jar: customer,
  });
  expect(res.status).toBe(201);
}

/** A new, empty database on the test server, dropped after the file. */
async function emptyDatabase(): Promise<pg.ClientConfig> {
  const { admin: server, template } = inject("testDb");
  const name = `atelier_r_${template.replace("atelier_template_", "")}_${randomBytes(4).toString("hex")}`;
  await withClient(server, (c) => c.query(`create database ${name}`));
  dropAfter.push(name);
  return withDatabase(server, name);
}

const tableCounts = async (pool: pg.Pool, manifest: Manifest) =>
  Object.fromEntries(
    await Promise.all(
      manifest.tables.map(async (t) => {
        const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from public."${t.name}"`);
        return [t.name, rows[0]!.n] as const;
      }),
    ),
  );

const imageBytes = async (pool: pg.Pool) => {
  const { rows } = await pool.query<{ width: number; format: string; bytes: Buffer }>(
    "select width, format, data as bytes from media_variants where media_id = $1 order by width, format",
    [imageId],
  );
  expect(rows.length).toBeGreaterThan(0);
  return rows.map((r) => `${r.width}.${r.format}:${createHash("sha256").update(r.bytes).digest("hex")}`);
};

/** The app's indexes, constraints and triggers, by name and definition. */
async function schemaOf(pool: pg.Pool) {
  const { rows } = await pool.query<{ what: string }>(
    `select 'index ' || indexname || ': ' || indexdef as what from pg_indexes where schemaname = 'public'
     union all
     select 'constraint ' || c.conrelid::regclass::text || '.' || c.conname || ': ' || pg_get_constraintdef(c.oid)
     from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public'
     union all
     select 'trigger ' || tgrelid::regclass::text || '.' || tgname || ' ' || tgenabled::text from pg_trigger
     where not tgisinternal and tgrelid::regclass::text not like 'pgboss.%'
     order by 1`,
  );
  return rows.map((r) => r.what);
}

/** What remains in a target after a refused restore: its tables and schemas of the app's. */
async function leftIn(config: pg.ClientConfig) {
  return withClient(config, async (c) => {
    const { rows } = await c.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'drizzle', 'pgboss') and c.relkind in ('r', 'p', 'S')`,
    );
    const schemas = await c.query(`select nspname from pg_namespace where nspname in ('drizzle', 'pgboss')`);
    return { tables: rows[0]!.n, schemas: schemas.rows.length };
  });
}

/** The app (REST API, no pages) on a database, as the start does it, listening on a free port. */
async function serve(database: Database, config: Config) {
  const services = createServices(database, config, silentLogger);
  await services.start();
  const server: Server = await new Promise((resolve) => {
    const s = createApp({ config, database, services, logger: silentLogger }).listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    services,
    async close() {
      await new Promise((r) => server.close(r));
      await services.close();
    },
  };
}

let drill: { file: string; manifest: Manifest };

describe("the restore drill", { timeout: 240_000 }, () => {
  it("a backup taken while orders keep coming holds one consistent snapshot, with its manifest", async () => {
    let placing = true;
    let placedDuring = 0;
    const load = (async () => {
      while (placing) {
        await placeOrder();
        placedDuring++;
      }
    })();
    await until("the load under way", () => placedDuring > 0);
    const atStart = placedDuring;
    const backup = await app.services.backups.run("manual");
    placing = false;
    await load;
    expect(placedDuring, "orders placed while the backup ran").toBeGreaterThan(atStart);
    drill = { file: backup.file, manifest: backup.manifest };

    const m = backup.manifest;
    expect(m).toMatchObject({
      format: "atelier-backup",
      reason: "manual",
      schema: { migration: migrations().at(-1)!.tag },
    });
    expect(path.basename(backup.file)).toMatch(/^atelier-backup-\d{8}T\d{6}Z-manual\.tar$/);
    for (const table of ["orders", "user", "account", "media", "media_variants", "activity_log", "content_entries"]) {
      expect(m.tables.find((t) => t.name === table)?.rows, table).toBeGreaterThan(0);
    }
    // One snapshot: the orders and the tallies their triggers keep were read at the same instant, while orders came in.
    const rows = (name: string) => m.tables.find((t) => t.name === name)!.rows;
    expect(rows("orders")).toBeGreaterThanOrEqual(5);
    const live = await app.db.pool.query<{ n: number }>("select count(*)::int as n from orders");
    expect(live.rows[0]!.n).toBeGreaterThan(rows("orders"));
    // The manifest is the archive's first entry, read back alone.
    expect(await readManifest(backup.file)).toEqual(m);
  });

  it("restores into an empty database: every row count matches the manifest, the image bytes are identical", async () => {
    const target = await emptyDatabase();
    const { manifest } = await restoreBackup(drill.file, target, { jobs, logger: silentLogger });
    const restored = connect(target);
    try {
      const counts = await tableCounts(restored.pool, manifest);
      expect(counts).toEqual(Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows])));
      expect(await imageBytes(restored.pool)).toEqual(await imageBytes(app.db.pool));
      const tallied = await restored.pool.query<{ orders: number; tallied: number }>(
        `select (select count(*)::int from orders) as orders,
                (select coalesce(sum(n), 0)::int from order_day_counts) as tallied`,
      );
      expect(tallied.rows[0]!.tallied).toBe(tallied.rows[0]!.orders);
      // The indexes and constraints, dropped while the rows loaded, are back exactly as the migrations made them.
      expect(await schemaOf(restored.pool)).toEqual(await schemaOf(app.db.pool));
    } finally {
      await restored.close();
    }
  });

  it("restores into a fresh data folder; the app starts on it and the customer and the admin sign in", async () => {
    const dataDir = path.join(work, "fresh-data");
    const { manifest } = await restoreIntoDataDir(drill.file, dataDir, { jobs, logger: silentLogger });
    // The same AUTH_SECRET as the site backed up (an operator's own, or the one every host shares from the database).
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      SEED_DEMO_CONTENT: "false",
      AUTH_SECRET: app.config.authSecret,
      ...ADMIN,
    });
    const opened = await openDatabase(config, silentLogger);
    let site: Awaited<ReturnType<typeof serve>> | undefined;
    try {
      const counts = await tableCounts(opened.database.pool, manifest);
      expect(counts).toEqual(Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows])));
      expect(await imageBytes(opened.database.pool)).toEqual(await imageBytes(app.db.pool));
      site = await serve(opened.database, opened.config);
      await site.services.accounts.ensureFirstAdmin();
      const asCustomer = await attemptSignIn(site, CUSTOMER.email, CUSTOMER.password);
      expect(asCustomer.res.status).toBe(200);
      const asAdmin = await attemptSignIn(site, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
      expect(asAdmin.res.status).toBe(200);
      const wrong = await attemptSignIn(site, CUSTOMER.email, "not-the-password");
      expect(wrong.res.status).toBe(401);
      // Every order of the snapshot is the customer's, and they see them all.
      const mine = await fetch(`${site.url}/api/orders`, { headers: { cookie: asCustomer.jar.header() } });
      expect(mine.status).toBe(200);
      expect(Number(mine.headers.get("x-total-count"))).toBe(manifest.tables.find((t) => t.name === "orders")!.rows);
      // A session made before the backup is still good after the restore.
      const before = await fetch(`${site.url}/api/orders`, { headers: { cookie: customer.header() } });
      expect(before.status).toBe(200);
      // The restore made no second administrator, and the image is served from the restored database.
      const admins = await opened.database.pool.query<{ n: number }>("select count(*)::int as n from admin_users");
      expect(admins.rows[0]!.n).toBe(manifest.tables.find((t) => t.name === "admin_users")!.rows);
    } finally {
      await site?.close();
      await opened.close();
    }
  });
});

describe("what a restore refuses, leaving nothing behind", { timeout: 120_000 }, () => {
  it("a target that holds anything", async () => {
    const { admin: server } = inject("testDb");
    const target = withDatabase(server, app.db.name);
    await expect(restoreBackup(drill.file, target, { jobs, logger: silentLogger })).rejects.toThrow(
      /The target database is not empty/,
    );
    const again = await emptyDatabase();
    await withClient(again, (c) => c.query("create table public.notes (id int)"));
    await expect(restoreBackup(drill.file, again, { jobs, logger: silentLogger })).rejects.toThrow(/public\.notes/);
  });

  it("a damaged archive: one byte changed in an entry, or the file cut short", async () => {
    const bytes = readFileSync(drill.file);
    // A byte in the middle of the media variants' entry: gzip or the checksum catches it, after rows were loaded.
    const damaged = path.join(work, "damaged.tar");
    const entry = tarEntries(bytes).find((e) => e.name === "data/media_variants.copy.gz")!;
    const at = entry.offset + Math.floor(entry.size / 2);
    const flipped = Buffer.from(bytes);
    flipped[at] = flipped[at]! ^ 0xff;
    writeFileSync(damaged, flipped);
    const target = await emptyDatabase();
    const refused = await restoreBackup(damaged, target, { jobs, logger: silentLogger }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RestoreError);
    expect(String(refused)).toMatch(/damaged|could not be restored/);
    expect(await leftIn(target)).toEqual({ tables: 0, schemas: 0 });

    const cut = path.join(work, "cut.tar");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(restoreBackup(cut, target, { jobs, logger: silentLogger })).rejects.toBeInstanceOf(RestoreError);
    expect(await leftIn(target)).toEqual({ tables: 0, schemas: 0 });

    const notOne = path.join(work, "notes.tar");
    writeFileSync(notOne, Buffer.alloc(4096, "x"));
    await expect(restoreBackup(notOne, target, { jobs, logger: silentLogger })).rejects.toThrow(
      /not a backup archive of this app/,
    );
  });

  it("a data folder already in use, or one whose restore failed, is left as it was", async () => {
    const dataDir = path.join(work, "failed-data");
    const cut = path.join(work, "cut.tar");
    await expect(restoreIntoDataDir(cut, dataDir, { jobs, logger: silentLogger })).rejects.toBeInstanceOf(RestoreError);
    // The cluster this restore created is gone again: the folder can take the next restore.
    const { manifest } = await restoreIntoDataDir(drill.file, dataDir, { jobs, logger: silentLogger });
    expect(manifest.createdAt).toBe(drill.manifest.createdAt);
    await expect(restoreIntoDataDir(drill.file, dataDir, { jobs, logger: silentLogger })).rejects.toThrow(/not empty/);
  });

  it("an archive of a newer schema, with a message naming both versions", async () => {
    const newer = path.join(work, "newer.tar");
    await rewriteManifest(drill.file, newer, (m) => ({
      ...m,
      app: { ...m.app, version: "9.0.0" },
      schema: {
        migration: "0099_from_the_future",
        migrationMillis: Date.now(),
        migrations: migrations().length + 1,
      },
    }));
    const target = await emptyDatabase();
    await expect(restoreBackup(newer, target, { jobs, logger: silentLogger })).rejects.toThrow(
      /newer than this version of the app knows.*0099_from_the_future.*version 9\.0\.0/,
    );
    expect(await leftIn(target)).toEqual({ tables: 0, schemas: 0 });
  });
});

describe("an older schema, and the backup before a migration", { timeout: 120_000 }, () => {
  it("an archive made before the last migration restores as it was; the next start migrates it", async () => {
    const older = migrations().at(-2)!;
    // drizzle's created_at for it, as the app's own database (migrated by drizzle at the start) holds it.
    const { rows } = await app.db.pool.query<{ at: string }>(
      `select created_at::text as at from drizzle.__drizzle_migrations order by id offset $1 limit 1`,
      [older.idx],
    );
    const olderSchema = { migration: older.tag, migrationMillis: Number(rows[0]!.at), migrations: older.idx + 1 };
    const source = await emptyDatabase();
    const database = connect(source);
    try {
      const client = await database.pool.connect();
      try {
        await client.query("begin");
        await applyMigrationsUpTo(client, olderSchema);
        await client.query("commit");
      } finally {
        client.release();
      }
      await database.pool.query(
        `insert into "user" (id, name, email, email_verified, created_at, updated_at)
         values ('u1', 'Old Timer', 'old@example.org', true, now(), now())`,
      );
      // The embedded default's start: pending migrations on a database with data, so a backup first.
      const dir = path.join(work, "before-migration");
      await backupBeforeMigrations(database.pool, dir, silentLogger);
      const [made] = await (await import("node:fs/promises")).readdir(dir);
      expect(made).toMatch(/-before-migration\.tar$/);
      const manifest = await readManifest(path.join(dir, made!));
      expect(manifest.schema.migration).toBe(older.tag);

      const target = await emptyDatabase();
      await restoreBackup(path.join(dir, made!), target, { jobs, logger: silentLogger });
      const restored = connect(target);
      try {
        const last = await restored.pool.query<{ at: string }>(
          `select max(created_at)::text as at from drizzle.__drizzle_migrations`,
        );
        expect(Number(last.rows[0]!.at)).toBe(olderSchema.migrationMillis);
        await runMigrations(restored);
        const user = await restored.pool.query('select email from "user"');
        expect(user.rows).toEqual([{ email: "old@example.org" }]);
      } finally {
        await restored.close();
      }
    } finally {
      await database.close();
    }
  });
});

describe("the daily backup on the job queue", { timeout: 120_000 }, () => {
  it("keeps the newest BACKUP_KEEP archives, and the back office's list reads their manifests", async () => {
    for (let i = 0; i < 3; i++) await app.services.backups.run("daily");
    const list = (await app.services.backups.list()).backups;
    expect(list).toHaveLength(3);
    expect(list[0]!.counts!.orders).toBeGreaterThan(0);
    expect(list[0]!.reason).toBe("Daily");
    expect(list.map((b) => b.createdAt.getTime())).toEqual(
      [...list.map((b) => b.createdAt.getTime())].sort((a, b) => b - a),
    );
    expect(await app.services.backups.file(list[0]!.name)).toBe(path.join(app.config.backup.dir, list[0]!.name));
    expect(await app.services.backups.file("../secrets/auth-secret")).toBeUndefined();
  });

  it("a backup started now runs once on the queue; a failed one is a failed job and mails the admins", async () => {
    expect(await app.services.backups.requestNow()).toBe(true);
    await expect.poll(() => app.services.backups.inProgress(), { timeout: 30_000, interval: 200 }).toBe(false);
    expect((await app.services.backups.list()).backups[0]!.reason).toBe("Started in the back office");

    // A BACKUP_DIR that cannot be written: a file where the folder should be.
    const blocked = path.join(work, "blocked");
    writeFileSync(blocked, "not a folder");
    const failing = await startTestApp({ ...ADMIN, BACKUP_DIR: blocked });
    try {
      await failing.services.accounts.ensureFirstAdmin();
      expect(await failing.services.backups.requestNow()).toBe(true);
      await expect
        .poll(async () => (await failing.services.jobs.list()).failed.map((j) => j.summary), {
          timeout: 30_000,
          interval: 200,
        })
        .toContain("Backup of the database");
      const failed = (await failing.services.jobs.list()).failed.find((j) => j.summary === "Backup of the database")!;
      expect(failed.error).toMatch(/EEXIST|ENOTDIR/);
      const mails = await failing.db.pool.query<{ data: { mail: { to: string; subject: string } } }>(
        "select data from pgboss.job where name = 'send-mail'",
      );
      expect(mails.rows.map((r) => [r.data.mail.to, r.data.mail.subject])).toContainEqual([
        ADMIN.ADMIN_EMAIL,
        "A backup of the site failed",
      ]);
    } finally {
      await failing.close();
    }
  });
});

/** Where each entry of a tar's bytes starts, and its size (ustar headers: name at 0, octal size at 124). */
function tarEntries(bytes: Buffer): { name: string; offset: number; size: number }[] {
  const found: { name: string; offset: number; size: number }[] = [];
  for (let at = 0; at + 512 <= bytes.length;) {
    const name = bytes
      .subarray(at, at + 100)
      .toString("utf8")
      .replace(/\0.*$/s, "");
    if (!name) break;
    const size = parseInt(
      bytes
        .subarray(at + 124, at + 136)
        .toString("utf8")
        .replace(/\0.*$/s, "")
        .trim(),
      8,
    );
    found.push({ name, offset: at + 512, size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return found;
}

/** A copy of an archive whose manifest says something else (the entries stay as they were). */
async function rewriteManifest(from: string, to: string, change: (m: Manifest) => Manifest) {
  const extract = tar.extract();
  const pack = tar.pack();
  const writing = pipeline(pack, createWriteStream(to));
  const reading = pipeline(createReadStream(from), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (entry.header.name === MANIFEST_ENTRY) body = Buffer.from(JSON.stringify(change(JSON.parse(body.toString()))));
    await new Promise<void>((resolve, reject) =>
      pack.entry({ ...entry.header, size: body.length }, body, (e) => (e ? reject(e) : resolve())),
    );
  }
  pack.finalize();
  await Promise.all([reading, writing]);
}
