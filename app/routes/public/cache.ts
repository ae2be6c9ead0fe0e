import type { HeadersFunction } from "react-router";

/**
 * For pages that are the same for every anonymous visitor: the server may keep the rendered page until content
 * changes (server/http/pages.ts). Browsers are told to revalidate every time.
 */
export const anonymousPageHeaders: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers(loaderHeaders);
  headers.set("X-Page-Cache", "anonymous");
  headers.set("Cache-Control", "no-cache");
  return headers;
};
