import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleInlineScript } from "#scripts/inline-script-plugin.mjs";

describe("the plain pages' inline script", () => {
  it("is one valid script, well under the landing page's 2 KB budget", async () => {
    const { code } = await bundleInlineScript(fileURLToPath(new URL("./plain-page-inline.ts", import.meta.url)));
    expect(() => new Function(code)).not.toThrow();
    expect(Buffer.byteLength(code)).toBeLessThan(1536);
    // Never closes its own <script> element early when written into the page.
    expect(code).not.toMatch(/<\/script/i);
  });
});
