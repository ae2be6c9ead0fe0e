/**
 * `npm run deps:check` (docs/decisions/080): the dependencies that have newer versions (for information: `npm outdated`,
 * which needs the npm registry; without it, said so and skipped) and those nothing uses (knip, configured in
 * knip.jsonc). Exits 1 on an unused dependency or devDependency, or on a knip.jsonc entry that no longer does anything
 * (a package ignored there that the code now imports); CI runs it (.ci/run). Packages imported without being listed
 * (reached through another package) are listed, not failed.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface Outdated {
  name: string;
  current: string;
  wanted: string;
  latest: string;
  kind: string;
}

export type OutdatedAnswer = { rows: Outdated[] } | { unreachable: string };

/** How a command ended. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** `npm outdated --json --long`'s answer as rows, sorted by name; or why the registry could not be asked. */
export function readOutdated(ran: Ran): OutdatedAnswer {
  if (ran.timedOut) return { unreachable: "no answer in 90 s" };
  // It exits 1 when something is outdated; no exit code: it did not start (no npm).
  if (ran.code === null) return { unreachable: firstLine(ran.stderr) || "npm did not start" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(ran.stdout.trim() || (ran.code === 0 ? "{}" : "null"));
  } catch {
    parsed = null;
  }
  if (!parsed || typeof parsed !== "object") {
    return { unreachable: firstLine(ran.stderr) || `npm outdated exited with ${ran.code} and no answer` };
  }
  if ("error" in parsed) {
    const error = (parsed as { error: { code?: string; summary?: string } }).error;
    return { unreachable: [error.code, firstLine(error.summary ?? "")].filter(Boolean).join(": ") || "an error" };
  }
  const rows: Outdated[] = [];
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    // One package installed in several places answers as a list: the first (the project's own) is the one listed.
    const entry = (Array.isArray(value) ? value[0] : value) as Partial<Record<string, string>>;
    rows.push({
      name,
      current: entry.current ?? "not installed",
      wanted: entry.wanted ?? "?",
      latest: entry.latest ?? "?",
      kind: entry.type === "devDependencies" ? "dev" : (entry.type ?? "?"),
    });
  }
  return { rows: rows.sort((a, b) => a.name.localeCompare(b.name)) };
}

const firstLine = (text: string) => text.trim().split("\n")[0]?.trim() ?? "";

/** Rows as a plain text table, each column as wide as its longest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** The major version of a semver string (a pre-release's too), or undefined. */
const major = (version: string) => /^(\d+)\./.exec(version)?.[1];

export function outdatedReport(answer: OutdatedAnswer): string {
  if ("unreachable" in answer) {
    return `Outdated: not checked, the npm registry could not be reached (${answer.unreachable}).`;
  }
  if (!answer.rows.length) return "Outdated: none, every dependency is at its latest version.";
  const rows = answer.rows.map((r) => [
    r.name,
    r.current,
    r.wanted,
    r.latest,
    r.kind,
    major(r.current) !== undefined && major(r.current) !== major(r.latest) ? "major" : "",
  ]);
  return (
    `Outdated (${answer.rows.length}; for information, see docs/decisions/080 for when to upgrade):\n` +
    table(["Package", "Current", "Wanted", "Latest", "Kind", ""], rows)
  );
}

export interface KnipFindings {
  dependencies: { name: string; file: string }[];
  devDependencies: { name: string; file: string }[];
  unlisted: { name: string; file: string }[];
  hints: { type: string; identifier: string; file?: string }[];
}

/** What knip found, as text, and whether the check fails: an unused package, or knip.jsonc out of date. */
export function unusedReport(findings: KnipFindings, root: string): { text: string; failed: boolean } {
  const relative = (file: string | undefined) => (file ? path.relative(root, file) || file : "");
  const unused = [
    ...findings.dependencies.map((d) => [d.name, "dependencies"]),
    ...findings.devDependencies.map((d) => [d.name, "devDependencies"]),
  ];
  const parts: string[] = [];
  parts.push(
    unused.length
      ? `Unused (${unused.length}): nothing imports them. Remove them (npm uninstall NAME), or, if they are used ` +
          `in a way knip cannot see, say how in knip.jsonc's ignoreDependencies.\n` +
          table(["Package", "Listed in"], unused)
      : "Unused: none.",
  );
  if (findings.hints.length) {
    parts.push(
      `knip.jsonc is out of date (${findings.hints.length}):\n` +
        table(
          ["Entry", "Hint", "File"],
          findings.hints.map((h) => [h.identifier, hintText(h.type), relative(h.file)]),
        ),
    );
  }
  if (findings.unlisted.length) {
    const byName = new Map<string, string[]>();
    for (const u of findings.unlisted) byName.set(u.name, [...(byName.get(u.name) ?? []), relative(u.file)]);
    parts.push(
      `Imported but not listed in package.json (${byName.size}; reached through another package, for information):\n` +
        table(
          ["Package", "Imported by"],
          [...byName].map(([name, files]) => [name, files.join(", ")]),
        ),
    );
  }
  return { text: parts.join("\n\n"), failed: unused.length > 0 || findings.hints.length > 0 };
}

const HINTS: Record<string, string> = {
  ignoreDependencies: "ignored, but used or not listed: remove it from ignoreDependencies",
  ignoreBinaries: "ignored, but used or unknown: remove it from ignoreBinaries",
  ignoreUnresolved: "ignored, but resolved: remove it from ignoreUnresolved",
};
const hintText = (type: string) => HINTS[type] ?? type;

function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<Ran>((resolve) => {
    const child = spawn(command, args, { env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: stderr + String(error), timedOut });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

async function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  process.chdir(root);
  const started = Date.now();

  const [outdated, knip] = await Promise.all([
    // Offline, npm would retry for minutes: one try, 20 s a request, 90 s in all.
    run("npm", ["outdated", "--json", "--long"], {
      env: { ...process.env, npm_config_fetch_retries: "0", npm_config_fetch_timeout: "20000" },
      timeoutMs: 90_000,
    }),
    run(
      process.execPath,
      [
        "node_modules/knip/bin/knip.js",
        "--include",
        "dependencies,devDependencies,unlisted",
        "--no-progress",
        "--no-exit-code",
        "--reporter",
        "./scripts/deps-check-reporter.mjs",
      ],
      { timeoutMs: 300_000 },
    ),
  ]);

  process.stdout.write(outdatedReport(readOutdated(outdated)) + "\n\n");

  const line = knip.stdout.split("\n").find((l) => l.startsWith("{"));
  if (!line) {
    process.stderr.write(`knip did not run (exit ${knip.code}):\n${knip.stderr || knip.stdout}\n`);
    process.exit(2);
  }
  const { text, failed } = unusedReport(JSON.parse(line) as KnipFindings, root);
  process.stdout.write(`${text}\n\nChecked in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
