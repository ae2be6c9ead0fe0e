import { createHash } from "node:crypto";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { mediaFileName, mediaUrl } from "#domain/media.ts";
import { s3Client } from "#server/lib/s3.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { mediaMoveCommand } from "#server/cli/media-move-command.ts";
import { createMediaService, type MediaItem } from "#server/services/media.ts";
import { createTrashService } from "#server/services/trash.ts";
import { createMediaObjects } from "#server/media/storage.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { imageOf } from "../support/images";
import { startLocalS3, type LocalS3 } from "../support/s3";
import { databaseUrl } from "../support/server";
import { CookieJar } from "../support/session";

/**
 * Issue 38 part 3 (decision 081): with MEDIA_STORAGE=s3 the library's files are objects of a real S3-compatible
 * server (s3rver), served by the app under the same addresses and headers, pointed at through MEDIA_PUBLIC_URL by
 * pages, deleted with their trash entry, and moved into the database and back with the same bytes, resumably.
 */
const BUCKET = "atelier-media";
let s3: LocalS3;
let app: TestApp;
const admin = new CookieJar();
const customer = new CookieJar();
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

beforeAll(async () => {
  s3 = await startLocalS3([BUCKET]);
  app = await startTestApp({
    ...s3.env,
    MEDIA_STORAGE: "s3",
    MEDIA_S3_BUCKET: BUCKET,
    MEDIA_PUBLIC_URL: `${s3.endpoint}/${BUCKET}`,
    ADMIN_EMAIL: "chief@example.org",
    ADMIN_PASSWORD: "chief-pass-1",
  });
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  await signUp(app, "cust@example.org", { jar: customer });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await s3?.stop();
});

const dbUrl = () => databaseUrl(inject("testDb").admin as never, app.db.name);
const client = () => s3Client(s3.settings);
async function objectKeys(): Promise<string[]> {
  const listed = await client().send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}
async function objectBytes(key: string): Promise<Buffer> {
  const got = await client().send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await got.Body!.transformToByteArray());
}
async function upload(bytes: Buffer, name: string, jar = admin) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), name);
  return app.request("/api/media", { method: "POST", body: form, jar });
}
async function uploaded(bytes: Buffer, name: string): Promise<MediaItem> {
  const res = await upload(bytes, name);
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: MediaItem }).item;
}
/** Every file of the library as a fresh instance serves it (no memory cache): name → SHA-256. */
async function servedByANewInstance(): Promise<Record<string, string>> {
  const fresh = createMediaService({
    db: app.db.db,
    content: app.services.content,
    limiter: app.services.rateLimiter,
    logger: silentLogger,
    storage: app.config,
  });
  const { rows } = await app.db.pool.query<{ key: string; format: "webp"; width: number }>(
    "select m.key, v.format, v.width from media_variants v join media m on m.id = v.media_id order by 1, 2, 3",
  );
  const out: Record<string, string> = {};
  for (const r of rows)
    out[mediaFileName(r.key, r.width, r.format)] = sha((await fresh.file(r.key, r.width, r.format))!.data);
  return out;
}
const storages = async () =>
  (
    await app.db.pool.query<{ storage: string; n: number }>(
      `select storage, count(*)::int as n from (select storage from media_variants union all select storage from trash_files) f
       group by storage order by storage`,
    )
  ).rows;

let first: MediaItem;

describe("an upload with MEDIA_STORAGE=s3", { timeout: 60_000 }, () => {
  it("puts each file in the bucket with its type and a year's immutable cache; the rows keep no bytes", async () => {
    first = await uploaded(await imageOf("png", 700, 500), "room.png");
    const names = first.widths.map((w) => mediaFileName(first.key, w, "webp"));
    const { rows } = await app.db.pool.query(
      "select v.format, v.width, v.storage, v.data, v.s3_bucket, v.s3_key, v.sha256 from media_variants v join media m on m.id = v.media_id where m.key = $1",
      [first.key],
    );
    expect(rows.length).toBeGreaterThanOrEqual(names.length);
    for (const r of rows) {
      expect(r).toMatchObject({ storage: "s3", data: null, s3_bucket: BUCKET });
      expect(r.s3_key).toBe(`media/${mediaFileName(first.key, r.width, r.format)}`);
      const head = await client().send(new HeadObjectCommand({ Bucket: BUCKET, Key: r.s3_key }));
      expect(head.ContentType).toBe(`image/${r.format}`);
      expect(head.CacheControl).toBe("public, max-age=31536000, immutable");
      expect(sha(await objectBytes(r.s3_key))).toBe(r.sha256);
    }
  });

  it("the app serves the bucket's bytes under the same address and headers; pages point at MEDIA_PUBLIC_URL", async () => {
    const w = first.widths[0]!;
    const res = await app.request(mediaUrl(first.key, w, "webp"));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("etag")).toBe(`"${first.key}-${w}.webp"`);
    const served = Buffer.from(await res.arrayBuffer());
    expect(served.equals(await objectBytes(`media/${mediaFileName(first.key, w, "webp")}`))).toBe(true);
    const again = await app.request(mediaUrl(first.key, w, "webp"), {
      headers: { "if-none-match": `"${first.key}-${w}.webp"` },
    });
    expect(again.status).toBe(304);

    const described = await app.services.media.describe({ image: first.url });
    const base = `${s3.endpoint}/${BUCKET}/media/`;
    expect(described[first.key]!.base).toBe(base);
    const direct = await fetch(`${base}${mediaFileName(first.key, w, "webp")}`);
    expect(direct.status).toBe(200);
    expect(Buffer.from(await direct.arrayBuffer()).equals(served)).toBe(true);
    // The field keeps the app's address, whatever the storage.
    expect(first.url).toBe(mediaUrl(first.key, first.widths.at(-1)!, "webp"));
  });

  it("only an administrator uploads: a visitor's and a customer's try leave the bucket as it was", async () => {
    const before = await objectKeys();
    const bytes = await imageOf("png", 300, 200);
    expect((await upload(bytes, "x.png", new CookieJar())).status).toBe(401);
    expect((await upload(bytes, "x.png", customer)).status).toBe(403);
    expect(await objectKeys()).toEqual(before);
  });

  it("a bucket that does not answer: the upload is refused with a clear message, and nothing is stored", async () => {
    const broken = createMediaService({
      db: app.db.db,
      content: app.services.content,
      limiter: app.services.rateLimiter,
      logger: silentLogger,
      storage: { media: app.config.media, s3: { ...s3.settings, endpoint: "http://127.0.0.1:9" } },
    });
    const count = async () => (await app.db.pool.query("select count(*)::int as n from media")).rows[0].n as number;
    const before = await count();
    const refused = broken.upload(
      { bytes: await imageOf("png", 320, 240), fileName: "a.png" },
      { id: "x", email: "x@example.org" },
    );
    await expect(refused).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(
        /^The image storage \(bucket atelier-media\) could not store a file: .+ Nothing was changed/,
      ),
    });
    expect(await count()).toBe(before);
    // A file no instance holds yet cannot be served: said as such (503), not as a missing image.
    await expect(broken.file(first.key, first.widths[0]!, "webp")).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/could not read a file/),
    });
  });

  it("many visitors asking at once for a file not yet in memory: one read from the bucket", async () => {
    const real = createMediaObjects(app.config);
    let reads = 0;
    const fresh = createMediaService({
      db: app.db.db,
      content: app.services.content,
      limiter: app.services.rateLimiter,
      logger: silentLogger,
      storage: app.config,
      objects: { ...real, get: (ref) => (reads++, real.get(ref)) },
    });
    const w = first.widths.at(-1)!;
    const served = await Promise.all(Array.from({ length: 8 }, () => fresh.file(first.key, w, "webp")));
    expect(reads).toBe(1);
    expect(new Set(served.map((f) => sha(f!.data))).size).toBe(1);
    await fresh.file(first.key, w, "webp");
    expect(reads).toBe(1);
  });
});

describe("delete, restore and purge", { timeout: 60_000 }, () => {
  it("the trash keeps the objects; a restore serves them again; a purge deletes them", async () => {
    const item = await uploaded(await imageOf("png", 500, 400), "hall.png");
    const mine = async () => (await objectKeys()).filter((k) => k.includes(item.key));
    const keys = await mine();
    expect(keys.length).toBeGreaterThan(0);
    expect((await app.request(`/api/media/${item._id}`, { method: "DELETE", json: {}, jar: admin })).status).toBe(200);
    expect(await mine()).toEqual(keys);
    expect(
      (await app.request(`/api/trash/media/${item._id}/restore`, { method: "POST", json: {}, jar: admin })).status,
    ).toBe(200);
    expect((await app.request(mediaUrl(item.key, item.widths[0]!, "webp"))).status).toBe(200);
    expect((await app.request(`/api/media/${item._id}`, { method: "DELETE", json: {}, jar: admin })).status).toBe(200);

    // The bucket refuses: the purge fails plainly and the entry stays, files and all.
    const brokenMedia = createMediaService({
      db: app.db.db,
      content: app.services.content,
      limiter: app.services.rateLimiter,
      logger: silentLogger,
      storage: app.config,
      objects: { ...createMediaObjects(app.config), remove: () => Promise.reject(new Error("bucket away")) },
    });
    const brokenTrash = createTrashService({
      db: app.db.db,
      logger: silentLogger,
      now: () => new Date(),
      restorers: { content: async () => {}, items: async () => {}, media: brokenMedia.restoreIn },
      changed: () => {},
      purgeFiles: brokenMedia.purgeFilesIn,
    });
    await expect(brokenTrash.purge("media", item._id, { id: "x", email: "x@example.org" })).rejects.toThrow(
      "bucket away",
    );
    const inTrash = async () =>
      (await app.db.pool.query("select count(*)::int as n from trash where record_id = $1", [item._id])).rows[0].n;
    expect(await inTrash()).toBe(1);
    expect(await mine()).toEqual(keys);

    expect((await app.request(`/api/trash/media/${item._id}`, { method: "DELETE", json: {}, jar: admin })).status).toBe(
      200,
    );
    expect(await inTrash()).toBe(0);
    expect(await mine()).toEqual([]);
  });
});

describe("npm run media:move", { timeout: 120_000 }, () => {
  const run = async (to: string, signal?: AbortSignal) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await mediaMoveCommand(
      ["--to", to],
      {
        ...process.env,
        ...s3.env,
        DATABASE_URL: dbUrl(),
        MEDIA_STORAGE: "s3",
        MEDIA_S3_BUCKET: BUCKET,
        DATA_DIR: app.config.dataDir,
        AUTH_SECRET: "x".repeat(40),
      },
      { stdout: (t) => out.push(t), stderr: (t) => err.push(t) },
      { signal },
    );
    return { code, out: out.join(""), err: err.join("") };
  };

  it("moves every file into the database and back with the same bytes, deleting the objects it no longer needs", async () => {
    await uploaded(await imageOf("png", 640, 480), "kitchen.png");
    await uploaded(await imageOf("png", 400, 600), "stairs.png");
    // One image in the trash: its files move too.
    const trashed = await uploaded(await imageOf("png", 420, 300), "porch.png");
    expect((await app.request(`/api/media/${trashed._id}`, { method: "DELETE", json: {}, jar: admin })).status).toBe(
      200,
    );
    const before = await servedByANewInstance();
    expect(Object.keys(before).length).toBeGreaterThan(3);

    const back = await run("database");
    expect(back.err).toBe("");
    expect(back.code).toBe(0);
    expect(back.out).toMatch(
      /Moved 4 images \(\d+ files, [\d.]+ MB\) into the database in [\d.]+ s\. \d+ objects deleted from the bucket\. Every image is in the database now\./,
    );
    expect(await storages()).toEqual([{ storage: "database", n: expect.any(Number) }]);
    expect(await objectKeys()).toEqual([]);
    expect(await servedByANewInstance()).toEqual(before);
    // Pages now load the files from the app.
    expect((await app.services.media.describe({ image: first.url }))[first.key]!.base).toBeUndefined();

    const again = await run("database");
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^Moved 0 images .* Every image is in the database now\./);

    const there = await run("s3");
    expect(there.code).toBe(0);
    expect(there.out).toMatch(/Moved 4 images .* to the bucket .* Every image is in the bucket now\./);
    expect(await storages()).toEqual([{ storage: "s3", n: expect.any(Number) }]);
    expect(await servedByANewInstance()).toEqual(before);
    const { rows } = await app.db.pool.query<{ s3_key: string; sha256: string }>(
      "select s3_key, sha256 from media_variants union all select s3_key, sha256 from trash_files",
    );
    for (const r of rows) expect(sha(await objectBytes(r.s3_key))).toBe(r.sha256);
  });

  it("stopped after the first image, it says what is left; run again, it goes on where it stopped", async () => {
    const stop = new AbortController();
    const lines: string[] = [];
    const moved = app.services.media.moveFiles("database", {
      signal: stop.signal,
      progress: (p) => {
        lines.push(`${p.images}/${p.total}`);
        stop.abort();
      },
    });
    const partial = await moved;
    expect(partial).toMatchObject({ images: 1, total: 4, left: 3, stopped: true });
    expect(lines).toEqual(["1/4"]);
    expect(await storages()).toEqual([
      { storage: "database", n: expect.any(Number) },
      { storage: "s3", n: expect.any(Number) },
    ]);
    const rest = await run("database");
    expect(rest.code).toBe(0);
    expect(rest.out).toMatch(/Moved 3 images .* Every image is in the database now\./);
    expect(await objectKeys()).toEqual([]);
  });

  it("refuses a move to a bucket that is not configured, and bad arguments", async () => {
    const none = await mediaMoveCommand(
      ["--to", "s3"],
      {
        ...process.env,
        DATABASE_URL: dbUrl(),
        MEDIA_STORAGE: "database",
        DATA_DIR: app.config.dataDir,
        AUTH_SECRET: "x".repeat(40),
      },
      {
        stdout: () => {},
        stderr: (t) => expect(t).toMatch(/There is no bucket to move the files to: set MEDIA_STORAGE=s3/),
      },
    );
    expect(none).toBe(1);
    const bad = await run("somewhere");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^Usage: npm run media:move -- --to s3/);
  });
});
