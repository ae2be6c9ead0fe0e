import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { archiveName } from "#server/backup/manifest.ts";
import { readManifest, verifyArchive } from "#server/backup/read.ts";
import { uploadArchive } from "#server/backup/remote.ts";
import { byAge } from "#domain/backups.ts";
import { s3Client } from "#server/lib/s3.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { withClient, withDatabase } from "../support/global-db";
import { startSmtpServer } from "../support/mail";
import { databaseUrl, ROOT } from "../support/server";
import { startLocalS3, type LocalS3 } from "../support/s3";

/**
 * Issue 38 part 4 (decision 082): with BACKUP_TARGET set, each backup is verified, uploaded to the bucket with its
 * SHA-256 and checked there; both places keep BACKUP_KEEP on their own; the Backups list reads the bucket itself; a
 * restore test of the bucket's copy restores it into a scratch database and counts its rows; a failed upload fails the
 * job, prunes nothing in the bucket and mails the admins. Against a real S3-compatible server (s3rver).
 */
const BUCKET = "atelier-backups";
const PREFIX = "site/";
const ADMIN = { ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-1" };
const work = mkdtempSync(path.join(tmpdir(), "atelier-backups-remote-"));
const dir = path.join(work, "backups");

let s3: LocalS3;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: TestApp;

beforeAll(async () => {
  [s3, smtp] = await Promise.all([startLocalS3([BUCKET]), startSmtpServer()]);
  app = await startTestApp({
    ...ADMIN,
    ...s3.env,
    SMTP_URL: smtp.url,
    BACKUP_DIR: dir,
    BACKUP_KEEP: "2",
    BACKUP_TARGET: `s3://${BUCKET}/${PREFIX}`,
  });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([s3?.stop(), smtp?.close()]);
  rmSync(work, { recursive: true, force: true });
});

const run = promisify(execFile);
const client = () => s3Client(s3.settings);
const keysInBucket = async () =>
  ((await client().send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX }))).Contents ?? [])
    .map((o) => o.Key!)
    .sort();
const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("backups copied to a bucket", { timeout: 180_000 }, () => {
  it("uploads each backup after it is written and verified, under the prefix, with its size and SHA-256", async () => {
    const backup = await app.services.backups.run("manual");
    expect(backup.uploaded).toBeDefined();
    const sha256 = sha256Of(backup.file);
    const stored = await client().send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}${backup.name}` }));
    expect(stored.ContentLength).toBe(backup.size);
    expect(stored.Metadata?.sha256).toBe(sha256);
    const { backups, bucketError } = await app.services.backups.list();
    expect(bucketError).toBeNull();
    expect(backups.find((b) => b.name === backup.name)?.places.sort()).toEqual(["bucket", "server"]);
  });

  it("keeps BACKUP_KEEP in each place on its own, and lists the bucket's backups a new server never made", async () => {
    await app.services.backups.run("daily");
    const last = await app.services.backups.run("daily");
    const names = (await readdir(dir)).filter((n) => n.endsWith(".tar")).sort(byAge);
    expect(names).toHaveLength(2);
    expect(await keysInBucket()).toEqual(names.map((n) => `${PREFIX}${n}`).sort());
    expect(names).toContain(last.name);

    // A new server (its folder empty) sees what the bucket holds, with each backup's facts read from its manifest.
    for (const name of names) await rm(path.join(dir, name));
    const { backups } = await app.services.backups.list();
    // (Newest first by the manifests' moments; backups of the same second are not ordered by name: decision 082.)
    expect(backups.map((b) => [b.name, b.places]).sort()).toEqual(names.map((n) => [n, ["bucket"]]).sort());
    expect(backups[0]!.name).toBe(last.name);
    expect(backups[0]!.counts?.accounts).toBe(last.manifest.tables.find((t) => t.name === "user")!.rows);
    expect(backups[0]!.reason).toBe("Daily");
    expect(await app.services.backups.file(names[0]!)).toBeUndefined();
  });

  it("a restore test of the bucket's copy restores it into a scratch database and counts every table's rows", async () => {
    const { backups } = await app.services.backups.list();
    const newest = backups[0]!;
    const { id } = await app.services.backups.requestDrill({ name: newest.name, place: "bucket" }, ADMIN.ADMIN_EMAIL);
    await expect
      .poll(async () => drillState(id), {
        timeout: 90_000,
        interval: 300,
      })
      .toBe("passed");
    const drill = (await app.services.backups.drills()).find((d) => d.id === id)!;
    const report = drill.report!;
    expect(report.tables.length).toBeGreaterThan(20);
    for (const t of report.tables) expect(t.restored, t.name).toBe(t.rows);
    expect(report.tables.find((t) => t.name === "content_entries")!.restored).toBeGreaterThan(0);
    expect(report.tables.find((t) => t.name === "user")!.restored).toBe(newest.counts!.accounts);
    expect(report.archive.storedSha256).toBe(report.archive.sha256);
    expect(report.archive.size).toBe(newest.size);
    expect(drill.requestedBy).toBe(ADMIN.ADMIN_EMAIL);
    // The scratch database is gone again.
    const scratch = await app.db.pool.query("select datname from pg_database where datname like '%\\_drill\\_%'");
    expect(scratch.rows).toEqual([]);

    // A copy damaged in the bucket (one byte changed) fails its test, saying so; a name not there is refused.
    const original = await getObject(`${PREFIX}${newest.name}`);
    const flipped = Buffer.from(original.body);
    flipped[flipped.length - 2048] = flipped[flipped.length - 2048]! ^ 0xff;
    const damagedName = archiveName(new Date(Date.UTC(2020, 0, 1)), "manual");
    await client().send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: `${PREFIX}${damagedName}`,
        Body: flipped,
        Metadata: { sha256: original.sha256 },
      }),
    );
    const damaged = await app.services.backups.requestDrill(
      { name: damagedName, place: "bucket" },
      "owner@example.org",
    );
    await expect
      .poll(async () => drillState(damaged.id), {
        timeout: 60_000,
        interval: 300,
      })
      .toMatch(/^failed: /);
    const failed = (await app.services.backups.drills()).find((d) => d.id === damaged.id)!;
    expect(failed.error).toMatch(/damaged: its bytes do not match the checksum stored with it/);
    await expect(
      app.services.backups.requestDrill({ name: archiveName(new Date(Date.UTC(2019, 0, 1))), place: "bucket" }, "x"),
    ).rejects.toThrow(/is not in the bucket/);
    await expect(app.services.backups.requestDrill({ name: "../secrets", place: "bucket" }, "x")).rejects.toThrow(
      /Choose a backup from the list/,
    );
  });

  it("npm run backup copies to the bucket; npm run restore s3://… restores the bucket's copy into an empty database", async () => {
    const { admin: server, template } = inject("testDb");
    const cli = (args: string[], env: Record<string, string>) =>
      run("npm", ["run", "--silent", ...args], {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: "warn", DATA_DIR: path.join(work, "cli"), ...s3.env, ...env },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, out: stdout + stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code, out: `${e.stdout}${e.stderr}` }),
      );
    const backup = await cli(["backup", path.join(work, "cli-backups")], {
      DATABASE_URL: databaseUrl(server as never, app.db.name),
      BACKUP_TARGET: `s3://${BUCKET}/${PREFIX}`,
    });
    expect(backup.code, backup.out).toBe(0);
    const [made] = (await readdir(path.join(work, "cli-backups"))).filter((n) => n.endsWith("-command.tar"));
    expect(backup.out).toContain(`Copied to s3://${BUCKET}/${PREFIX}${made}`);
    expect(await keysInBucket()).toContain(`${PREFIX}${made}`);

    // A bucket that is not there: the upload fails naming it and the service's reason.
    const file = path.join(work, "cli-backups", made!);
    const missing = { client: client(), location: { bucket: "no-such-bucket", prefix: "site/" } };
    const manifest = await readManifest(file);
    const verified = await verifyArchive(file, manifest);
    expect(verified).toEqual({ size: statSync(file).size, sha256: sha256Of(file) });
    // The check before any upload: one byte changed in an entry, and the file is not sent.
    const damaged = path.join(work, "damaged.tar");
    for (const [entry, why] of [
      ["manifest.json", /damaged \(its manifest is not the one it was written with\)/],
      ["data/content_entries.copy.gz", /damaged \(data\/content_entries\.copy\.gz does not match its checksum/],
    ] as const) {
      const bytes = readFileSync(file);
      const at = middleOf(bytes, entry);
      bytes[at] = bytes[at]! ^ 0x01;
      writeFileSync(damaged, bytes);
      await expect(verifyArchive(damaged, manifest)).rejects.toThrow(why);
    }
    await expect(uploadArchive(missing, file, made!, verified)).rejects.toThrow(
      /s3:\/\/no-such-bucket\/site\/.*NoSuchBucket/,
    );

    const name = `atelier_r_${template.replace("atelier_template_", "")}_${Date.now().toString(36)}`;
    await withClient(server, (c) => c.query(`create database ${name}`));
    try {
      const target = databaseUrl(server as never, name);
      const restore = await cli(["restore", `s3://${BUCKET}/${PREFIX}${made}`], { DATABASE_URL: target });
      expect(restore.code, restore.out).toBe(0);
      expect(restore.out).toContain("Restored in");
      const restored = await withClient(withDatabase(server, name), (c) =>
        c.query<{ n: number }>(`select count(*)::int as n from content_entries`),
      );
      const live = await app.db.pool.query<{ n: number }>(`select count(*)::int as n from content_entries`);
      expect(restored.rows[0]!.n).toBe(live.rows[0]!.n);
      const wrong = await cli(["restore", `s3://${BUCKET}/${PREFIX}notes.txt`], { DATABASE_URL: target });
      expect(wrong.code).toBe(1);
      expect(wrong.out).toContain("does not name a backup archive");
    } finally {
      await withClient(server, (c) => c.query(`drop database if exists ${name} with (force)`));
    }
  });

  it("a failed upload fails the job, removes nothing from the bucket, and mails the admins", async () => {
    // Objects already in the bucket under every name the next backup may take (its time, to the second): the upload
    // refuses to overwrite another file, as it would any upload the bucket refused.
    const now = Date.now();
    const taken: string[] = [];
    for (let s = -5; s < 60; s++) {
      const name = archiveName(new Date(now + s * 1000), "manual");
      taken.push(name);
      await client().send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `${PREFIX}${name}`,
          Body: "someone else's",
          Metadata: { sha256: "0".repeat(64) },
        }),
      );
    }
    const before = await keysInBucket();
    expect(before.length).toBeGreaterThan(2);

    expect(await app.services.backups.requestNow()).toBe(true);
    await expect
      .poll(async () => (await app.services.jobs.list()).failed.map((j) => j.summary), {
        timeout: 60_000,
        interval: 300,
      })
      .toContain("Backup of the database");
    const job = (await app.services.jobs.list()).failed.find((j) => j.summary === "Backup of the database")!;
    expect(job.error).toMatch(/already exists and holds another file/);
    // Written on the server, not pruned in the bucket.
    expect((await readdir(dir)).filter((n) => n.endsWith("-manual.tar"))).toHaveLength(1);
    expect(await keysInBucket()).toEqual(before);

    await expect
      .poll(() => smtp.received.map((m) => [m.to[0], m.subject]), { timeout: 30_000, interval: 200 })
      .toContainEqual([ADMIN.ADMIN_EMAIL, "A backup of the site was not copied to its bucket"]);
    const mail = smtp.received.find((m) => m.subject === "A backup of the site was not copied to its bucket")!;
    expect(mail.raw).toContain(`s3://${BUCKET}/${PREFIX}`);
    expect(mail.raw).not.toContain("S3RVER");
  });
});

async function getObject(key: string): Promise<{ body: Buffer; sha256: string }> {
  const res = await client().send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return { body: Buffer.from(await res.Body!.transformToByteArray()), sha256: res.Metadata?.sha256 ?? "" };
}

/** A restore test's state, and a failed one's reason with it (so that a failure says why). */
async function drillState(id: string) {
  const drill = (await app.services.backups.drills()).find((d) => d.id === id);
  return drill?.state === "failed" ? `failed: ${drill.error}` : drill?.state;
}

/** A byte in the middle of an entry of an archive's bytes (ustar headers: name at 0, octal size at 124). */
function middleOf(bytes: Buffer, name: string): number {
  for (let at = 0; at + 512 <= bytes.length;) {
    const size = parseInt(
      bytes
        .subarray(at + 124, at + 136)
        .toString("utf8")
        .replace(/\0.*$/s, "")
        .trim(),
      8,
    );
    if (
      bytes
        .subarray(at, at + 100)
        .toString("utf8")
        .replace(/\0.*$/s, "") === name
    ) {
      return at + 512 + Math.floor(size / 2);
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`No entry ${name}`);
}
