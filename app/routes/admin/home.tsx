import { Link } from "react-router";
import type { Route } from "./+types/home";
import { Badge, DataTable, orderTone, paymentTone, type Column } from "#app/components/DataTable.tsx";
import { SalesChart } from "#app/components/SalesChart.tsx";
import { DASHBOARD_CARDS } from "#app/content/admin-screens.ts";
import { requireStaffHome } from "#app/lib/guards.server.ts";
import { moneyIn, useCurrency } from "#app/lib/money.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

/** Page sizes of spec 2, section 9. */
export const ADMIN_ORDERS_PAGE_SIZE = 10;
export const DASHBOARD_SUBSCRIBERS_PAGE_SIZE = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaffHome(request, context);
  const q = new URL(request.url).searchParams;
  const [{ total: totalSales, months: sales }, orders, subscribers] = await Promise.all([
    context.services.orders.sales(),
    context.services.orders.list(viewer, { page: q.get("page"), perPage: ADMIN_ORDERS_PAGE_SIZE }),
    context.services.newsletter.list("confirmed", q.get("subscribers"), DASHBOARD_SUBSCRIBERS_PAGE_SIZE),
  ]);
  // The cards come with the page: they are read from the content registry, which the dashboard's scripts leave out.
  return { totalSales, orders, subscribers, sales, cards: DASHBOARD_CARDS };
}

export const meta: Route.MetaFunction = () => [{ title: "Admin" }, { name: "robots", content: "noindex" }];

export default function AdminHome({
  loaderData: { totalSales, orders, subscribers, sales, cards },
}: Route.ComponentProps) {
  const currency = useCurrency();
  return (
    <>
      <AdminHeader
        title="Welcome to Admin Panel"
        actions={
          <Link to="/admin/export/orders.csv" reloadDocument className="btn-outline px-4 py-2 text-xs">
            Export orders (CSV)
          </Link>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <div className="rounded-2xl bg-forest p-6 text-white sm:col-span-2 xl:col-span-1">
          <p className="text-sm text-white/70">Paid orders</p>
          <p className="mt-1 font-serif text-3xl text-brass" data-testid="total-sales">
            Total Sales: {moneyIn(totalSales, currency)}
          </p>
        </div>
        {cards.map((c) => (
          <Link
            key={c.to}
            to={c.to}
            className="rounded-2xl bg-white p-6 font-serif text-lg text-forest ring-1 ring-linen transition-shadow hover:shadow-md"
          >
            {c.label} →
          </Link>
        ))}
      </div>

      <div className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-linen">
        <h2 className="font-serif text-xl text-forest">Paid sales, last 12 months</h2>
        <div className="mt-4">
          <SalesChart data={sales} />
        </div>
      </div>

      <div className="mt-8">
        <DataTable
          testId="admin-orders"
          compact
          caption="Orders"
          columns={orderColumns(orders.page.offset)}
          rows={orders.orders}
          rowKey={(o) => o._id}
          empty="No orders yet."
          page={orders.page}
        />
      </div>

      <div className="mt-8">
        <DataTable
          testId="admin-subscribers"
          caption="Subscribers"
          columns={[{ header: "Email", typed: true, cell: (s) => s.subemail }]}
          rows={subscribers.subscribers}
          rowKey={(s) => s._id}
          empty="No subscribers yet."
          page={subscribers.page}
          pageParam="subscribers"
        />
      </div>
    </>
  );
}

type OrderRow = Route.ComponentProps["loaderData"]["orders"]["orders"][number];

/** The latest orders' columns, each with its Update Order link. */
function orderColumns(offset: number): Column<OrderRow>[] {
  return [
    { header: "Sl.", cell: (_o, i) => offset + i + 1 },
    { header: "Order Date", cell: (o) => o.orderDate },
    { header: "Customer Name", typed: true, cell: (o) => o.customerName },
    { header: "Customer Email", typed: true, cell: (o) => o.customerEmail },
    { header: "Price", cell: (o) => moneyIn(o.packagePrice, o.currency) },
    { header: "Order Status", cell: (o) => <Badge tone={orderTone(o.orderStatus)}>{o.orderStatus}</Badge> },
    {
      header: "Payment Status",
      cell: (o) => <Badge tone={paymentTone(o.paymentStatus)}>{o.paymentStatus}</Badge>,
    },
    {
      header: "Action",
      cell: (o) => (
        <Link
          to={`/admin/payment-status/${o._id}`}
          className="text-sm font-semibold whitespace-nowrap text-clay hover:underline"
        >
          Update Order
        </Link>
      ),
    },
  ];
}
