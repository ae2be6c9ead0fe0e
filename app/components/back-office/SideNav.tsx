import { Link, useLocation } from "react-router";
import {
  ADMIN_AREAS,
  BACK_OFFICE_GROUPS,
  areaHref,
  isAreaActive,
  type NavBadge,
} from "#app/content/back-office-nav.ts";

/** A count beside a navigation entry: exact, or a lower bound ("100+"). */
export interface NavCount {
  total: number;
  capped: boolean;
}

/** What each count means, for a screen reader ("3 waiting"). */
const BADGE_WORDS: Record<NavBadge, string> = { toDeliver: "waiting", unread: "unread" };

/**
 * The back office's navigation: the entries the viewer's role opens (`hrefs`, decided by the layout's loader), under
 * their task's heading, the current one marked (aria-current), with their counts.
 */
export function SideNav({
  hrefs,
  counts,
}: {
  hrefs: readonly string[];
  counts: Partial<Record<NavBadge, NavCount | undefined>>;
}) {
  const location = useLocation();
  const entries = ADMIN_AREAS.filter((area) => hrefs.includes(areaHref(area)));
  return (
    <nav aria-label="Back office" className="px-3 pb-4 lg:px-4">
      {BACK_OFFICE_GROUPS.map((group) => {
        const inGroup = entries.filter((e) => e.group === group);
        if (!inGroup.length) return null;
        const headingId = `nav-group-${group.toLowerCase()}`;
        return (
          <div key={group} className="mt-5 first:mt-2">
            <p id={headingId} className="px-3 text-[0.7rem] font-semibold tracking-widest text-white/60 uppercase">
              {group}
            </p>
            <ul aria-labelledby={headingId} className="mt-1.5 space-y-0.5">
              {inGroup.map((area) => {
                const active = isAreaActive(area, location.pathname, location.search);
                const count = area.badge ? counts[area.badge] : undefined;
                return (
                  <li key={areaHref(area)}>
                    <Link
                      to={areaHref(area)}
                      aria-current={active ? "page" : undefined}
                      className={`flex items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass ${active ? "bg-white text-forest" : "text-white/85 hover:bg-white/10 hover:text-white"}`}
                    >
                      <span data-nav-label>{area.label}</span>
                      {area.badge && count && count.total > 0 ? (
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums ${active ? "bg-forest text-white" : "bg-clay text-white"}`}
                          data-testid={`nav-count-${area.badge}`}
                        >
                          {count.total}
                          {count.capped ? "+" : ""}
                          <span className="sr-only"> {BADGE_WORDS[area.badge]}</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
