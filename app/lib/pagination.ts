/** Page arithmetic for every paginated table (pages are 1-based; a page beyond the end shows the last one). */
export interface PageInfo {
  page: number;
  pages: number;
  perPage: number;
  total: number;
  offset: number;
}

export function paginate(total: number, requested: unknown, perPage: number): PageInfo {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const n =
    typeof requested === "string" ? Number.parseInt(requested, 10) : typeof requested === "number" ? requested : 1;
  const page = Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), pages) : 1;
  return { page, pages, perPage, total, offset: (page - 1) * perPage };
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
