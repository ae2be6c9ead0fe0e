/**
 * `npm run bench:media`: the media library's figures, measured on this machine in one run (not part of `npm test`).
 *
 * Builds if needed, starts a scratch PostgreSQL and the built app on it (no demo content), then:
 * - uploads 24-megapixel JPEG photos (6000 × 4000) and prints the processing time (the server's own split: decode,
 *   WebP, AVIF) and the whole request, while a probe asks /healthz every 20 ms: its slowest answer shows how much the
 *   processing held up other requests;
 * - serves one cached variant (960 px WebP) with wrk and the very same bytes from nginx, and prints both.
 * Figures on a shared machine are noisy: compare within one run. Settings: BENCH_SECONDS (default 8), BENCH_UPLOADS
 * (default 3).
 */
import { rmSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { photo } from "#tests/support/images.ts";
import { makeScratch, nginxServing, prepare, signIn, startApp, wrk as measureWith, type Figure } from "./support";

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 3);
const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password-1" };

const { dir: scratch, lua: LUA } = makeScratch("atelier-bench-media-");

const wrk = (name: string, url: string) => measureWith(LUA, name, url, { digits: 2 });

/**
 * A 24-megapixel photo-like JPEG, different for each `seed`: shapes and gradients with texture at several scales
 * (noise made small and enlarged, then fine grain), so that its smaller copies keep detail as a photo's do.
 */
async function photo24(seed: number): Promise<Buffer> {
  const [width, height] = [6000, 4000];
  const base = await (
    await photo(width, height)
  )
    .modulate({ hue: seed * 40 })
    .raw()
    .toBuffer();
  for (const scale of [64, 16, 4]) {
    const noise = await sharp({
      create: {
        width: Math.round(width / scale),
        height: Math.round(height / scale),
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 40 },
      },
    })
      .resize(width, height, { kernel: "cubic" })
      .raw()
      .toBuffer();
    for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, base[i]! + ((noise[i]! - 128) >> 2)));
  }
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Asks `url` every 20 ms until stopped; the slowest answer is how long another request had to wait. */
function probe(url: string) {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(url).then((r) => r.arrayBuffer());
      times.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...times].sort((a, b) => a - b);
      return { count: times.length, p50: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
    },
  };
}

/** Uploads photo `i` while /healthz is probed: its key, and its row of the table. */
async function upload(appUrl: string, cookie: string, i: number): Promise<{ key: string; row: string }> {
  const bytes = await photo24(i);
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }), `photo-${i}.jpg`);
  const health = probe(`${appUrl}/healthz`);
  const started = performance.now();
  const res = await fetch(`${appUrl}/api/media`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: appUrl },
  });
  const wall = performance.now() - started;
  const waited = await health.stop();
  const body = (await res.json()) as {
    item?: { key: string; widths: number[]; avif: boolean };
    timings?: { decode: number; webp: number; avif: number; total: number };
    error?: string;
  };
  if (res.status !== 201 || !body.item || !body.timings) throw new Error(`upload failed: ${res.status} ${body.error}`);
  const t = body.timings;
  console.log(
    `  upload ${i + 1} (${(bytes.length / 1024 / 1024).toFixed(1)} MB): processing ${t.total} ms, request ${wall.toFixed(0)} ms`,
  );
  return {
    key: body.item.key,
    row: `| ${(bytes.length / 1024 / 1024).toFixed(1)} MB | ${t.decode} | ${t.webp} | ${t.avif} | ${t.total} | ${wall.toFixed(0)} | ${body.item.widths.join(", ")}${body.item.avif ? " (+AVIF)" : ""} | ${waited.p50.toFixed(1)} / ${waited.max.toFixed(1)} (${waited.count}) |`,
  };
}

function printTables(
  rows: string[],
  baseline: Awaited<ReturnType<ReturnType<typeof probe>["stop"]>>,
  ours: Figure,
  theirs: Figure,
) {
  console.log("\n## Upload processing (ms)\n");
  console.log(
    "| file | decode | WebP | AVIF | processing | request | widths | /healthz p50 / max ms during it (answers) |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |");
  for (const r of rows) console.log(r);
  console.log(
    `\n/healthz over 3 s with nothing else running: p50 ${baseline.p50.toFixed(1)} ms, max ${baseline.max.toFixed(1)} ms (${baseline.count} answers)`,
  );
  console.log("\n## Serving a cached variant\n");
  console.log("| server | req/s | p50 ms | p97.5 ms |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const [name, f] of [
    ["app (in-memory cache)", ours],
    ["nginx (static file)", theirs],
  ] as const) {
    console.log(`| ${name} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(2)} | ${f.p975.toFixed(2)} |`);
  }
  console.log(`\napp ÷ nginx: ${(ours.rps / theirs.rps).toFixed(2)}`);
}

async function main() {
  const { pgServer, databaseUrl } = await prepare(scratch);
  const app = await startApp(
    {
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(scratch, "app"),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO_CONTENT: "false",
    },
    "inherit",
  );
  let nginx: Awaited<ReturnType<typeof nginxServing>> | undefined;
  try {
    const cookie = await signIn(app.url, ADMIN);

    const idle = probe(`${app.url}/healthz`);
    await new Promise((r) => setTimeout(r, 3000));
    const baseline = await idle.stop();
    console.log(
      `\n/healthz with nothing else running: p50 ${baseline.p50.toFixed(1)} ms, max ${baseline.max.toFixed(1)} ms`,
    );
    console.log(`\nuploads of 24-megapixel JPEGs (6000 × 4000), one at a time`);
    let key = "";
    const rows: string[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      const uploaded = await upload(app.url, cookie, i);
      key = uploaded.key;
      rows.push(uploaded.row);
    }

    const variantUrl = `${app.url}/media/${key}-960.webp`;
    const variant = await fetch(variantUrl);
    const variantBytes = Buffer.from(await variant.arrayBuffer());
    nginx = await nginxServing(scratch, variantBytes, { file: "variant", contentType: "image/webp" });
    console.log(`\nthe 960 px WebP variant (${(variantBytes.length / 1024).toFixed(1)} KB), 50 connections`);
    const ours = wrk("app, cached variant", variantUrl);
    const theirs = wrk("nginx, same bytes from a file", nginx.url);

    printTables(rows, baseline, ours, theirs);
  } finally {
    nginx?.stop();
    await app.stop();
    await pgServer.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
