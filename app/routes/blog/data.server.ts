import { data, redirect, type AppLoadContext } from "react-router";
import type { PageInfo } from "#domain/pagination.ts";

/**
 * The page number a list's address asks for: none is the first (`?page=1` moves there for good, so that no two
 * addresses show the same list); anything but a whole number up to the last page is no page of the list (404), so no
 * made-up address is rendered and kept.
 */
export function requestedPage(request: Request): number {
  const url = new URL(request.url);
  const raw = url.searchParams.get("page");
  if (raw === null) return 1;
  if (raw === "1") throw redirect(url.pathname, 301);
  if (!/^[1-9]\d{0,5}$/.test(raw)) throw data(null, { status: 404 });
  return Number(raw);
}

/** A page beyond the list's end (the service answers its last page instead) is no page (404). */
export function checkPage(asked: number, page: PageInfo) {
  if (asked !== page.page) throw data(null, { status: 404 });
}

/** The library images a list of cards draws (their srcsets, sizes and colours). */
export const coversOf = (context: AppLoadContext, covers: string[]) =>
  context.services.media.describe(covers.filter(Boolean));
