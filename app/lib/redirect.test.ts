import { describe, expect, it } from "vitest";
import { loginUrl, safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/my-order?page=2", "/my-order?page=2"],
    ["/item/abc#top", "/item/abc#top"],
    ["/a/../b", "/b"],
  ])("keeps the same-site path %s", (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });

  it.each([
    ["an absolute address", "https://evil.example/dashboard"],
    ["a protocol-relative address", "//evil.example"],
    ["a backslash trick", "/\\evil.example"],
    ["an encoded backslash after decoding", "/\\/evil.example"],
    ["a javascript link", "javascript:alert(1)"],
    ["a relative path", "dashboard"],
    ["a control character", "/dash\tboard"],
    ["an empty string", ""],
    ["not a string", 42],
    ["undefined", undefined],
    // Issue 33, item 1: paths that resolve or decode to another host.
    ["dot segments before two slashes", "/..//evil.example/phish"],
    ["a dot segment before two slashes", "/.//evil.example"],
    ["encoded dots before two slashes", "/%2e%2e//evil.example"],
    ["a folder and its way back before two slashes", "/a/..//evil.example"],
    ["encoded slashes", "/%2F%2Fevil.example"],
    ["slashes encoded after dot segments", "/..%2f%2fevil.example"],
    ["an encoded backslash", "/%5Cevil.example"],
    ["a doubly encoded slash", "/%252F%252Fevil.example"],
    ["an encoded tab", "/%09/evil.example"],
    ["an encoded newline", "/%0a/evil.example"],
    ["bad encoding", "/%E0%A4%A"],
  ])("refuses %s", (_name, input) => {
    expect(safeRedirect(input)).toBe("/dashboard");
  });

  it("uses the given fallback", () => {
    expect(safeRedirect("https://x.example", "/")).toBe("/");
  });
});

describe("loginUrl", () => {
  it("remembers the origin page", () => {
    expect(loginUrl(new Request("http://h/my-order?page=2"))).toBe("/login?redirectTo=%2Fmy-order%3Fpage%3D2");
    expect(loginUrl(new Request("http://h/"))).toBe("/login");
  });
});
