import { describe, expect, it } from "vitest";
import type { Config } from "../config";
import { describeS3Error, locationOf, mediaImageSources, publicBase, sha256Hex } from "./storage";

const s3Media = (publicUrl?: string): Config["media"] => ({
  storage: "s3",
  location: { bucket: "agency-media", prefix: "media/" },
  publicUrl,
});
const key = "0123456789abcdef01234567";
const inBucket = (name: string, bucket = "agency-media", prefix = "media/") => ({
  name,
  storage: "s3" as const,
  s3Bucket: bucket,
  s3Key: `${prefix}${name}`,
});

describe("publicBase: where pages load an image's files from", () => {
  const files = [inBucket(`${key}-320.webp`), inBucket(`${key}-640.webp`)];
  it("the CDN and the prefix, when every file is an object of the configured bucket under its own name", () => {
    expect(publicBase(s3Media("https://cdn.agency.example"), key, files)).toBe("https://cdn.agency.example/media/");
  });
  it("the app (undefined) without MEDIA_PUBLIC_URL, with the database storage, or with no files", () => {
    expect(publicBase(s3Media(), key, files)).toBeUndefined();
    expect(publicBase({ storage: "database" }, key, files)).toBeUndefined();
    expect(publicBase(s3Media("https://cdn.agency.example"), key, [])).toBeUndefined();
  });
  it("the app when one file is still in the database, in another bucket or under another prefix", () => {
    const cdn = s3Media("https://cdn.agency.example");
    const inRow = { name: `${key}-960.webp`, storage: "database" as const, s3Bucket: null, s3Key: null };
    expect(publicBase(cdn, key, [...files, inRow])).toBeUndefined();
    expect(publicBase(cdn, key, [...files, inBucket(`${key}-960.webp`, "old-bucket")])).toBeUndefined();
    expect(publicBase(cdn, key, [...files, inBucket(`${key}-960.webp`, "agency-media", "old/")])).toBeUndefined();
  });
});

describe("mediaImageSources: the Content-Security-Policy's extra image origin", () => {
  it("is MEDIA_PUBLIC_URL's origin, and nothing without one", () => {
    expect(mediaImageSources(s3Media("http://127.0.0.1:9000/agency-media"))).toEqual(["http://127.0.0.1:9000"]);
    expect(mediaImageSources(s3Media())).toEqual([]);
    expect(mediaImageSources({ storage: "database" })).toEqual([]);
  });
});

describe("the rest", () => {
  it("sha256Hex is the hex SHA-256", () => {
    expect(sha256Hex(Buffer.from("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
  it("locationOf reads a file's columns", () => {
    expect(locationOf({ storage: "database", s3Bucket: null, s3Key: null })).toEqual({ storage: "database" });
    expect(locationOf({ storage: "s3", s3Bucket: "b", s3Key: "media/x" })).toEqual({
      storage: "s3",
      bucket: "b",
      key: "media/x",
    });
  });
  it("describeS3Error names the error and its status, never more", () => {
    const error = Object.assign(new Error("The request signature we calculated does not match XYZsecret"), {
      name: "SignatureDoesNotMatch",
      $metadata: { httpStatusCode: 403 },
    });
    expect(describeS3Error(error)).toBe("SignatureDoesNotMatch (HTTP 403)");
    expect(describeS3Error(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe(
      "ECONNREFUSED",
    );
  });
});
