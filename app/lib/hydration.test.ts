import { describe, expect, it } from "vitest";
import { hydrates, plainPage, routeInlineScripts, STATIC_PAGE } from "./hydration";

describe("hydrates", () => {
  it("is true unless a matched route opted out", () => {
    expect(hydrates([])).toBe(true);
    expect(hydrates([{ handle: undefined }, { handle: { other: 1 } }])).toBe(true);
    expect(hydrates([{ handle: undefined }, { handle: STATIC_PAGE }])).toBe(false);
    expect(hydrates([{ handle: plainPage("x()") }])).toBe(false);
  });
});

describe("routeInlineScripts", () => {
  it("lists the matched routes' own scripts, outermost first, leaving out empty ones", () => {
    expect(routeInlineScripts([])).toEqual([]);
    expect(
      routeInlineScripts([
        { handle: undefined },
        { handle: plainPage("a()") },
        { handle: { other: 1 } },
        // The browser's build of a route whose script is only in the server's build.
        { handle: plainPage("") },
        { handle: plainPage("b()") },
      ]),
    ).toEqual(["a()", "b()"]);
    expect(plainPage("")).toEqual(STATIC_PAGE);
  });
});
