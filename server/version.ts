import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { version as packageVersion } from "../package.json";
import { sourceCommit, UNKNOWN_COMMIT } from "#scripts/version.mjs";

/** What runs: package.json's version and the git commit it was built from ("unknown" when neither git nor the build knew). */
export interface AppVersion {
  version: string;
  commit: string;
}

const versionFile = z.object({
  version: z.string().min(1).max(64),
  commit: z.union([z.literal(UNKNOWN_COMMIT), z.string().regex(/^[0-9a-f]{7,40}$/)]),
});

/**
 * The version of a build from the file the build wrote (build/version.json, scripts/version.mjs), or, for the sources
 * (no such file is read), package.json's version and the commit git names in `root`.
 */
export function readVersion(options: { file: string | undefined; root: string; version: string }): AppVersion {
  if (options.file && existsSync(options.file)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(options.file, "utf8"));
    } catch {
      parsed = undefined;
    }
    const checked = versionFile.safeParse(parsed);
    if (!checked.success)
      throw new Error(`${options.file} is not the version file the build writes: run npm run build again.`);
    return checked.data;
  }
  return { version: options.version, commit: sourceCommit(options.root) };
}

/** "0.1.0 (a4da96a)", or "0.1.0" when the commit is unknown: how the log and the back office name a version. */
export function versionLabel({ version, commit }: AppVersion): string {
  return commit === UNKNOWN_COMMIT ? version : `${version} (${commit.slice(0, 7)})`;
}

let current: AppVersion | undefined;

/**
 * This process's version, read once. The built server (build/server/*.js) reads build/version.json beside its folder;
 * the sources (server/*.ts: `npm run dev`, the tests) ask git.
 */
export function appVersion(): AppVersion {
  if (!current) {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const bundled = !fileURLToPath(import.meta.url).endsWith(".ts");
    current = readVersion({
      file: bundled ? path.resolve(here, "../version.json") : undefined,
      root: path.resolve(here, ".."),
      version: packageVersion,
    });
  }
  return current;
}
