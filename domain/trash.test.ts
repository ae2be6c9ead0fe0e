import { describe, expect, it } from "vitest";
import { isDue, isTrashKind, purgeAt, purgeBefore, TRASH_DAYS } from "./trash";

describe("the trash's 30 days", () => {
  const deleted = new Date("2026-03-28T12:00:00Z");

  it("keeps a thing exactly 30 days of 24 hours (a clock change in the site's zone changes nothing)", () => {
    expect(TRASH_DAYS).toBe(30);
    expect(purgeAt(deleted).toISOString()).toBe("2026-04-27T12:00:00.000Z");
  });

  it("is due from its 30th day's moment on, not a millisecond before", () => {
    expect(isDue(deleted, new Date("2026-04-27T11:59:59.999Z"))).toBe(false);
    expect(isDue(deleted, new Date("2026-04-27T12:00:00.000Z"))).toBe(true);
    expect(isDue(deleted, new Date("2026-06-01T00:00:00Z"))).toBe(true);
  });

  it("purgeBefore is the same rule seen from the clean-up's side", () => {
    const now = new Date("2026-05-10T08:00:00Z");
    const edge = purgeBefore(now);
    expect(isDue(edge, now)).toBe(true);
    expect(isDue(new Date(edge.getTime() + 1), now)).toBe(false);
  });

  it("knows its kinds and nothing else", () => {
    expect(["content", "items", "media"].every(isTrashKind)).toBe(true);
    expect(isTrashKind("orders")).toBe(false);
    expect(isTrashKind(undefined)).toBe(false);
  });
});
