/**
 * Which pages React hydrates. The anonymous public pages (marketing pages, thanks, newsletter answer, 404) and the
 * customer's dashboard, orders and item pages are plain server-rendered HTML: no module scripts, no module preloads,
 * no hydration (docs/decisions/027 and 057). Their links and forms are plain HTML; the mobile menu is a native
 * popover; the plain pages' one script (app/lib/plain-page-script.ts) adds the motion and posts marked forms in place.
 * A route opts out with `export const handle = STATIC_PAGE`, or `plainPage(script)` to write a small script of its own
 * (bundled into a string by the build: `?inline-script`) after the page's content.
 */
export interface PlainPageHandle {
  hydrate: false;
  /** The route's own inline script; only the server's build holds its text (an empty string in the browser's). */
  inlineScript?: string;
}

export function plainPage(inlineScript?: string): PlainPageHandle {
  return inlineScript ? { hydrate: false, inlineScript } : { hydrate: false };
}

export const STATIC_PAGE = plainPage();

type Match = { handle?: unknown };

/** False when any matched route opted out of hydration. */
export function hydrates(matches: readonly Match[]): boolean {
  return !matches.some((m) => (m.handle as PlainPageHandle | undefined)?.hydrate === false);
}

/** The inline scripts the matched routes of a plain page write, outermost first. */
export function routeInlineScripts(matches: readonly Match[]): string[] {
  return matches.flatMap((m) => (m.handle as PlainPageHandle | undefined)?.inlineScript || []);
}
