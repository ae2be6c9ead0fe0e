import { describe, expect, it } from "vitest";
import { hydrates, STATIC_PAGE } from "./hydration";

describe("hydrates", () => {
  it("is true unless a matched route opted out", () => {
    expect(hydrates([])).toBe(true);
    expect(hydrates([{ handle: undefined }, { handle: { other: 1 } }])).toBe(true);
    expect(hydrates([{ handle: undefined }, { handle: STATIC_PAGE }])).toBe(false);
  });
});
