import { Link } from "react-router";
import type { Route } from "./+types/newsletters";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { dateTime } from "#domain/dates.ts";
import { AUDIENCE_LABELS, NEWSLETTER_STATE_LABELS, type NewsletterState } from "#domain/newsletters.ts";

const PER_PAGE = 20;

export const STATE_TONES: Record<NewsletterState, "grey" | "blue" | "amber" | "green" | "red"> = {
  draft: "grey",
  scheduled: "blue",
  sending: "amber",
  sent: "green",
  "partly-sent": "red",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "subscribers");
  const page = new URL(request.url).searchParams.get("page");
  const list = await context.services.newsletters.list(page, PER_PAGE);
  return { ...list, timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Newsletters" }, { name: "robots", content: "noindex" }];

/** /newsletters: every newsletter, newest first, with its state and how many it reached. */
export default function Newsletters({ loaderData: { newsletters, page, timeZone } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader
        title="Newsletters"
        lead="Send an article or a message to subscribers, members and customers. Newest first."
        actions={
          <Link to="/newsletters/new" className="btn-primary px-4 py-2 text-xs">
            New newsletter
          </Link>
        }
      />
      <DataTable
        caption="Newsletters"
        testId="newsletters"
        rows={newsletters}
        rowKey={(n) => n._id}
        page={page}
        empty="No newsletter yet."
        columns={[
          {
            header: "Subject",
            typed: true,
            cell: (n) => (
              <Link to={`/newsletters/${n._id}`} className="underline">
                {n.subject}
              </Link>
            ),
          },
          { header: "Audience", cell: (n) => n.audience.map((a) => AUDIENCE_LABELS[a]).join(", ") },
          {
            header: "State",
            cell: (n) => <Badge tone={STATE_TONES[n.state]}>{NEWSLETTER_STATE_LABELS[n.state]}</Badge>,
          },
          { header: "Sent", cell: (n) => String(n.counts.sent) },
          {
            header: "When",
            cell: (n) =>
              n.state === "scheduled" && n.sendAt
                ? dateTime(n.sendAt, timeZone)
                : dateTime(n.finishedAt ?? n.startedAt ?? n.createdAt, timeZone),
          },
        ]}
      />
    </>
  );
}
