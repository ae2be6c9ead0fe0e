/**
 * Which pages React hydrates. The anonymous public pages (marketing pages, thanks, newsletter answer, 404) are plain
 * server-rendered HTML: no module scripts, no module preloads, no hydration (docs/decisions/027). Their links and
 * forms are plain HTML; the mobile menu is a native popover. A route opts out with `export const handle = STATIC_PAGE`.
 */
export const STATIC_PAGE = { hydrate: false } as const;

/** False when any matched route opted out of hydration. */
export function hydrates(matches: readonly { handle?: unknown }[]): boolean {
  return !matches.some((m) => (m.handle as { hydrate?: unknown } | undefined)?.hydrate === false);
}
