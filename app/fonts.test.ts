import { readFileSync } from "node:fs";
import path from "node:path";
import { createFontStack } from "@capsizecss/core";
import arial from "@capsizecss/metrics/arial";
import fraunces from "@capsizecss/metrics/fraunces";
import georgia from "@capsizecss/metrics/georgia";
import inter from "@capsizecss/metrics/inter";
import timesNewRoman from "@capsizecss/metrics/timesNewRoman";
import { describe, expect, it } from "vitest";

const css = readFileSync(path.join(import.meta.dirname, "app.css"), "utf8");

/** The descriptors of every @font-face in app.css, by family name. */
function fontFaces(text: string): Map<string, Record<string, string>> {
  const faces = new Map<string, Record<string, string>>();
  for (const [, body] of text.matchAll(/@font-face\s*{([^}]*)}/g)) {
    const descriptors: Record<string, string> = {};
    for (const [, name, value] of body!.matchAll(/([a-z-]+)\s*:\s*([^;]+);/g)) {
      descriptors[name!] = value!.replace(/\s+/g, " ").trim();
    }
    faces.set(descriptors["font-family"]!.replace(/^["']|["']$/g, ""), descriptors);
  }
  return faces;
}

const ours = fontFaces(css);
const OVERRIDES = ["ascent-override", "descent-override", "line-gap-override", "size-adjust"] as const;

describe("web fonts and their metric-matched fallbacks", () => {
  it.each([
    ["Inter", [arial]],
    ["Fraunces", [georgia, timesNewRoman]],
  ] as const)("%s: each fallback face scales its local font to the web font's metrics", (family, fallbacks) => {
    const metrics = family === "Inter" ? inter : fraunces;
    const expected = fontFaces(createFontStack([metrics, ...fallbacks]).fontFaces);
    expect(expected.size).toBe(fallbacks.length);
    for (const [name, face] of expected) {
      const mine = ours.get(name);
      expect(mine, `app.css has no @font-face "${name}"`).toBeDefined();
      for (const d of OVERRIDES) expect(mine![d], `${name} ${d}`).toBe(face[d] ?? "0%");
      // Capsize's local names come first; ours may add metric clones after them.
      const locals = (face.src!.match(/local\([^)]*\)/g) ?? []).map((l) => l.replace(/'/g, '"'));
      expect(mine!.src!.startsWith(locals.join(", ")), `${name} src`).toBe(true);
    }
  });

  it("self-hosts the latin subset of each web font, used only if it is there for the first paint", () => {
    for (const family of ["Inter", "Fraunces"]) {
      const face = ours.get(family)!;
      expect(face.src).toMatch(/^url\("@fontsource-variable\/[a-z]+\/files\/[a-z]+-latin-wght-normal\.woff2"\)/);
      expect(face["font-display"]).toBe("optional");
      expect(face["unicode-range"]).toMatch(/^U\+0000-00FF/);
    }
  });

  it("names each fallback right after its web font in the theme's stacks", () => {
    expect(css).toMatch(/--font-sans:\s*"Inter", "Inter Fallback",/);
    expect(css).toMatch(
      /--font-serif:\s*"Fraunces", "Fraunces Fallback: Georgia", "Fraunces Fallback: Times New Roman",/,
    );
  });
});
