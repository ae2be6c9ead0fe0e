import { describe, expect, it } from "vitest";
import { addVary, privateCacheControl } from "./pages";

describe("a signed-in person's answer", () => {
  it("is private and stored nowhere, and keeps a download's no-transform (its length and bytes stay as sent)", () => {
    expect(privateCacheControl(null)).toBe("private, no-store");
    expect(privateCacheControl("public, max-age=60")).toBe("private, no-store");
    expect(privateCacheControl("no-store, no-transform")).toBe("private, no-store, no-transform");
  });

  it("varies by cookie once, beside what it already varies by", () => {
    const headers = new Headers({ vary: "Accept-Encoding" });
    addVary(headers, "Cookie");
    addVary(headers, "cookie");
    expect(headers.get("vary")).toBe("Accept-Encoding, Cookie");
  });
});
