import { describe, expect, it } from "vitest";
import { hasUnstorableText, isUnstorable } from "./body";

describe("text PostgreSQL cannot store (issue 12, D6)", () => {
  it.each([
    ["a NUL", "a\u0000b", true],
    ["a lone high surrogate", "a\uD800b", true],
    ["a lone high surrogate at the end", "a\uD800", true],
    ["a lone low surrogate", "\uDC00a", true],
    ["two high surrogates", "\uD800\uD800", true],
    ["a pair (an emoji)", "ok 😀", false],
    ["accents and CJK", "Café 東京", false],
    ["empty", "", false],
  ])("%s", (_label, text, unstorable) => {
    expect(isUnstorable(text)).toBe(unstorable);
  });

  it("looks through objects, arrays and keys, and not at other types", () => {
    expect(hasUnstorableText({ a: [{ b: "x\u0000" }] })).toBe(true);
    expect(hasUnstorableText({ ["k\uDC00"]: "v" })).toBe(true);
    expect(hasUnstorableText({ a: [1, true, null, { b: "fine" }] })).toBe(false);
    expect(hasUnstorableText(undefined)).toBe(false);
  });
});
