import { describe, expect, it } from "vitest";
import { paginate } from "./paging";

describe("paginate", () => {
  it("computes pages and offsets", () => {
    expect(paginate(0, "1", 3)).toEqual({ page: 1, pages: 1, perPage: 3, total: 0, offset: 0 });
    expect(paginate(4, "2", 3)).toEqual({ page: 2, pages: 2, perPage: 3, total: 4, offset: 3 });
    expect(paginate(10, 3, 5)).toMatchObject({ page: 2, pages: 2, offset: 5 });
  });
  it("treats bad and out-of-range pages sensibly", () => {
    for (const bad of [undefined, null, "", "x", "-1", "0", NaN]) expect(paginate(10, bad, 3).page).toBe(1);
    expect(paginate(10, "99", 3).page).toBe(4);
    expect(paginate(10, "2.7", 3).page).toBe(2);
  });
});

describe("paginate with a bounded count", () => {
  it("marks the total as a lower bound", () => {
    expect(paginate(100, "2", 10, true)).toEqual({
      page: 2,
      pages: 10,
      perPage: 10,
      total: 100,
      offset: 10,
      capped: true,
    });
    expect(paginate(100, "2", 10)).not.toHaveProperty("capped");
  });
});
