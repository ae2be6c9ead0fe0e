import type { HeadersFunction } from "react-router";

/**
 * For pages that are the same for every visitor of a role (signed out, customer, administrator: only the header and
 * footer differ) and read no query parameter but `reads`: the server keeps the rendered page until content changes
 * (server/http/pages.ts, page-cache.ts), one copy per role, shared by every address that differs only by other query
 * parameters (utm_*, fbclid …). Browsers are told to revalidate every time (the ETag answers 304).
 */
export function cachedPageHeaders(...reads: string[]): HeadersFunction {
  return ({ loaderHeaders }) => {
    const headers = new Headers(loaderHeaders);
    headers.set("X-Page-Cache", reads.length ? `anonymous; reads=${reads.join(",")}` : "anonymous");
    headers.set("Cache-Control", "no-cache");
    return headers;
  };
}

/** A cached page that reads no query parameter. */
export const anonymousPageHeaders: HeadersFunction = cachedPageHeaders();
