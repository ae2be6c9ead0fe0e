import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "domain/**/*.test.ts", "server/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/global-db.ts"],
          sequence: { groupOrder: 1 },
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          // A browser on a loaded two-core machine: wait up to 10 s for a state, checking every 50 ms
          // (a toast lives 2 s, so it is still seen).
          expect: { poll: { timeout: 10_000, interval: 50 } },
          globalSetup: ["tests/support/global-db.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // Each file starts its own server and browser: two at a time on a two-core machine.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
