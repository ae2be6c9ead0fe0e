import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/**
 * axe-core (the engine behind most accessibility checkers) over the page that is open: WCAG 2.1 A and AA, plus axe's
 * best practices. Each violation as one line saying what and where; none is an empty list.
 */
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeResult {
  violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
}

export async function axeViolations(page: Page, label = new URL(page.url()).pathname): Promise<string[]> {
  // Colours are measured once the 0.3 s page fade has finished.
  // (An animation cancelled meanwhile, such as the loading bar's when the page arrives, has finished too.)
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe.run(document, {
      runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    }),
  )) as AxeResult;
  return result.violations.map(
    (v) => `${label} ${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

/** Opens `path` and answers its violations. */
export async function violations(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  return axeViolations(page, path);
}
