import type { Route } from "./+types/activity";
import { DataTable } from "../../components/DataTable";
import { requireAdmin } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { dateTime } from "../../../domain/dates";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { entries, page } = await context.services.activity.list(new URL(request.url).searchParams.get("page"), 20);
  return {
    page,
    entries: entries.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
    timeZone: context.config.timeZone,
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Activity log" }, { name: "robots", content: "noindex" }];

const show = (v: unknown) =>
  v === null || v === undefined || v === "" ? "∅" : typeof v === "string" ? v : JSON.stringify(v);

/** Every admin change, newest first: who, when, which record, the fields before and after. */
export default function Activity({ loaderData: { entries, page, timeZone } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title="Activity log" lead="Every change made in the back office, newest first." />
      <DataTable
        testId="activity"
        columns={[
          { header: "When", cell: (e) => dateTime(e.createdAt, timeZone) },
          { header: "Who", cell: (e) => e.actorEmail },
          {
            header: "What",
            cell: (e) => (
              <>
                <span className="font-semibold">{e.action}</span> {e.entity}
                <span className="block font-mono text-[11px] text-mist">{e.recordId}</span>
              </>
            ),
          },
          {
            header: "Changes",
            cell: (e) => (
              <ul className="space-y-1 text-xs">
                {Object.entries(e.changes).map(([field, c]) => (
                  <li key={field}>
                    <span className="font-semibold">{field}</span>:{" "}
                    <span className="text-mist line-through">{show(c.before).slice(0, 80)}</span> →{" "}
                    {show(c.after).slice(0, 80)}
                  </li>
                ))}
              </ul>
            ),
          },
        ]}
        rows={entries}
        rowKey={(e) => e.id}
        empty="No changes yet."
        page={page}
      />
    </>
  );
}
