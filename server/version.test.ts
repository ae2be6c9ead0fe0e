import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { version as packageVersion } from "../package.json";
import { sourceCommit } from "#scripts/version.mjs";
import { appVersion, readVersion, versionLabel } from "./version";

const ROOT = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "atelier-version-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the version", () => {
  it("of a build is the file the build wrote", () => {
    const file = path.join(dir, "version.json");
    writeFileSync(file, JSON.stringify({ version: "1.2.3", commit: "0123456789abcdef0123456789abcdef01234567" }));
    expect(readVersion({ file, root: dir, version: "9.9.9" })).toEqual({
      version: "1.2.3",
      commit: "0123456789abcdef0123456789abcdef01234567",
    });
  });

  it("refuses a damaged version file, saying to build again", () => {
    const file = path.join(dir, "damaged.json");
    writeFileSync(file, '{"version":"1.2.3","commit":"not a commit"}');
    expect(() => readVersion({ file, root: dir, version: "1" })).toThrow(/not the version file.*npm run build again/);
    writeFileSync(file, "{");
    expect(() => readVersion({ file, root: dir, version: "1" })).toThrow(/not the version file/);
  });

  it("of the sources is package.json's and git's HEAD; outside a git repository the commit is unknown", () => {
    const head = sourceCommit(ROOT);
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect(readVersion({ file: undefined, root: ROOT, version: "2.0.0" })).toEqual({ version: "2.0.0", commit: head });
    expect(readVersion({ file: path.join(dir, "absent.json"), root: dir, version: "2.0.0" })).toEqual({
      version: "2.0.0",
      commit: "unknown",
    });
    expect(appVersion()).toEqual({ version: packageVersion, commit: head });
  });

  it("SOURCE_COMMIT names the commit where .git is absent (the container build), and must be one", () => {
    expect(sourceCommit(dir, { SOURCE_COMMIT: "ABCDEF0123456" })).toBe("abcdef0123456");
    expect(() => sourceCommit(dir, { SOURCE_COMMIT: "main" })).toThrow(/SOURCE_COMMIT must be a git commit hash/);
  });

  it("is labelled with a short commit, or the version alone", () => {
    expect(versionLabel({ version: "0.2.0", commit: "0123456789abcdef0123456789abcdef01234567" })).toBe(
      "0.2.0 (0123456)",
    );
    expect(versionLabel({ version: "0.2.0", commit: "unknown" })).toBe("0.2.0");
  });
});
