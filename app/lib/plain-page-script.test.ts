import { describe, expect, it } from "vitest";
import { PLAIN_PAGE_SCRIPT } from "./plain-page-script";

describe("the plain pages' inline script", () => {
  it("is one valid script, well under the landing page's 2 KB budget", () => {
    expect(() => new Function(PLAIN_PAGE_SCRIPT)).not.toThrow();
    expect(Buffer.byteLength(PLAIN_PAGE_SCRIPT)).toBeLessThan(1536);
    // Never closes its own <script> element early when written into the page.
    expect(PLAIN_PAGE_SCRIPT).not.toMatch(/<\/script/i);
    expect(PLAIN_PAGE_SCRIPT).not.toMatch(/\n/);
  });
});
