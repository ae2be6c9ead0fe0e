import { Link } from "react-router";
import type { Route } from "./+types/all-subscriber";
import { DataTable } from "../../components/DataTable";
import { requireAdmin } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { longDate } from "../../../domain/dates";

export const SUBSCRIBERS_PAGE_SIZE = 5;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const list = await context.services.inbox.subscribers(
    new URL(request.url).searchParams.get("page"),
    SUBSCRIBERS_PAGE_SIZE,
  );
  return { ...list, timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Subscribers" }, { name: "robots", content: "noindex" }];

export default function AllSubscribers({ loaderData: { subscribers, page, timeZone } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader
        title="Subscribers"
        lead="Newest first."
        actions={
          <Link to="/admin/export/subscribers.csv" reloadDocument className="btn-outline px-4 py-2 text-xs">
            Export CSV
          </Link>
        }
      />
      <DataTable
        testId="subscribers"
        columns={[
          { header: "Sl No.", cell: (_s, i) => page.offset + i + 1 },
          { header: "Email", cell: (s) => s.subemail },
          { header: "Subscribed", cell: (s) => longDate(s.createdAt, timeZone) },
        ]}
        rows={subscribers}
        rowKey={(s) => s._id}
        empty="No subscribers yet."
        page={page}
      />
    </>
  );
}
