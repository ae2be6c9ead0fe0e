// `npm run dupes:check` (CI runs it; issue 39): repeated blocks of code outside the tests, found by jscpd (10 lines and
// 80 tokens or more, .jscpd.json). The pairs of files known to repeat a block are listed in .jscpd-known.json, each with
// why it stays; a block repeated between two other files fails the check and is printed, to be made one piece (or, when
// the repetition is right, added to the list with its reason: `npm run dupes:check -- --update` adds the new pairs with
// the reason "to explain"). A known pair that repeats nothing any more fails too: take it off the list.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

interface Place {
  name: string;
  start: number;
  end: number;
}
interface Duplicate {
  lines: number;
  firstFile: Place;
  secondFile: Place;
}
interface Known {
  files: [string, string];
  reason: string;
}

const KNOWN = ".jscpd-known.json";
const started = Date.now();
const out = mkdtempSync(path.join(tmpdir(), "atelier-jscpd-"));
try {
  const run = spawnSync("npx", ["jscpd", "--silent", "--reporters", "json", "--output", out, "."], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`jscpd failed: ${run.stderr || run.stdout}`);
  const { duplicates } = JSON.parse(readFileSync(path.join(out, "jscpd-report.json"), "utf8")) as {
    duplicates: Duplicate[];
  };
  const pairOf = (d: Duplicate) => [d.firstFile.name, d.secondFile.name].sort() as [string, string];
  const key = (files: readonly string[]) => files.join(" ~ ");
  const known: Known[] = JSON.parse(readFileSync(KNOWN, "utf8")) as Known[];
  const knownKeys = new Set(known.map((k) => key(k.files)));
  const found = new Map(duplicates.map((d) => [key(pairOf(d)), d]));
  const added = [...found].filter(([k]) => !knownKeys.has(k));
  const gone = known.filter((k) => !found.has(key(k.files)));

  if (process.argv.includes("--update")) {
    const next = [
      ...known.filter((k) => found.has(key(k.files))),
      ...added.map(([, d]) => ({ files: pairOf(d), reason: "to explain" })),
    ];
    writeFileSync(KNOWN, JSON.stringify(next, null, 2) + "\n");
    process.stdout.write(`${KNOWN}: ${next.length} pairs (${added.length} added, ${gone.length} removed)\n`);
    process.exit(0);
  }
  for (const [, d] of added)
    process.stdout.write(
      `New repeated block (${d.lines} lines): ${d.firstFile.name}:${d.firstFile.start}-${d.firstFile.end} ~ ` +
        `${d.secondFile.name}:${d.secondFile.start}-${d.secondFile.end}\n`,
    );
  for (const k of gone) process.stdout.write(`No longer repeated, take it off ${KNOWN}: ${key(k.files)}\n`);
  process.stdout.write(
    `Repeated blocks: ${duplicates.length} (${known.length} known pairs); checked in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
  );
  process.exit(added.length || gone.length ? 1 : 0);
} finally {
  rmSync(out, { recursive: true, force: true });
}
