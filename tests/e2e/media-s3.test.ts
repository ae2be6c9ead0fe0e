import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { mediaMoveCommand } from "#server/cli/media-move-command.ts";
import { newPage } from "../support/browser";
import { openUntil, startAdminE2E, type E2EEnv } from "../support/e2e";
import { imageOf } from "../support/images";
import { toast } from "../support/pages";
import { startLocalS3, type LocalS3 } from "../support/s3";
import { databaseUrl } from "../support/server";

/**
 * Issue 38 part 3, done when (decision 081): with MEDIA_STORAGE=s3 and MEDIA_PUBLIC_URL at a local S3-compatible
 * server's bucket, an image uploaded on the media screen is drawn on / from the bucket; after
 * `npm run media:move -- --to database` the same page draws it from the app, with the same bytes.
 */
const BUCKET = "atelier-media-e2e";
let s3: LocalS3;
let env: E2EEnv;
let admin: Page;

beforeAll(async () => {
  s3 = await startLocalS3([BUCKET]);
  ({ env, admin } = await startAdminE2E({
    ...s3.env,
    MEDIA_STORAGE: "s3",
    MEDIA_S3_BUCKET: BUCKET,
    MEDIA_PUBLIC_URL: `${s3.endpoint}/${BUCKET}`,
  }));
});
afterAll(async () => {
  await env?.close();
  await s3?.stop();
});

const heroSource = (page: Page) =>
  page
    .getByTestId("hero-image")
    .evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.currentSrc : ""));

describe("media on S3", () => {
  it("an upload is drawn on / from the bucket, then from the app after the move back, with the same bytes", async () => {
    await admin.goto("/media-library");
    await admin.getByLabel("Image file").setInputFiles({
      name: "reading-nook.jpg",
      mimeType: "image/jpeg",
      buffer: await imageOf("jpeg", 1200, 800),
    });
    await admin.getByLabel("Alt text").first().fill("A reading nook by the window");
    await admin.getByRole("button", { name: "Upload", exact: true }).click();
    await expect.poll(() => toast(admin, "The image is uploaded.").count(), { timeout: 60_000 }).toBe(1);
    const [image] = (
      await env.db.pool.query(
        `select m.key, max(v.width)::int as width, bool_and(v.storage = 's3') as in_bucket
         from media m join media_variants v on v.media_id = m.id where m.file_name = 'reading-nook.jpg' group by m.key`,
      )
    ).rows as { key: string; width: number; in_bucket: boolean }[];
    expect(image!.in_bucket).toBe(true);

    // On the banner, as an editor would pick it.
    const [banner] = (await env.db.pool.query("select id from content_entries where type = 'banner'")).rows;
    await admin.goto(`/banner/${banner.id}`);
    await admin.getByLabel("Banner Image or Video Link").fill(`/media/${image!.key}-${image!.width}.webp`);
    await admin.getByRole("button", { name: "Update Banner" }).click();
    await expect.poll(() => toast(admin, "Banner is Updated").count()).toBe(1);

    const visitor = await newPage(env.browser, env.server.url);
    const bucketFiles = `${s3.endpoint}/${BUCKET}/media/${image!.key}-`;
    await visitor.goto("/");
    await expect
      .poll(() => heroSource(visitor), { timeout: 15_000 })
      .toMatch(new RegExp(`^${bucketFiles}\\d+\\.(webp|avif)$`));
    const fromBucket = await heroSource(visitor);
    const bucketBytes = Buffer.from(await (await fetch(fromBucket)).arrayBuffer());

    const out: string[] = [];
    const code = await mediaMoveCommand(
      ["--to", "database"],
      {
        ...process.env,
        ...s3.env,
        DATABASE_URL: databaseUrl(inject("testDb").admin as never, env.db.name),
        MEDIA_STORAGE: "s3",
        MEDIA_S3_BUCKET: BUCKET,
        DATA_DIR: env.server.dataDir,
      },
      { stdout: (t) => out.push(t), stderr: (t) => out.push(t) },
    );
    expect(out.join("")).toMatch(/Every image is in the database now\./);
    expect(code).toBe(0);
    expect((await fetch(fromBucket)).status).toBe(404);

    const name = fromBucket.slice(`${s3.endpoint}/${BUCKET}/media/`.length);
    await openUntil(visitor, "/", async () =>
      (await heroSource(visitor)).startsWith(`${env.server.url}/media/${image!.key}-`),
    );
    const fromApp = await fetch(`${env.server.url}/media/${name}`);
    expect(fromApp.status).toBe(200);
    expect(Buffer.from(await fromApp.arrayBuffer()).equals(bucketBytes)).toBe(true);
    await visitor.context().close();
  });
});
