import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, startBuiltServer } from "../support/server";

/**
 * Issue 33, item 15: `node build/server/main.js` without NODE_ENV is a production start (the configuration's
 * default), so React and React DOM must load their production builds, which they choose from NODE_ENV when first
 * loaded: the entry settles NODE_ENV before anything imports them.
 */
describe("a start without NODE_ENV", () => {
  it("loads React's production build in every process and does not warn", async () => {
    const probe = path.join(ROOT, "tests/support/react-build-probe.cjs");
    const server = await startBuiltServer({
      NODE_ENV: undefined,
      WEB_CONCURRENCY: "2",
      NODE_OPTIONS: `--require ${probe}`,
      SEED_DEMO_CONTENT: "false",
    });
    try {
      // A page rendered on the server: React DOM's server build is loaded by now too.
      expect((await fetch(server.url + "/")).status).toBe(200);
      const builds = [...server.output().matchAll(/react build: (\S+)/g)].map((m) => m[1]!);
      expect(builds.length).toBeGreaterThan(0);
      expect(builds.filter((b) => b.includes(".development."))).toEqual([]);
      expect(builds.some((b) => b.startsWith("react-dom/") && b.includes("server"))).toBe(true);
      expect(server.output()).not.toContain("NODE_ENV is not production");
    } finally {
      await server.stop();
    }
  }, 120_000);
});
