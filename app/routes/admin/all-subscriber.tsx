import { Link } from "react-router";
import type { Route } from "./+types/all-subscriber";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { ViewTabs } from "#app/components/admin/ViewTabs.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { longDate } from "#domain/dates.ts";
import { subscriberStates, type SubscriberState } from "#domain/vocabulary.ts";

export const SUBSCRIBERS_PAGE_SIZE = 5;
const PATH = "/all-subscriber";

/** The view: ?state=confirmed (the subscribers, by default), pending or unsubscribed. */
const stateOf = (value: string | null): SubscriberState => (subscriberStates.includes(value) ? value : "confirmed");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "subscribers");
  const q = new URL(request.url).searchParams;
  const state = stateOf(q.get("state"));
  const [list, counts] = await Promise.all([
    context.services.newsletter.list(state, q.get("page"), SUBSCRIBERS_PAGE_SIZE),
    context.services.newsletter.counts(),
  ]);
  return { ...list, state, counts, timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Subscribers" }, { name: "robots", content: "noindex" }];

const LEADS: Record<SubscriberState, string> = {
  confirmed: "Addresses that confirmed their signup: the newsletter goes to these. Newest first.",
  pending: "Footer signups waiting for the address to confirm (the link works for 7 days). Newest first.",
  unsubscribed: "Addresses that left the newsletter. Newest signup first.",
};
const EMPTY: Record<SubscriberState, string> = {
  confirmed: "No subscribers yet.",
  pending: "No signup is waiting for confirmation.",
  unsubscribed: "Nobody has unsubscribed.",
};

export default function AllSubscribers({
  loaderData: { subscribers, page, state, counts, timeZone },
}: Route.ComponentProps) {
  const date = (iso: string | null) => (iso ? longDate(iso, timeZone) : "—");
  return (
    <>
      <AdminHeader
        title="Subscribers"
        lead={LEADS[state]}
        actions={
          <Link to="/admin/export/subscribers.csv" reloadDocument className="btn-outline px-4 py-2 text-xs">
            Export CSV
          </Link>
        }
      />
      <ViewTabs
        label="Subscriber states"
        tabs={subscriberStates.values.map((s) => ({
          label: subscriberStates.label(s),
          to: s === "confirmed" ? PATH : `${PATH}?state=${s}`,
          active: s === state,
          count: counts[s],
        }))}
      />
      <DataTable
        testId="subscribers"
        columns={[
          { header: "Sl No.", cell: (_s, i) => page.offset + i + 1 },
          { header: "Email", typed: true, cell: (s) => s.subemail },
          {
            header: "State",
            cell: (s) => <Badge tone={subscriberStates.tone(s.state)}>{subscriberStates.label(s.state)}</Badge>,
          },
          { header: "Subscribed", cell: (s) => date(s.subscribedAt) },
          state === "unsubscribed"
            ? { header: "Unsubscribed", cell: (s) => date(s.unsubscribedAt) }
            : { header: "Confirmed", cell: (s) => date(s.confirmedAt) },
        ]}
        rows={subscribers}
        rowKey={(s) => s._id}
        empty={EMPTY[state]}
        page={page}
      />
    </>
  );
}
