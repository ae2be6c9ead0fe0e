import { describe, expect, it } from "vitest";
import { siteName } from "./site";

const c = (copyrightText?: string) =>
  ({ copyright: copyrightText === undefined ? [] : [{ _id: "1", copyrightText }] }) as never;

describe("siteName", () => {
  it("reads the agency name from the copyright line", () => {
    expect(siteName(c("© 2026 Atelier North Studio. All rights reserved."))).toBe("Atelier North Studio");
    expect(siteName(c("Copyright 2026 Atelier North | All rights reserved"))).toBe("Atelier North");
    expect(siteName(c("Atelier North, all rights reserved"))).toBe("Atelier North");
  });
  it("falls back when there is no copyright", () => {
    expect(siteName(c())).toBe("Interior Design & SEO Studio");
    expect(siteName(c(""))).toBe("Interior Design & SEO Studio");
  });
});
