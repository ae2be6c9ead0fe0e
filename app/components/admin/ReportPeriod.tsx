import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { TextField } from "../forms";
import { ViewTabs } from "./ViewTabs";

/** The reports' two views, as tabs above either. */
export function ReportTabs({ active }: { active: "sales" | "tax" }) {
  return (
    <ViewTabs
      label="Reports"
      tabs={[
        { label: "Sales and members", to: "/reports", active: active === "sales" },
        { label: "Tax", to: "/reports/tax", active: active === "tax" },
      ]}
    />
  );
}

/**
 * A report's "Period" box: one-click periods (`?period=…`, the current one marked), then the page's own forms for other
 * periods, then a note on how days are counted. Both reports draw it, so they choose periods alike.
 */
export function ReportPeriod({
  id,
  presets,
  current,
  note,
  children,
}: {
  id: string;
  presets: readonly { value: string; label: string }[];
  current: string | undefined;
  note: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mb-8 rounded-2xl bg-white p-5 ring-1 ring-linen">
      <h2 id={id} className="font-serif text-lg text-forest">
        Period
      </h2>
      <ul className="mt-3 flex flex-wrap gap-2">
        {presets.map((p) => (
          <li key={p.value}>
            <Link
              to={`?period=${p.value}`}
              aria-current={current === p.value ? "page" : undefined}
              className="inline-block rounded-full px-4 py-2 text-sm font-semibold ring-1 ring-linen hover:bg-sand aria-[current=page]:bg-forest aria-[current=page]:text-white"
            >
              {p.label}
            </Link>
          </li>
        ))}
      </ul>
      {children}
      <p className="mt-3 text-xs text-mist">{note}</p>
    </section>
  );
}

/** A from/to pair of days and its Show button, as a GET form (the address says the period). */
export function DayRangeForm({
  from,
  to,
  errors,
  className,
}: {
  from: string;
  to: string;
  errors: { from?: string; to?: string };
  className: string;
}) {
  return (
    <Form method="get" className={className}>
      <TextField label="From" name="from" type="date" defaultValue={from} error={errors.from} />
      <TextField label="To" name="to" type="date" defaultValue={to} error={errors.to} />
      <ShowButton />
    </Form>
  );
}

/** The Show button of a period form, level with its fields (below their labels) whether or not a message shows. */
export function ShowButton() {
  return (
    <div className="sm:pt-[1.625rem]">
      <button type="submit" className="btn-dark px-5 py-3">
        Show
      </button>
    </div>
  );
}
