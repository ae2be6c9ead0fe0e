import { data, Link } from "react-router";
import type { Route } from "./+types/all-messages";
import { RowAnswer } from "#app/components/ActionForm.tsx";
import { ARCHIVE_FORM_PREFIX, ArchiveButton } from "#app/components/admin/ArchiveButton.tsx";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { ViewTabs } from "#app/components/admin/ViewTabs.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import type { MessageRecord } from "#server/services/inbox.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { messageStatuses } from "#domain/vocabulary.ts";

/** 3 per table, Unread and Read paged separately (spec 2, section 9). */
export const MESSAGES_PAGE_SIZE = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "messages");
  const q = new URL(request.url).searchParams;
  const { inbox } = context.services;
  // The "Archived" filter (decision 039): archived messages only; the inbox's two tables hold the others.
  if (q.get("view") === "archived") {
    return { view: "archived" as const, archived: await inbox.archivedMessages(q.get("page"), MESSAGES_PAGE_SIZE) };
  }
  const [unread, read] = await Promise.all([
    inbox.messagesByStatus("UnRead", q.get("unread"), MESSAGES_PAGE_SIZE),
    inbox.messagesByStatus("Read", q.get("read"), MESSAGES_PAGE_SIZE),
  ]);
  return { view: "inbox" as const, unread, read };
}

/** Archive a message, or bring it back to the inbox. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "messages");
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent !== "archive" && intent !== "unarchive") throw data({ message: "Unknown form" }, { status: 400 });
  return formAction(form, {
    run: () =>
      context.services.inbox.setArchived(String(form.get("id") ?? ""), { archived: intent === "archive" }, viewer),
    success: intent === "archive" ? "Message archived" : "Message moved back to the inbox",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Messages" }, { name: "robots", content: "noindex" }];

const columns = [
  { header: "Name", typed: true, cell: (m: MessageRecord) => m.name },
  { header: "Phone", cell: (m: MessageRecord) => m.number || "—" },
  { header: "Email", typed: true, cell: (m: MessageRecord) => m.email },
  { header: "Subject", typed: true, cell: (m: MessageRecord) => m.subject },
  {
    header: "Status",
    cell: (m: MessageRecord) => <Badge tone={messageStatuses.tone(m.messageStatus)}>{m.messageStatus}</Badge>,
  },
  {
    header: "Action",
    pinned: true,
    cell: (m: MessageRecord) => (
      <span className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <Link to={`/view/${m._id}`} className="text-sm font-semibold text-clay hover:underline">
          View Message
        </Link>
        <ArchiveButton message={m} />
      </span>
    ),
  },
];

export default function AllMessages({ loaderData }: Route.ComponentProps) {
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
      <ViewTabs
        label="Messages"
        tabs={[
          { label: "Inbox", to: "/all-messages", active: loaderData.view === "inbox" },
          { label: "Archived", to: "/all-messages?view=archived", active: loaderData.view === "archived" },
        ]}
      />
      <RowAnswer prefix={ARCHIVE_FORM_PREFIX} />
      {loaderData.view === "archived" ? (
        <DataTable
          testId="archived-messages"
          caption="Archived messages"
          columns={columns}
          rows={loaderData.archived.messages}
          rowKey={(m) => m._id}
          empty="No archived messages."
          page={loaderData.archived.page}
        />
      ) : (
        <div className="space-y-8">
          <DataTable
            testId="unread-messages"
            caption="Unread messages"
            columns={columns}
            rows={loaderData.unread.messages}
            rowKey={(m) => m._id}
            empty="No unread messages."
            page={loaderData.unread.page}
            pageParam="unread"
          />
          <DataTable
            testId="read-messages"
            caption="Read messages"
            columns={columns}
            rows={loaderData.read.messages}
            rowKey={(m) => m._id}
            empty="No read messages."
            page={loaderData.read.page}
            pageParam="read"
          />
        </div>
      )}
    </>
  );
}
