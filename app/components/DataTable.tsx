import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { pageLinks, type PageInfo } from "../../domain/pagination";
import { orderStatuses, paymentStatuses, type Tone } from "../../domain/vocabulary";

export interface Column<T> {
  header: string;
  cell: (row: T, index: number) => ReactNode;
  className?: string;
}

/**
 * The one table with server-side pagination: columns, rows, an empty text, and page links that set `pageParam` in the
 * address (so each table on a page pages on its own). Pagination is hidden when everything fits on one page.
 * On small screens each row becomes a card with the column names as labels.
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
}: {
  caption?: ReactNode;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: string;
  page?: PageInfo;
  pageParam?: string;
  testId?: string;
}) {
  return (
    <div data-testid={testId} className="overflow-hidden rounded-2xl bg-white ring-1 ring-linen">
      {caption ? <div className="border-b border-linen px-5 py-4 font-serif text-lg text-forest">{caption}</div> : null}
      {rows.length === 0 ? (
        <p className="px-5 py-10 text-center text-sm text-mist">{empty}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="hidden bg-sand/60 text-xs font-semibold text-mist md:table-header-group">
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={`px-5 py-3 font-semibold ${c.className ?? ""}`}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-linen">
            {rows.map((row, i) => (
              <tr
                key={rowKey(row)}
                className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1.5 px-5 py-4 md:table-row md:p-0"
              >
                {columns.map((c) => (
                  <td
                    key={c.header}
                    className={`contents md:table-cell md:px-5 md:py-3.5 md:align-middle ${c.className ?? ""}`}
                  >
                    <span className="text-xs font-semibold text-mist md:hidden">{c.header}</span>
                    <span className="min-w-0 break-words text-ink">{c.cell(row, i)}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page && page.pages > 1 ? <Pagination page={page} param={pageParam} /> : null}
    </div>
  );
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
        Page {page.page} of {page.pages} · {page.total} in all
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

/** A small coloured label for a status. */
export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  const tones = {
    green: "bg-emerald-50 text-emerald-800 ring-emerald-200",
    amber: "bg-amber-50 text-amber-800 ring-amber-200",
    red: "bg-red-50 text-red-800 ring-red-200",
    grey: "bg-stone-100 text-stone-700 ring-stone-200",
    blue: "bg-sky-50 text-sky-800 ring-sky-200",
  };
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${tones[tone]}`}>
      {children}
    </span>
  );
}

export const paymentTone = paymentStatuses.tone;
export const orderTone = orderStatuses.tone;
