import { describe, expect, it } from "vitest";
import { labelShown, niceMax } from "./chart";

describe("the charts' scale and labels", () => {
  it("tops the scale at 4 round steps, whole ones for counts", () => {
    expect(niceMax(0)).toBe(4);
    expect(niceMax(2, true)).toBe(4);
    expect(niceMax(5, true)).toBe(8);
    expect(niceMax(0.6)).toBe(0.8);
    expect(niceMax(661)).toBe(800);
    expect(niceMax(4583)).toBe(8000);
    for (let max = 1; max < 5000; max += 7) {
      const top = niceMax(max, true);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(Number.isInteger(top / 4)).toBe(true);
    }
  });

  it("writes every label when they fit, else every n-th counted back from the last", () => {
    expect([...Array(12).keys()].filter((i) => labelShown(i, 12))).toHaveLength(12);
    const shown = [...Array(31).keys()].filter((i) => labelShown(i, 31));
    expect(shown.at(-1)).toBe(30);
    expect(shown).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30]);
  });
});
