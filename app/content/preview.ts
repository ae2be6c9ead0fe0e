import { pages, pagesShowing, type PageKey } from "./pages";
import type { SectionType } from "#domain/registry.ts";

/**
 * Which public pages a preview of a section's unsaved change can draw (decision 074). Shared by server and browser:
 * no server-only or React imports here.
 */

/** The public pages drawn from content sections, in the order a preview offers them. */
export const PREVIEW_PAGES = [
  "home",
  "service",
  "pricing",
  "contact",
  "privacy",
  "terms",
] as const satisfies readonly Exclude<PageKey, "chrome">[];
export type PreviewPage = (typeof PREVIEW_PAGES)[number];

/**
 * The pages that show a section, the first drawn by default: the header and footer's sections are on every page and
 * are shown on the landing page; a search listing is drawn on none (nothing to preview).
 */
export function previewPages(type: SectionType): PreviewPage[] {
  const shown = pagesShowing(type);
  if (shown.includes("chrome")) return ["home"];
  return PREVIEW_PAGES.filter((page) => shown.includes(page));
}

/** The page a preview draws: the one asked for if it shows the section, else the first that does. */
export function previewPage(type: SectionType, asked: unknown): PreviewPage | undefined {
  const offered = previewPages(type);
  return offered.find((page) => page === asked) ?? offered[0];
}

/** What the preview's bar calls a page. */
export const previewPageName = (page: PreviewPage) => pages[page].name;
