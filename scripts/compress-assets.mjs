#!/usr/bin/env node
// After the build: a .br and a .gz copy of every hashed asset worth compressing, made once, so the server never
// compresses on a request (server/http/precompressed.ts serves them).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = path.resolve("build/client/assets");
let before = 0;
let after = 0;
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json|txt|map)$/.test(name)) continue;
  const file = path.join(dir, name);
  const body = readFileSync(file);
  if (body.length < 1024) continue;
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  before += statSync(file).size;
  after += br.length;
}
console.log(`compressed assets: ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB with brotli`);
