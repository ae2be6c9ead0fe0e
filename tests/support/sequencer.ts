import { readFileSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Seconds each test file took in a full run, by path from the repository's root (`npm run test:durations`). */
const TABLE = path.resolve(import.meta.dirname, "../durations.json");

function durations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TABLE, "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * The longest files first, by the durations of an earlier full run: with two workers, a long file that starts last
 * keeps one worker busy while the other has nothing left (vitest, without a cache of its own as on CI's fresh clone,
 * orders by file size, and the back office's accessibility file came 64th of 65). A file not in the table runs first,
 * as vitest runs a file it knows nothing of. Projects keep the order vitest gives them.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = durations();
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification) => table[path.relative(root, spec.moduleId)] ?? Infinity;
    const ordered = (await super.sort(files)).map((spec, index) => ({ spec, index, seconds: seconds(spec) }));
    ordered.sort((a, b) => {
      if (a.spec.project.name !== b.spec.project.name || a.seconds === b.seconds) return a.index - b.index;
      return b.seconds - a.seconds;
    });
    return ordered.map((o) => o.spec);
  }
}
