import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configurationMarkdown } from "./config-docs";

describe("docs/configuration.md", () => {
  it("is what server/config-docs.ts writes (run `npm run docs:config` after changing a setting)", async () => {
    expect(readFileSync("docs/configuration.md", "utf8")).toBe(await configurationMarkdown());
  });
});
