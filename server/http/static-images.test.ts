import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadStaticImages } from "./static-images";

describe("loadStaticImages", () => {
  it("reads the build's map, keeping only shipped images mapped to built assets", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "static-images-"));
    writeFileSync(
      path.join(dir, "static-images.json"),
      JSON.stringify({
        "/images/logo.svg": "/assets/logo-0123456789ab.svg",
        "/etc/passwd": "/assets/x.svg",
        "/images/odd.svg": "https://elsewhere.example/odd.svg",
      }),
    );
    expect(loadStaticImages(dir)).toEqual({ "/images/logo.svg": "/assets/logo-0123456789ab.svg" });
  });

  it("is empty without a build (development, API-only tests)", () => {
    expect(loadStaticImages(mkdtempSync(path.join(tmpdir(), "static-images-")))).toEqual({});
  });
});
