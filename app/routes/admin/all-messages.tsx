import { Link } from "react-router";
import type { Route } from "./+types/all-messages";
import { Badge, DataTable } from "../../components/DataTable";
import { requireStaff } from "../../lib/guards.server";
import type { MessageRecord } from "../../../server/services/inbox";
import { AdminHeader } from "./layout";
import { messageStatuses } from "../../../domain/vocabulary";

/** 3 per table, Unread and Read paged separately (spec 2, section 9). */
export const MESSAGES_PAGE_SIZE = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "messages");
  const q = new URL(request.url).searchParams;
  const [unread, read] = await Promise.all([
    context.services.inbox.messagesByStatus("UnRead", q.get("unread"), MESSAGES_PAGE_SIZE),
    context.services.inbox.messagesByStatus("Read", q.get("read"), MESSAGES_PAGE_SIZE),
  ]);
  return { unread, read };
}

export const meta: Route.MetaFunction = () => [{ title: "Messages" }, { name: "robots", content: "noindex" }];

const columns = [
  { header: "Name", cell: (m: MessageRecord) => m.name },
  { header: "Phone", cell: (m: MessageRecord) => m.number || "—" },
  { header: "Email", cell: (m: MessageRecord) => m.email },
  { header: "Subject", cell: (m: MessageRecord) => m.subject },
  {
    header: "Status",
    cell: (m: MessageRecord) => <Badge tone={messageStatuses.tone(m.messageStatus)}>{m.messageStatus}</Badge>,
  },
  {
    header: "Action",
    pinned: true,
    cell: (m: MessageRecord) => (
      <Link to={`/view/${m._id}`} className="text-sm font-semibold text-clay hover:underline">
        View Message
      </Link>
    ),
  },
];

export default function AllMessages({ loaderData: { unread, read } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader
        title="Messages"
        actions={
          <Link to="/admin/export/messages.csv" reloadDocument className="btn-outline px-4 py-2 text-xs">
            Export CSV
          </Link>
        }
      />
      <div className="space-y-8">
        <DataTable
          testId="unread-messages"
          caption="Unread messages"
          columns={columns}
          rows={unread.messages}
          rowKey={(m) => m._id}
          empty="No unread messages."
          page={unread.page}
          pageParam="unread"
        />
        <DataTable
          testId="read-messages"
          caption="Read messages"
          columns={columns}
          rows={read.messages}
          rowKey={(m) => m._id}
          empty="No read messages."
          page={read.page}
          pageParam="read"
        />
      </div>
    </>
  );
}
