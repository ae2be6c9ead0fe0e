import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { pageLinks, type PageInfo } from "#domain/pagination.ts";
import { orderStatuses, paymentStatuses } from "#domain/vocabulary.ts";

export interface Column<T> {
  header: string;
  cell: (row: T, index: number) => ReactNode;
  className?: string;
  /** The row's action: kept in view at the card's right edge while the other columns scroll beneath it. */
  pinned?: boolean;
  /**
   * Text people typed (names, addresses, subjects): a word of any length breaks where it must, so one long name never
   * widens the table (the other columns keep their words whole, app.css).
   */
  typed?: boolean;
}

/**
 * Edge shadows that appear only where there is more to scroll to (backgrounds that scroll with the content cover the
 * shadows at the ends): a cue that needs no JavaScript.
 */
const SCROLL_SHADOWS: CSSProperties = {
  background: [
    "linear-gradient(to right, white 30%, rgb(255 255 255 / 0)) left / 2.5rem 100% no-repeat local",
    "linear-gradient(to left, white 30%, rgb(255 255 255 / 0)) right / 2.5rem 100% no-repeat local",
    "radial-gradient(farthest-side at 0 50%, rgb(31 61 54 / 0.18), rgb(31 61 54 / 0)) left / 0.9rem 100% no-repeat scroll",
    "radial-gradient(farthest-side at 100% 50%, rgb(31 61 54 / 0.18), rgb(31 61 54 / 0)) right / 0.9rem 100% no-repeat scroll",
  ].join(", "),
};

/** Whether the element's content is wider than the element (it scrolls sideways), kept current on resize. */
function useOverflowsX<E extends HTMLElement>() {
  const ref = useRef<E>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const measure = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return [ref, overflows] as const;
}

/**
 * The one table with server-side pagination: columns, rows, an empty text, and page links that set `pageParam` in the
 * address (so each table on a page pages on its own). Pagination is hidden when everything fits on one page.
 * On small screens each row becomes a card with the column names as labels. From the md width up a table wider than its
 * card scrolls inside the card, with shadows at the edges that have more and a "Scroll sideways" hint, and its pinned
 * column (the row's action) stays in view: no column is ever clipped.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  page,
  pageParam = "page",
  testId,
  compact = false,
}: {
  caption?: ReactNode;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: string;
  page?: PageInfo;
  pageParam?: string;
  testId?: string;
  /** Narrower cells (from the md width up), for a wide table that must fit beside the back office's navigation. */
  compact?: boolean;
}) {
  const [scroller, overflows] = useOverflowsX<HTMLDivElement>();
  return (
    <div data-testid={testId} className="overflow-hidden rounded-2xl bg-white ring-1 ring-linen">
      {caption ? <div className="border-b border-linen px-5 py-4 font-serif text-lg text-forest">{caption}</div> : null}
      {rows.length === 0 ? (
        <p className="px-5 py-10 text-center text-sm text-mist">{empty}</p>
      ) : (
        <>
          {/* Shown while the table scrolls sideways (`data-overflows`, set by the hook above or, on a plain page that
              React does not run, by the plain pages' script: app/lib/plain-page-script.ts). */}
          <p
            className="hidden px-5 pt-3 text-xs text-mist md:[&:has(+[data-overflows])]:block"
            data-testid="scroll-hint"
          >
            <span aria-hidden="true">↔</span> Scroll sideways to see every column.
          </p>
          <div
            ref={scroller}
            className="md:overflow-x-auto"
            style={SCROLL_SHADOWS}
            data-scroll-x=""
            data-overflows={overflows || undefined}
          >
            <table className={`w-full text-left text-sm ${compact ? "md:[&_td]:px-3 [&_th]:px-3" : ""}`}>
              <thead className="hidden bg-sand/60 text-xs font-semibold text-mist md:table-header-group">
                <tr>
                  {columns.map((c) => (
                    <th
                      key={c.header}
                      scope="col"
                      className={`px-4 py-3 font-semibold first:pl-5 last:pr-5 ${c.pinned ? "data-pinned md:bg-[#f9f5f0]" : ""} ${c.className ?? ""}`}
                    >
                      {c.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-linen">
                {rows.map((row, i) => (
                  <tr key={rowKey(row)} className="data-row">
                    {columns.map((c) => (
                      <td key={c.header} className={cellClass(c)} data-label={c.header}>
                        <div className="data-value">{c.cell(row, i)}</div>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {page && page.pages > 1 ? <Pagination page={page} param={pageParam} /> : null}
    </div>
  );
}

/** A cell's classes (the utilities in app.css), without empty parts: they repeat on every cell of every row. */
function cellClass(c: Pick<Column<never>, "pinned" | "className" | "typed">): string {
  let name = "data-cell";
  if (c.pinned) name += " data-pinned md:bg-white";
  // Wide enough for a few words, so a long name beside it does not squeeze it letter by letter.
  if (c.typed) name += " wrap-anywhere md:min-w-24";
  if (c.className) name += ` ${c.className}`;
  return name;
}

export function Pagination({ page, param }: { page: PageInfo; param: string }) {
  const location = useLocation();
  const href = (n: number) => {
    const params = new URLSearchParams(location.search);
    params.set(param, String(n));
    return `${location.pathname}?${params}`;
  };
  const item = "inline-flex h-9 min-w-9 items-center justify-center rounded-full px-3 text-sm";
  return (
    <nav
      aria-label="Pages"
      className="flex flex-wrap items-center justify-between gap-3 border-t border-linen px-5 py-3"
    >
      <p className="text-xs text-mist">
        Page {page.page} of {page.pages}
        {page.capped ? "+" : ""} · {page.total}
        {page.capped ? "+" : ""} in all
      </p>
      <ol className="flex flex-wrap items-center gap-1">
        {page.page > 1 ? (
          <li>
            <Link
              to={href(page.page - 1)}
              preventScrollReset
              className={`${item} text-forest hover:bg-sand`}
              aria-label="Previous page"
            >
              ‹
            </Link>
          </li>
        ) : null}
        {pageLinks(page).map((n, i) =>
          n === "…" ? (
            <li key={`gap${i}`} className="px-1 text-mist">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={href(n)}
                preventScrollReset
                aria-current={n === page.page ? "page" : undefined}
                className={`${item} ${n === page.page ? "bg-forest text-white" : "text-forest hover:bg-sand"}`}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        {page.page < page.pages ? (
          <li>
            <Link
              to={href(page.page + 1)}
              preventScrollReset
              className={`${item} text-forest hover:bg-sand`}
              aria-label="Next page"
            >
              ›
            </Link>
          </li>
        ) : null}
      </ol>
    </nav>
  );
}

/** The status label, in a module of its own (a page may show badges without a table). */
export { Badge } from "./Badge";

export const paymentTone = paymentStatuses.tone;
export const orderTone = orderStatuses.tone;
