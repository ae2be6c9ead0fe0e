import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES, mediaUrl, variantWidths } from "#domain/media.ts";
import { createApp } from "#server/http/app.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createServices } from "#server/services/index.ts";
import type { MediaItem } from "#server/services/media.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { decompressionBomb, executable, hasGpsDirectory, imageOf, jpegWithGps, svgWithScript } from "../support/images";
import { CookieJar } from "../support/session";

/** Issue 11: uploads checked by their bytes, processed once, stored whole or not at all, served by every instance. */
let app: TestApp;
const admin = new CookieJar();
const customer = new CookieJar();

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "chief@example.org", ADMIN_PASSWORD: "chief-pass-1" });
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  await signUp(app, "cust@example.org", { jar: customer });
}, 60_000);
afterAll(() => app?.close());

function upload(bytes: Buffer, name: string, options: { jar?: CookieJar; alt?: string; type?: string } = {}) {
  const form = new FormData();
  if (options.alt !== undefined) form.set("alt", options.alt);
  form.set("file", new Blob([new Uint8Array(bytes)], { type: options.type ?? "image/jpeg" }), name);
  return app.request("/api/media", { method: "POST", body: form, jar: options.jar ?? admin });
}

async function stored() {
  const { rows } = await app.db.pool.query(
    `select (select count(*) from media)::int as media, (select count(*) from media_variants)::int as files,
            (select count(*) from activity_log where entity = 'media')::int as logged`,
  );
  return rows[0] as { media: number; files: number; logged: number };
}

const get = (path: string, init?: RequestInit) => app.request(path, init);

describe("uploads of each accepted type", { timeout: 120_000 }, () => {
  for (const [format, width, height] of [
    ["jpeg", 2400, 1600],
    ["png", 900, 600],
    ["webp", 1300, 700],
    ["avif", 500, 500],
  ] as const) {
    it(`${format}: its variants exist at the right widths and heights, with the right headers`, async () => {
      const bytes = await imageOf(format, width, height);
      const res = await upload(bytes, `room.${format}`, { alt: `A ${format} room` });
      expect(res.status).toBe(201);
      // Issue 33 item 4: the uploader's answer is kept by no cache.
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("vary")).toMatch(/\bCookie\b/);
      const { item } = (await res.json()) as { item: MediaItem };
      expect(item).toMatchObject({ width, height, sourceFormat: format, alt: `A ${format} room` });
      expect(item.widths).toEqual(variantWidths(width));
      expect(item.url).toBe(mediaUrl(item.key, item.widths.at(-1)!, "webp"));
      const formats = item.avif ? (["webp", "avif"] as const) : (["webp"] as const);
      for (const f of formats) {
        for (const w of item.widths) {
          const file = await get(mediaUrl(item.key, w, f));
          expect(file.status).toBe(200);
          expect(file.headers.get("content-type")).toBe(`image/${f}`);
          expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
          expect(file.headers.get("x-content-type-options")).toBe("nosniff");
          const etag = file.headers.get("etag")!;
          expect(etag).toBe(`"${item.key}-${w}.${f}"`);
          const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
          expect(meta.format).toBe(f === "avif" ? "heif" : f);
          expect([meta.width, meta.height]).toEqual([w, Math.round((w * height) / width)]);
          const again = await get(mediaUrl(item.key, w, f), { headers: { "if-none-match": etag } });
          expect(again.status).toBe(304);
        }
      }
    });
  }

  it("the same file uploaded twice is one image", async () => {
    const bytes = await imageOf("png", 400, 300);
    const first = await upload(bytes, "a.png");
    expect(first.status).toBe(201);
    const before = await stored();
    const second = await upload(bytes, "copy of a.png");
    expect(second.status).toBe(200);
    expect(((await second.json()) as { created: boolean }).created).toBe(false);
    expect(await stored()).toEqual(before);
  });
});

describe("camera metadata", { timeout: 60_000 }, () => {
  it("no served variant carries EXIF (GPS included), and the picture stands upright", async () => {
    const bytes = await jpegWithGps(1600, 1200);
    expect(hasGpsDirectory((await sharp(bytes).metadata()).exif)).toBe(true);
    const res = await upload(bytes, "site-visit.jpg");
    expect(res.status).toBe(201);
    const { item } = (await res.json()) as { item: MediaItem };
    expect([item.width, item.height]).toEqual([1200, 1600]);
    for (const f of item.avif ? ["webp", "avif"] : ["webp"]) {
      for (const w of item.widths) {
        const file = Buffer.from(await (await get(mediaUrl(item.key, w, f as "webp"))).arrayBuffer());
        const meta = await sharp(file).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(file.includes("TestCam")).toBe(false);
        expect(meta.height).toBeGreaterThan(meta.width!);
      }
    }
  });
});

describe("refusals: the right status, and nothing stored", { timeout: 60_000 }, () => {
  const cases: [string, () => Promise<Response>, number, RegExp][] = [
    ["a renamed executable", () => upload(executable(), "holiday.jpg"), 415, /not a JPEG, PNG, WebP or AVIF/],
    [
      "a truncated JPEG",
      async () => {
        const jpeg = await imageOf("jpeg", 800, 600);
        return upload(jpeg.subarray(0, Math.floor(jpeg.length / 2)), "half.jpg");
      },
      400,
      /damaged or incomplete/,
    ],
    [
      "a decompression bomb",
      async () => upload(decompressionBomb(), "bomb.png", { type: "image/png" }),
      413,
      /megapixels/,
    ],
    ["an SVG with script", async () => upload(svgWithScript(), "logo.svg", { type: "image/svg+xml" }), 415, /SVG/],
    ["a 20 MB file", async () => upload(Buffer.alloc(20 * 1024 * 1024, 0xff), "huge.jpg"), 413, /too large/],
    [
      "a 20 MB file sent without a declared length",
      () => {
        const form = new FormData();
        form.set("file", new Blob([new Uint8Array(MAX_UPLOAD_BYTES * 2)], { type: "image/jpeg" }), "huge.jpg");
        const body = new Response(form);
        return app.request("/api/media", {
          method: "POST",
          headers: { "content-type": body.headers.get("content-type")! },
          body: body.body,
          duplex: "half",
          jar: admin,
        } as RequestInit);
      },
      413,
      /too large/,
    ],
    [
      "a customer's upload",
      async () => upload(await imageOf("png", 50, 50), "c.png", { jar: customer }),
      403,
      /permission/,
    ],
    [
      "a visitor's upload",
      async () => upload(await imageOf("png", 50, 50), "v.png", { jar: new CookieJar() }),
      401,
      /Sign in/,
    ],
    [
      "an upload from another site",
      async () => {
        const form = new FormData();
        form.set("file", new Blob([new Uint8Array(await imageOf("png", 50, 50))]), "x.png");
        return app.request("/api/media", {
          method: "POST",
          body: form,
          jar: admin,
          headers: { origin: "https://evil.example" },
        });
      },
      403,
      /another site/,
    ],
    [
      "a JSON body",
      () => app.request("/api/media", { method: "POST", json: { url: "https://example.com/a.jpg" }, jar: admin }),
      415,
      /multipart/,
    ],
    [
      "a form without a file",
      () => {
        const form = new FormData();
        form.set("alt", "nothing");
        return app.request("/api/media", { method: "POST", body: form, jar: admin });
      },
      400,
      /Choose an image/,
    ],
  ];
  for (const [name, send, status, message] of cases) {
    it(`${name}: ${status}`, async () => {
      const before = await stored();
      const res = await send();
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
      expect(await stored()).toEqual(before);
    });
  }
});

describe("the library", { timeout: 60_000 }, () => {
  it("lists newest first, paged in SQL; alt text changes are logged; an image in use cannot be deleted", async () => {
    const a = ((await (await upload(await imageOf("png", 300, 200), "first.png")).json()) as { item: MediaItem }).item;
    const b = ((await (await upload(await imageOf("png", 310, 200), "second.png")).json()) as { item: MediaItem }).item;
    const page = await app.request("/api/media?limit=2", { jar: admin });
    expect(page.status).toBe(200);
    expect(((await page.json()) as MediaItem[]).map((i) => i._id)).toEqual([b._id, a._id]);
    expect(Number(page.headers.get("x-total-count"))).toBeGreaterThanOrEqual(2);

    const alt = await app.request(`/api/media/${a._id}`, { method: "PUT", json: { alt: "Oak table" }, jar: admin });
    expect(alt.status).toBe(200);
    const log = await app.db.pool.query(
      `select action, actor_email, changes from activity_log where entity = 'media' and record_id = $1 order by created_at`,
      [a._id],
    );
    expect(log.rows.map((r) => r.action)).toEqual(["create", "update"]);
    expect(log.rows[1].changes).toEqual({ alt: { before: "", after: "Oak table" } });
    const tooLong = await app.request(`/api/media/${a._id}`, {
      method: "PUT",
      json: { alt: "x".repeat(301) },
      jar: admin,
    });
    expect(tooLong.status).toBe(400);

    // The banner uses the image: deleting it is refused, naming where.
    await app.request("/api/add-banner", {
      method: "POST",
      jar: admin,
      json: {
        bannerHeading: "Rooms",
        buttonTwoLink: "Studio",
        bannerDetails: "Calm rooms.",
        bannerImage: a.url,
        buttonOneText: "Plans",
        buttonOneLink: "/pricing",
      },
    });
    const refused = await app.request(`/api/media/${a._id}`, { method: "DELETE", jar: admin });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toBe(
      "This image is used by Banner (Banner Image or Video Link). Choose another image there first, then delete it.",
    );
    const one = (await (await app.request(`/api/media/${a._id}`, { jar: admin })).json()) as {
      usages: { where: string; edit: string }[];
    };
    expect(one.usages).toEqual([
      expect.objectContaining({ where: "Banner", edit: expect.stringMatching(/^\/banner\//) }),
    ]);

    // The other one is deleted, with its files, and logged.
    const deleted = await app.request(`/api/media/${b._id}`, { method: "DELETE", jar: admin });
    expect(deleted.status).toBe(200);
    expect((await get(b.url)).status).toBe(404);
    const gone = await app.db.pool.query(`select count(*)::int as n from media_variants where media_id = $1`, [b._id]);
    expect(gone.rows[0].n).toBe(0);
  });

  it("public pages are told each library image's size, alt text and files", async () => {
    const item = (
      (await (await upload(await imageOf("jpeg", 1000, 500), "hall.jpg", { alt: "Hall" })).json()) as {
        item: MediaItem;
      }
    ).item;
    const described = await app.services.media.describe({ banner: [{ bannerImage: item.url }], other: "/x.svg" });
    expect(described).toEqual({
      [item.key]: {
        key: item.key,
        width: 1000,
        height: 500,
        alt: "Hall",
        color: expect.stringMatching(/^#[0-9a-f]{6}$/),
        widths: [320, 640, 1000],
        avif: item.avif,
        svg: false,
      },
    });
  });

  it("an alt text change reaches the pages' descriptions at once", async () => {
    const item = (
      (await (await upload(await imageOf("png", 500, 300), "alt.png", { alt: "Before" })).json()) as {
        item: MediaItem;
      }
    ).item;
    expect((await app.services.media.describe([item.url]))[item.key]?.alt).toBe("Before");
    await app.request(`/api/media/${item._id}`, { method: "PUT", json: { alt: "After" }, jar: admin });
    expect((await app.services.media.describe([item.url]))[item.key]?.alt).toBe("After");
  });

  it("a plain HTML form (no JavaScript) is sent back to the library with the outcome", async () => {
    const form = (bytes: Buffer) => {
      const f = new FormData();
      f.set("file", new Blob([new Uint8Array(bytes)]), "plain.png");
      return f;
    };
    const ok = await app.request("/api/media", {
      method: "POST",
      body: form(await imageOf("png", 420, 280)),
      jar: admin,
      headers: { accept: "text/html" },
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/media-library?uploaded=1");
    const refused = await app.request("/api/media", {
      method: "POST",
      body: form(executable()),
      jar: admin,
      headers: { accept: "text/html" },
    });
    expect(refused.status).toBe(303);
    expect(decodeURIComponent(refused.headers.get("location")!)).toMatch(
      /^\/media-library\?error=This file is not a JPEG/,
    );
  });

  it("a served file costs no database round trip after the first", async () => {
    const item = ((await (await upload(await imageOf("png", 800, 500), "cached.png")).json()) as { item: MediaItem })
      .item;
    expect((await get(item.thumbnail)).status).toBe(200);
    // With its rows gone from the database, the file is still served: from memory.
    await app.db.pool.query(`delete from media_variants where media_id = $1`, [item._id]);
    const again = await get(item.thumbnail);
    expect(again.status).toBe(200);
    expect((await sharp(Buffer.from(await again.arrayBuffer())).metadata()).width).toBe(320);
    // One never asked for was never cached.
    expect((await get(mediaUrl(item.key, 640, "webp"))).status).toBe(404);
  });
});

describe("several instances on one database", { timeout: 60_000 }, () => {
  it("a second instance serves an image uploaded through the first", async () => {
    const services = createServices(app.db, app.config, silentLogger);
    await services.start();
    const second = createApp({ config: app.config, database: app.db, services, logger: silentLogger });
    const server: Server = await new Promise((resolve) => {
      const s = second.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const res = await upload(await imageOf("jpeg", 700, 400), "shared.jpg");
      const { item } = (await res.json()) as { item: MediaItem };
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const w of item.widths) {
        const [here, there] = await Promise.all([
          get(mediaUrl(item.key, w, "webp")),
          fetch(url + mediaUrl(item.key, w, "webp")),
        ]);
        expect(there.status).toBe(200);
        expect(Buffer.from(await there.arrayBuffer()).equals(Buffer.from(await here.arrayBuffer()))).toBe(true);
      }
    } finally {
      await new Promise((r) => server.close(r));
      await services.close();
    }
  });
});

describe("rate limit", { timeout: 60_000 }, () => {
  it("an administrator's uploads are limited (60 in ten minutes), refused or not, before the body is read", async () => {
    let status = 0;
    for (let i = 0; i < 70 && status !== 429; i++) status = (await upload(executable(), `x${i}.jpg`)).status;
    expect(status).toBe(429);
    const res = await upload(await imageOf("png", 50, 50), "late.png");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBeTruthy();
  });
});

describe("a rolling upgrade (expand and contract, decision 083)", () => {
  it("a file written as hosts of the last release write it (no checksum, no storage) gets both", async () => {
    const { rows } = await app.db.pool.query<{ sha256: string; expected: string; storage: string }>(
      `insert into media_variants (media_id, format, width, height, size, data)
       select media_id, format, width + 100000, height, size, data from media_variants where data is not null limit 1
       returning sha256, encode(sha256(data), 'hex') as expected, storage`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sha256).toBe(rows[0]!.expected);
    expect(rows[0]!.storage).toBe("database");
  });
});
