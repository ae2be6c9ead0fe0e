import { describe, expect, it } from "vitest";
import { fromZonedTime, toZonedInput } from "./zoned-time";

describe("a wall-clock time in the site's time zone", () => {
  it("names the moment in winter and in summer time", () => {
    expect(fromZonedTime("2026-12-01T09:30", "Europe/London")!.toISOString()).toBe("2026-12-01T09:30:00.000Z");
    expect(fromZonedTime("2026-07-01T09:30", "Europe/London")!.toISOString()).toBe("2026-07-01T08:30:00.000Z");
    expect(fromZonedTime("2026-07-01T09:30", "America/New_York")!.toISOString()).toBe("2026-07-01T13:30:00.000Z");
    expect(fromZonedTime("2026-07-01T09:30:15", "UTC")!.toISOString()).toBe("2026-07-01T09:30:15.000Z");
  });

  it("reads a skipped hour an hour later and a repeated one as its first", () => {
    // London goes from 01:00 to 02:00 GMT→BST on 29 March 2026, and back on 25 October.
    expect(fromZonedTime("2026-03-29T01:30", "Europe/London")!.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(fromZonedTime("2026-10-25T01:30", "Europe/London")!.toISOString()).toBe("2026-10-25T00:30:00.000Z");
  });

  it("refuses what is no time", () => {
    for (const bad of ["", "tomorrow", "2026-02-30T10:00", "2026-12-01T25:00", "2026-12-01 10:00", "2026-12-01"])
      expect(fromZonedTime(bad, "Europe/London")).toBeNull();
  });

  it("shows a moment back as the input's value", () => {
    expect(toZonedInput("2026-07-01T08:30:00.000Z", "Europe/London")).toBe("2026-07-01T09:30");
    expect(toZonedInput(new Date("2026-12-01T09:30:00Z"), "Europe/London")).toBe("2026-12-01T09:30");
    const back = fromZonedTime(toZonedInput("2026-05-05T17:45:00Z", "Asia/Kolkata"), "Asia/Kolkata");
    expect(back!.toISOString()).toBe("2026-05-05T17:45:00.000Z");
  });
});
