#!/usr/bin/env node
// The version a build names: package.json's version and the commit it was built from. `npm run build` writes both to
// build/version.json (`node scripts/version.mjs write`), which the built server reads at start (server/version.ts); the
// sources (`npm run dev`, the tests) ask git each start. The commit is SOURCE_COMMIT when given (the container image's
// build, where .git is not copied in: its build argument), else `git rev-parse HEAD`, else "unknown".
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const UNKNOWN_COMMIT = "unknown";
const COMMIT = /^[0-9a-f]{7,40}$/;

/** The commit the sources in `root` are: SOURCE_COMMIT, else git's HEAD there, else "unknown". */
export function sourceCommit(root = ROOT, env = process.env) {
  const given = env.SOURCE_COMMIT?.trim().toLowerCase();
  if (given) {
    if (!COMMIT.test(given))
      throw new Error(`SOURCE_COMMIT must be a git commit hash (7 to 40 hex digits), not "${given}"`);
    return given;
  }
  const res = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8", timeout: 5000 });
  const head = res.status === 0 ? res.stdout.trim() : "";
  return COMMIT.test(head) ? head : UNKNOWN_COMMIT;
}

/** Writes build/version.json: { version, commit }. */
export function writeVersionFile(root = ROOT) {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const file = path.join(root, "build", "version.json");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ version, commit: sourceCommit(root) })}\n`);
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "write") writeVersionFile();
