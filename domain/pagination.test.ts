import { describe, expect, it } from "vitest";
import { pageLinks } from "./pagination";

describe("pageLinks", () => {
  it("lists all pages when few", () => {
    expect(pageLinks({ page: 1, pages: 1 })).toEqual([1]);
    expect(pageLinks({ page: 3, pages: 7 })).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it("elides the middle when many", () => {
    expect(pageLinks({ page: 1, pages: 20 })).toEqual([1, 2, "…", 20]);
    expect(pageLinks({ page: 10, pages: 20 })).toEqual([1, "…", 9, 10, 11, "…", 20]);
    expect(pageLinks({ page: 20, pages: 20 })).toEqual([1, "…", 19, 20]);
  });
});
