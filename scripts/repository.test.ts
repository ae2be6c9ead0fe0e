import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every file of the repository (what a clone has): tracked, or new and not ignored. */
const files = () =>
  execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);

describe("the repository stands on its own (issue 33)", () => {
  it("no file names the workspace folder beside the repository, which a clone does not have", () => {
    const outside = /\.\.\/shared\b/;
    const naming = files().filter((file) => {
      if (file === "package-lock.json") return false;
      let text: string;
      try {
        text = readFileSync(path.join(ROOT, file), "utf8");
      } catch {
        return false; // listed but removed in the working tree
      }
      return outside.test(text.split("\\").join("/"));
    });
    expect(naming).toEqual([]);
  });

  it("the README links to the architecture, which is in docs/", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("](docs/architecture.md)");
    expect(readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8")).toMatch(/^# Architecture/);
  });

  it("every relative link in its Markdown reaches a file, and every #anchor a heading of it", () => {
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s-]/gu, "")
        .replace(/\s/g, "-");
    const headings = (file: string) =>
      new Set(
        [...readFileSync(path.join(ROOT, file), "utf8").matchAll(/^#+ (.+)$/gm)].map((m) =>
          slug(m[1]!.replace(/`/g, "")),
        ),
      );
    const broken: string[] = [];
    for (const file of files().filter((f) => f.endsWith(".md") && !f.startsWith("docs/decisions/"))) {
      const text = readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [where, anchor] = target!.split("#");
        const to = where ? path.join(path.dirname(file), where) : file;
        if (!existsSync(path.join(ROOT, to))) broken.push(`${file}: ${target}`);
        else if (anchor && to.endsWith(".md") && !headings(to).has(anchor)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
