import { data, type AppLoadContext } from "react-router";
import type { PageInfo } from "../../../domain/pagination";

/**
 * The page number a list's address asks for: none is the first; anything but a whole number from 1 to the last page
 * is no page of the list (404), so that no two addresses show the same list and no made-up one is rendered and kept.
 */
export function requestedPage(request: Request): number {
  const raw = new URL(request.url).searchParams.get("page");
  if (raw === null) return 1;
  if (!/^[1-9]\d{0,5}$/.test(raw) || raw === "1") throw data(null, { status: 404 });
  return Number(raw);
}

/** A page beyond the list's end (the service answers its last page instead) is no page (404). */
export function checkPage(asked: number, page: PageInfo) {
  if (asked !== page.page) throw data(null, { status: 404 });
}

/** The library images a list of cards draws (their srcsets, sizes and colours). */
export const coversOf = (context: AppLoadContext, covers: string[]) =>
  context.services.media.describe(covers.filter(Boolean));
