import { describe, expect, it } from "vitest";
import { describeMove, type MoveSummary } from "./storage-move";
import { describeProgress, parseMoveArgs } from "../cli/media-move-command";

const summary = (over: Partial<MoveSummary>): MoveSummary => ({
  to: "s3",
  images: 12,
  files: 40,
  bytes: 3.5 * 1024 * 1024,
  total: 12,
  left: 0,
  stopped: false,
  removed: 0,
  ms: 2400,
  ...over,
});

describe("the move command's arguments", () => {
  it("names a destination with --to, nothing else", () => {
    expect(parseMoveArgs(["--to", "s3"])).toBe("s3");
    expect(parseMoveArgs(["--to=database"])).toBe("database");
    for (const bad of [[], ["--to"], ["--to", "bucket"], ["s3"], ["--to", "s3", "--to", "database"]])
      expect(parseMoveArgs(bad)).toBeNull();
  });
});

describe("what the move says", () => {
  it("progress: images of the total, files and megabytes", () => {
    expect(describeProgress({ images: 3, total: 12, files: 10, bytes: 1.25 * 1024 * 1024 })).toBe(
      "Moved 3 of 12 images (10 files, 1.3 MB)",
    );
  });
  it("a finished move to the bucket", () => {
    expect(describeMove(summary({}))).toBe(
      "Moved 12 images (40 files, 3.5 MB) to the bucket in 2.4 s. Every image is in the bucket now.",
    );
  });
  it("a finished move back counts the objects deleted", () => {
    expect(describeMove(summary({ to: "database", images: 1, removed: 4 }))).toBe(
      "Moved 1 image (40 files, 3.5 MB) into the database in 2.4 s. 4 objects deleted from the bucket. Every image is in the database now.",
    );
  });
  it("a stopped one says what is left and how to go on", () => {
    expect(describeMove(summary({ images: 2, left: 10, stopped: true }))).toBe(
      "Moved 2 images (40 files, 3.5 MB) to the bucket in 2.4 s. 10 images are left (stopped): run the same command again to go on.",
    );
  });
});
