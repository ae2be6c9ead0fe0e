const BASE = "http://same.invalid";
/** A path a browser may read as another host: "//host", "/\\host" (the backslash is a slash to browsers). */
const OTHER_HOST = /^\/[/\\]/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what a redirect target may not hold
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The text decoded until it no longer changes (a few rounds at most); undefined when it is not valid encoding. */
function decodedFully(text: string): string | undefined {
  let current = text;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** A path with its dot segments removed, as a browser or a proxy that decodes first would read it. */
const resolved = (path: string) => new URL(path.replace(/\\/g, "/"), BASE).pathname;

/**
 * Where to go after signing in: only a same-site path is honoured (no open redirect); anything else goes to the
 * fallback. The answer is the path as resolved (dot segments removed), and is refused when that path, or that path
 * decoded, starts with "//" or "/\\" or holds a control character: "/..//evil.example" resolves to "//evil.example".
 */
export function safeRedirect(to: unknown, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || OTHER_HOST.test(to) || CONTROL.test(to) || to.includes("\\")) return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname;
  const decoded = decodedFully(path);
  if (
    decoded === undefined ||
    [path, decoded, resolved(decoded)].some((p) => OTHER_HOST.test(p)) ||
    CONTROL.test(decoded)
  )
    return fallback;
  const result = path + url.search + url.hash;
  // What the browser resolves the answer to must be the answer itself (nothing left for a second resolution).
  return new URL(result, BASE).href === BASE + result ? result : fallback;
}

/** /login?redirectTo=<the page asked for>. */
export function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  return here === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(here)}`;
}
