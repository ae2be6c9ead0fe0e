#!/usr/bin/env node
// After the build: a content-hashed copy of every image shipped under public/ (build/client/images/x.svg ->
// build/client/assets/x-<hash>.svg), served like every built asset with a year's immutable cache and its .br/.gz
// (run before compress-assets.mjs). build/client/static-images.json maps each old address to its hashed one; the
// server draws content images by it, and the old addresses keep answering (docs/decisions/027).
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const client = path.resolve("build/client");
const images = path.join(client, "images");
const map = {};
for (const name of existsSync(images) ? readdirSync(images).sort() : []) {
  const ext = path.extname(name);
  if (!/^\.(svg|png|jpe?g|webp|avif|gif|ico)$/i.test(ext)) continue;
  const hash = createHash("sha256")
    .update(readFileSync(path.join(images, name)))
    .digest("hex")
    .slice(0, 12);
  const hashed = `${path.basename(name, ext)}-${hash}${ext}`;
  copyFileSync(path.join(images, name), path.join(client, "assets", hashed));
  map[`/images/${name}`] = `/assets/${hashed}`;
}
writeFileSync(path.join(client, "static-images.json"), JSON.stringify(map, null, 1) + "\n");
console.log(`hashed images: ${Object.keys(map).length}`);
