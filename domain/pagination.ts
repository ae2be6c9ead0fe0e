/** One page of a paginated table (pages are 1-based), as server/lib/paging.ts computes it in SQL. */
export interface PageInfo {
  page: number;
  pages: number;
  perPage: number;
  total: number;
  offset: number;
}

/** The page numbers to show as links: all of them when few, else the first, the last and those around the current. */
export function pageLinks(info: Pick<PageInfo, "page" | "pages">): (number | "…")[] {
  const { page, pages } = info;
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const out: (number | "…")[] = [1];
  const from = Math.max(2, page - 1);
  const to = Math.min(pages - 1, page + 1);
  if (from > 2) out.push("…");
  for (let p = from; p <= to; p++) out.push(p);
  if (to < pages - 1) out.push("…");
  out.push(pages);
  return out;
}
