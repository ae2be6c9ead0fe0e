/**
 * Where to go after signing in: only a same-site relative path is honoured (no open redirect); anything else goes to
 * the fallback.
 */
export function safeRedirect(to: unknown, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a redirect target may not hold
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  try {
    const url = new URL(to, "http://same.invalid");
    if (url.origin !== "http://same.invalid") return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** /login?redirectTo=<the page asked for>. */
export function loginUrl(request: Request): string {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  return here === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(here)}`;
}
