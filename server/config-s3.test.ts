import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseS3Target } from "./config";

const dir = () => mkdtempSync(path.join(tmpdir(), "atelier-config-"));

describe("S3 settings (media and remote backups)", () => {
  it("keeps media in the database and backups in the folder unless told otherwise", () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c.media).toEqual({ storage: "database" });
    expect(c.backup.remote).toBeUndefined();
    expect(c.s3).toEqual({ endpoint: undefined, region: "us-east-1", credentials: undefined, forcePathStyle: false });
  });

  it("reads a bucket for media, a CDN address, a backup target and an endpoint with path-style addressing", () => {
    const c = loadConfig({
      DATA_DIR: dir(),
      MEDIA_STORAGE: "s3",
      MEDIA_S3_BUCKET: "agency-media",
      MEDIA_PUBLIC_URL: "https://cdn.agency.example/",
      BACKUP_TARGET: "s3://agency-backups/atelier",
      S3_ENDPOINT: "http://127.0.0.1:9000/",
      S3_ACCESS_KEY_ID: "key",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expect(c.media).toEqual({
      storage: "s3",
      location: { bucket: "agency-media", prefix: "media/" },
      publicUrl: "https://cdn.agency.example",
    });
    expect(c.backup.remote).toEqual({ bucket: "agency-backups", prefix: "atelier/" });
    expect(c.s3).toEqual({
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      credentials: { accessKeyId: "key", secretAccessKey: "secret" },
      forcePathStyle: true,
    });
  });

  it("splits a target into bucket and a prefix ending in /", () => {
    expect(parseS3Target("s3://b-one")).toEqual({ bucket: "b-one", prefix: "" });
    expect(parseS3Target("s3://b-one/")).toEqual({ bucket: "b-one", prefix: "" });
    expect(parseS3Target("s3://b-one/a/b/")).toEqual({ bucket: "b-one", prefix: "a/b/" });
  });

  it.each([
    [{ MEDIA_STORAGE: "s3" }, "MEDIA_S3_BUCKET: must be set when MEDIA_STORAGE=s3"],
    [{ MEDIA_STORAGE: "disk" }, "MEDIA_STORAGE: must be database or s3"],
    [{ BACKUP_TARGET: "/mnt/backups" }, "BACKUP_TARGET: must be an S3 bucket address"],
    [{ S3_ACCESS_KEY_ID: "key" }, "set both, or neither"],
    [{ MEDIA_S3_PREFIX: "media" }, "MEDIA_S3_PREFIX: must be folder names ending in /"],
    [{ S3_ENDPOINT: "minio:9000" }, "S3_ENDPOINT: must be an http(s) URL"],
  ])("%o stops the start: %s", (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), ...env })).toThrow(message);
  });
});
