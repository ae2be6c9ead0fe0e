/**
 * `npm run test:durations`: writes tests/durations.json, the seconds each test file took in the last `npm test`
 * (its JSON reports in test-results/json/), which the test sequencer reads to start the longest files first
 * (tests/support/sequencer.ts). Run it after a full `npm test` on a quiet machine when the suite's shape has changed.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const reports = path.resolve("test-results/json");
const table: Record<string, number> = {};
// The second database's pass repeats some integration files: the embedded database's figure stands.
const second = (name: string) => name.includes("TEST_DATABASE_URL");
const names = readdirSync(reports).filter((n) => n.endsWith(".json"));
for (const name of [...names.filter((n) => !second(n)), ...names.filter(second)]) {
  const report = JSON.parse(readFileSync(path.join(reports, name), "utf8")) as {
    testResults: { name: string; startTime: number; endTime: number }[];
  };
  for (const file of report.testResults) {
    const key = path.relative(process.cwd(), file.name);
    table[key] ??= Math.round((file.endTime - file.startTime) / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync("tests/durations.json", JSON.stringify(sorted, null, 2) + "\n");
console.log(`tests/durations.json: ${Object.keys(sorted).length} files`);
