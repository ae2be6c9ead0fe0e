import { describe, expect, it } from "vitest";
import { previewAs, previewPath } from "./blog";

describe("previewAs", () => {
  it("reads the viewer named, and anything else as a visitor", () => {
    expect(previewAs("member")).toBe("member");
    expect(previewAs("visitor")).toBe("visitor");
    expect(previewAs(null)).toBe("visitor");
    expect(previewAs("admin")).toBe("visitor");
  });

  it("makes the agreed address", () => {
    expect(previewPath("a1", "member")).toBe("/blog/preview/a1?as=member");
    expect(previewPath("a1")).toBe("/blog/preview/a1?as=visitor");
  });
});
