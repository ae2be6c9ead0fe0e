import { defineConfig } from "vitest/config";
import { inlineScripts } from "./scripts/inline-script-plugin.mjs";
import { LongestFirst } from "./tests/support/sequencer.ts";

/** `?inline-script` imports give the script as the build bundles it (the tests compare it with the pages' own). */
const plugins = [inlineScripts()];

export default defineConfig({
  test: {
    // The longest files first (tests/durations.json), so that no long file starts when the other worker is nearly done.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        plugins,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "domain/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          // Pure functions, no module state between files: the files of a worker share one module graph instead of
          // importing it again each (on two cores, 55 s → 22 s, most of it imports).
          isolate: false,
        },
      },
      {
        plugins,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/global-db.ts"],
          sequence: { groupOrder: 1 },
          // Each file has its own database (a clone of the migrated template), so two run at once: much of a file's
          // time is spent waiting on PostgreSQL, the job queue or the SMTP listener (measured on two cores: 248 s of
          // file time in 160 s, against about 220 s one at a time).
          maxWorkers: 2,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins,
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
          // In CI (a shared machine whose load we do not choose) a browser test that fails is run once more; one that
          // passes only then is named in npm test's summary as flaky, to be looked at, never silently passed.
          retry: process.env.CI === "true" || process.env.CI === "1" ? 1 : 0,
        },
      },
      {
        plugins,
        test: {
          // Issue 12's probes against the built server: page matrix, hostile bodies, memory, kill -9, outages.
          // FAULT_LONG=1 repeats the fault loops as long as the outside probe did.
          name: "fault",
          include: ["tests/fault/**/*.test.ts"],
          globalSetup: ["tests/support/global-db.ts"],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // They measure memory and timings: one file at a time.
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
