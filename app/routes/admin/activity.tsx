import { Form, Link } from "react-router";
import type { Route } from "./+types/activity";
import { ACTIVITY_KINDS, activityFiltersFromSearch } from "../../../domain/activity";
import { Badge, DataTable } from "../../components/DataTable";
import { SelectField, TextField } from "../../components/forms";
import { requireStaff } from "../../lib/guards.server";
import { activityActions } from "../../../domain/vocabulary";
import { AdminHeader } from "./layout";
import { dateTime } from "../../../domain/dates";

/** Entries per page. */
const PER_PAGE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "activity");
  const params = new URL(request.url).searchParams;
  const filters = activityFiltersFromSearch(params);
  const [{ entries, page }, people] = await Promise.all([
    context.services.activity.list(params.get("page"), PER_PAGE, filters),
    context.services.activity.people(),
  ]);
  return {
    page,
    entries,
    filters,
    // The person filtered on stays a choice even if they are no longer an admin.
    people: filters.who && !people.includes(filters.who) ? [filters.who, ...people] : people,
    kinds: ACTIVITY_KINDS.map((k) => ({ value: k.entity, label: k.title })),
    timeZone: context.config.timeZone,
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Activity log" }, { name: "robots", content: "noindex" }];

const VERB = { create: "Added", update: "Changed", delete: "Deleted" } as const;

/** Every admin change, newest first: who, when, which record of which section, each field before → after. */
export default function Activity({
  loaderData: { entries, page, filters, people, kinds, timeZone },
}: Route.ComponentProps) {
  const filtered = Object.keys(filters).length > 0;
  return (
    <>
      <AdminHeader title="Activity log" lead="Every change made in the back office, newest first." />
      <Form
        method="get"
        key={JSON.stringify(filters)}
        className="mb-6 grid grid-cols-2 gap-x-4 gap-y-3 rounded-2xl bg-white p-5 ring-1 ring-linen lg:grid-cols-4"
        data-testid="activity-filters"
      >
        <SelectField
          label="Person"
          name="who"
          options={people.map((p) => ({ value: p, label: p }))}
          placeholder="Anyone"
          defaultValue={filters.who ?? ""}
          className="col-span-2 lg:col-span-1"
        />
        <SelectField
          label="Kind of record"
          name="kind"
          options={kinds}
          placeholder="Any"
          defaultValue={filters.kind ?? ""}
          className="col-span-2 lg:col-span-1"
        />
        <TextField label="From" name="from" type="date" defaultValue={filters.from ?? ""} />
        <TextField label="Until" name="to" type="date" defaultValue={filters.to ?? ""} />
        <div className="col-span-2 flex items-end gap-3 lg:col-span-4">
          <button type="submit" className="btn-dark px-5 py-2.5">
            Filter
          </button>
          {filtered ? (
            <Link to="/activity" className="py-2.5 text-sm font-semibold text-clay hover:underline">
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
      <DataTable
        testId="activity"
        columns={[
          {
            header: "When",
            cell: (e) => <span className="whitespace-nowrap">{dateTime(e.createdAt, timeZone)}</span>,
          },
          { header: "Who", cell: (e) => e.actorEmail },
          {
            header: "What",
            cell: (e) => (
              <>
                <span className="flex flex-wrap items-center gap-2">
                  <Badge tone={activityActions.tone(e.action)}>{VERB[e.action]}</Badge>
                  <span className="font-semibold">{e.kind}</span>
                </span>
                {e.href ? (
                  <Link to={e.href} className="mt-1 block text-clay hover:underline">
                    {e.recordTitle || "Open"}
                  </Link>
                ) : (
                  <span className="mt-1 block text-mist">{e.recordTitle || "(no title)"}</span>
                )}
              </>
            ),
          },
          {
            header: "Changes",
            cell: (e) => (
              <ul className="space-y-1 text-xs">
                {e.changes.map((c) => (
                  <li key={c.field} className="break-words">
                    <span className="font-semibold">{c.label}</span>:{" "}
                    {e.action === "update" ? (
                      <>
                        <del className="text-mist">{c.before.slice(0, 80)}</del> <span aria-label="became">→</span>{" "}
                        <ins className="no-underline">{c.after.slice(0, 80)}</ins>
                      </>
                    ) : (
                      (e.action === "delete" ? c.before : c.after).slice(0, 80)
                    )}
                  </li>
                ))}
              </ul>
            ),
          },
        ]}
        rows={entries}
        rowKey={(e) => e.id}
        empty={filtered ? "No change matches these filters." : "No changes yet."}
        page={page}
      />
    </>
  );
}
