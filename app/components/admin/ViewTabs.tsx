import { Link } from "react-router";

export interface ViewTab {
  label: string;
  to: string;
  active: boolean;
  /** Shown in a pill beside the label. */
  count?: number;
}

/** Links between views of one list (each view its own address), the current one marked for screen readers too. */
export function ViewTabs({ label, tabs }: { label: string; tabs: ViewTab[] }) {
  const tab = (active: boolean) =>
    `inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-medium ${active ? "bg-forest text-white" : "bg-white text-ink/80 ring-1 ring-linen hover:text-clay"}`;
  return (
    <nav aria-label={label} className="mb-4 flex flex-wrap gap-2">
      {tabs.map((t) => (
        <Link key={t.to} to={t.to} className={tab(t.active)} aria-current={t.active ? "page" : undefined}>
          {t.label}
          {t.count !== undefined ? (
            <span
              className={`rounded-full px-2 py-0.5 text-xs ${t.active ? "bg-white/20 text-white" : "bg-sand text-ink/80"}`}
            >
              {t.count}
            </span>
          ) : null}
        </Link>
      ))}
    </nav>
  );
}
