import { Link } from "react-router";
import type { Route } from "./+types/total-orders";
import { Badge, DataTable, orderTone, paymentTone } from "../../components/DataTable";
import { requireAdmin } from "../../lib/guards.server";
import { longDate } from "../../../domain/dates";
import { money } from "../../lib/format";
import { memberBadge, validityMarker } from "../../../domain/membership";
import { AdminHeader } from "./layout";
import { ADMIN_ORDERS_PAGE_SIZE } from "./home";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const { orders, page } = await context.services.orders.list(viewer, {
    page: new URL(request.url).searchParams.get("page"),
    perPage: ADMIN_ORDERS_PAGE_SIZE,
  });
  const now = context.services.now();
  return {
    page,
    timeZone: context.config.timeZone,
    orders: orders.map((o) => {
      const valid = o.membershipValid ? new Date(o.membershipValid) : null;
      return {
        ...o,
        marker: validityMarker(valid, now),
        badge: memberBadge({ paymentStatus: o.paymentStatus, membershipValid: valid }, now),
      };
    }),
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Total Orders" }, { name: "robots", content: "noindex" }];

export default function TotalOrders({ loaderData: { orders, page, timeZone } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader
        title="Total Orders"
        actions={
          <Link to="/admin/export/orders.csv" reloadDocument className="btn-outline px-4 py-2 text-xs">
            Export CSV
          </Link>
        }
      />
      <DataTable
        testId="total-orders"
        columns={[
          { header: "Sl.", cell: (_o, i) => page.offset + i + 1 },
          { header: "Order Date", cell: (o) => o.orderDate },
          {
            header: "Customer",
            cell: (o) => (
              <>
                <span className="block">{o.customerName}</span>
                <span className="text-xs text-mist">{o.customerEmail}</span>
              </>
            ),
          },
          { header: "Package", cell: (o) => `${o.packageName} · $${money(o.packagePrice)}` },
          { header: "Payment", cell: (o) => <Badge tone={paymentTone(o.paymentStatus)}>{o.paymentStatus}</Badge> },
          { header: "Order", cell: (o) => <Badge tone={orderTone(o.orderStatus)}>{o.orderStatus}</Badge> },
          {
            header: "Membership Valid Until",
            cell: (o) => (o.membershipValid ? longDate(o.membershipValid, timeZone) : "Not Set"),
          },
          {
            header: "Validity",
            cell: (o) => (
              <Badge tone={o.marker === "Active" ? "green" : o.marker === "Expired" ? "red" : "grey"}>{o.marker}</Badge>
            ),
          },
          {
            header: "Status",
            cell: (o) => (
              <Badge tone={o.badge === "Active Member" ? "green" : o.badge === "Expired" ? "red" : "grey"}>
                {o.badge}
              </Badge>
            ),
          },
          {
            header: "Action",
            cell: (o) => (
              <Link to={`/admin/payment-status/${o._id}`} className="text-sm font-semibold text-clay hover:underline">
                Update
              </Link>
            ),
          },
        ]}
        rows={orders}
        rowKey={(o) => o._id}
        empty="No orders yet."
        page={page}
      />
    </>
  );
}
