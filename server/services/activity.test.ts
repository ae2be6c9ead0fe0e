import { describe, expect, it } from "vitest";
import { diff } from "./activity";

describe("diff", () => {
  it("keeps only the fields that changed, with both values", () => {
    expect(diff({ a: 1, b: "x", c: null }, { a: 1, b: "y", d: 2 })).toEqual({
      b: { before: "x", after: "y" },
      d: { before: null, after: 2 },
    });
  });
  it("a created record shows every field", () => {
    expect(diff(null, { a: 1 })).toEqual({ a: { before: null, after: 1 } });
  });
  it("nothing changed, nothing listed", () => {
    expect(diff({ a: [1, 2] }, { a: [1, 2] })).toEqual({});
  });
});
