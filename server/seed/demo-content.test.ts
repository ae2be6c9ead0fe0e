import { describe, it, expect } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { getSection, sections, type NewRecord, type SectionType } from "#domain/registry.ts";
import { validateSection } from "#domain/validation.ts";
import { demoContent } from "./demo-content";

const publicDir = path.resolve(import.meta.dirname, "../../public");
const imagesDir = path.join(publicDir, "images");

const recordsOf = <T extends SectionType>(type: T) =>
  demoContent.filter((r): r is Extract<NewRecord, { type: T }> => r.type === type);

describe("demo content", () => {
  it("passes the registry's validation, record by record", () => {
    for (const { type, data } of demoContent) {
      const section = getSection(type);
      expect(section, `unknown section type ${type}`).toBeDefined();
      const result = validateSection(section!, data);
      expect(result.ok ? [] : result.errors, `${type}: ${JSON.stringify(data).slice(0, 80)}`).toEqual([]);
    }
  });

  it("uses only field names the registry knows", () => {
    for (const { type, data } of demoContent) {
      const names = new Set(getSection(type)!.fields.map((f) => f.name));
      for (const key of Object.keys(data)) expect(names.has(key), `${type}.${key}`).toBe(true);
    }
  });

  it("fills every section type, one record per singleton, lists within their maximum", () => {
    for (const section of sections) {
      const count = recordsOf(section.type).length;
      expect(count, `${section.type} has no record`).toBeGreaterThan(0);
      if (section.cardinality === "singleton") expect(count, section.type).toBe(1);
      if ("max" in section && section.max !== undefined) expect(count, section.type).toBeLessThanOrEqual(section.max);
    }
  });

  it("offers Basic, Standard and Premium with 7, 7 and 10 points", () => {
    const packages = recordsOf("pricing").map((r) => r.data);
    expect(packages.map((p) => p.packageName)).toEqual(["Basic", "Standard", "Premium"]);
    const points = packages.map((p) => Object.keys(p).filter((k) => k.startsWith("packagePoint")).length);
    expect(points).toEqual([7, 7, 10]);
    for (const p of packages) {
      expect(typeof p.packagePrice).toBe("number");
      expect(Number.isInteger(p.packageValidity)).toBe(true);
    }
  });

  it("numbers the four work steps 01 to 04", () => {
    expect(recordsOf("workStep").map((r) => r.data.stepNumber)).toEqual(["01", "02", "03", "04"]);
  });

  it("keeps the call to action's button as specified", () => {
    const [action] = recordsOf("action");
    expect(action!.data.buttonText).toBe("Let's Talk For Support");
    expect(action!.data.buttonLink).toBe("/");
  });

  it("references only images that exist under public/", () => {
    const paths = demoContent.flatMap(({ data }) =>
      Object.values(data).filter((v): v is string => typeof v === "string" && v.startsWith("/images/")),
    );
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) {
      expect(fs.existsSync(path.join(publicDir, p)), `${p} is missing`).toBe(true);
    }
  });

  it("ships well-formed, script-free SVGs with explicit size and viewBox", () => {
    const svgs = fs.readdirSync(imagesDir).filter((f) => f.endsWith(".svg"));
    expect(svgs.length).toBeGreaterThan(0);
    for (const file of [...svgs.map((f) => path.join(imagesDir, f)), path.join(publicDir, "favicon.svg")]) {
      const text = fs.readFileSync(file, "utf8");
      const root = text.match(/<svg\b[^>]*>/)?.[0] ?? "";
      const name = path.basename(file);
      expect(root, `${name} has no <svg> root`).not.toBe("");
      expect(root, `${name} width`).toMatch(/\swidth="\d+(\.\d+)?"/);
      expect(root, `${name} height`).toMatch(/\sheight="\d+(\.\d+)?"/);
      expect(root, `${name} viewBox`).toMatch(/\sviewBox="[\d.\s-]+"/);
      expect(text, `${name} has a script`).not.toMatch(/<script/i);
      expect(text, `${name} has an event handler`).not.toMatch(/\son[a-z]+\s*=/i);
    }
  });
});
