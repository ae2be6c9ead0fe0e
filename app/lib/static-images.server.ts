/** Per content snapshot (the service hands out one object per generation). */
const used = new WeakMap<object, Record<string, string>>();

/**
 * The part of the map that `content` refers to (typically nothing: the library serves the demo's images), worked out
 * once per content snapshot. Pages get only that, so a page that shows no shipped image carries no map.
 */
export function staticImagesUsed(content: object, all: Readonly<Record<string, string>>): Record<string, string> {
  let found = used.get(content);
  if (!found) {
    const text = JSON.stringify(content);
    found = Object.fromEntries(Object.entries(all).filter(([from]) => text.includes(`"${from}"`)));
    used.set(content, found);
  }
  return found;
}
