#!/usr/bin/env node
// Whether build/ was made from the sources as they are now. The build writes a hash of every file that can change
// its output (`node scripts/build-state.mjs write`); `npm start` rebuilds only when the hash differs
// (scripts/start.mjs), so a restart on an up-to-date build takes about a second instead of a full build.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = path.join(ROOT, "build", ".source-hash");

/** Folders and files that cannot change what the build makes (state, outputs, tests, prose). */
const SKIP_DIRS = new Set([
  "node_modules",
  "build",
  "data",
  ".git",
  "test-results",
  ".react-router",
  "tests",
  "docs",
  "coverage",
]);
const SKIP_FILE = /\.(md|log)$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith(".")) yield* files(path.join(dir, entry.name));
    } else if (entry.isFile() && !SKIP_FILE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      yield path.join(dir, entry.name);
    }
  }
}

/** A hash over the path and bytes of every source file, and the Node version that builds. */
export function sourceHash() {
  const hash = createHash("sha256").update(process.version);
  for (const file of files(ROOT)) hash.update(path.relative(ROOT, file)).update("\0").update(readFileSync(file));
  return hash.digest("hex");
}

export function buildIsCurrent() {
  return (
    existsSync(path.join(ROOT, "build/server/main.js")) &&
    existsSync(STAMP) &&
    readFileSync(STAMP, "utf8") === sourceHash()
  );
}

export function writeStamp() {
  writeFileSync(STAMP, sourceHash());
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "write") writeStamp();
