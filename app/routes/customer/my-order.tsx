import { Link } from "react-router";
import type { Route } from "./+types/my-order";
import { Badge, DataTable, orderTone, paymentTone } from "../../components/DataTable";
import { requireUser } from "../../lib/guards.server";
import { longDate } from "../../../domain/dates";
import { money } from "../../../domain/format";
import { WAITING_TEXTS } from "../../../domain/membership";
import { customerOrders } from "./orders.server";

/** My Orders per page (spec 1, section 9). */
export const MY_ORDERS_PAGE_SIZE = 5;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [orders, unpaid, totalSpent] = await Promise.all([
    customerOrders(context, viewer, request, MY_ORDERS_PAGE_SIZE),
    context.services.orders.unpaid(viewer),
    context.services.orders.totalSpent(viewer.id),
  ]);
  return { orders, unpaid, totalSpent, timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "My Orders" }, { name: "robots", content: "noindex" }];

export default function MyOrders({ loaderData: { orders, unpaid, totalSpent, timeZone } }: Route.ComponentProps) {
  const card = "rounded-2xl bg-white p-6 ring-1 ring-linen transition-shadow hover:shadow-md";
  return (
    <section className="bg-sand/60">
      <div className="container-page py-12 sm:py-16">
        <p className="eyebrow">Account</p>
        <h1 className="mt-2 text-3xl text-forest sm:text-4xl">My Orders</h1>

        <div className="mt-8 grid gap-4 sm:grid-cols-3">
          <Link to="/my-order" className={card}>
            <p className="text-sm text-mist">My Orders</p>
            <p className="mt-1 font-serif text-3xl text-forest">{orders.page.total}</p>
          </Link>
          <Link to="/" className={card} data-testid="total-spent-card">
            <p className="text-sm text-mist">Total Spent</p>
            <p className="mt-1 font-serif text-3xl text-forest">${money(totalSpent)}</p>
          </Link>
          <Link to="/contact" className={card}>
            <p className="text-sm text-mist">Support</p>
            <p className="mt-1 font-serif text-xl text-forest">Contact the studio →</p>
          </Link>
        </div>

        {unpaid.length ? (
          <div className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-amber-200" data-testid="pending-orders">
            <h2 className="font-serif text-xl text-forest">Your Pending Orders</h2>
            <ul className="mt-4 divide-y divide-linen">
              {unpaid.map((o) => (
                <li key={o._id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                  <span>
                    <span className="font-mono text-xs">{o.orderNumber}</span> · {o.packageName} · $
                    {money(o.packagePrice)} · {o.orderDate}
                  </span>
                  <Link to={`/pay-now/${o._id}`} className="btn-primary px-4 py-1.5 text-xs">
                    Pay Now
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <div className="mt-8">
          <DataTable
            testId="my-orders"
            columns={[
              { header: "Sl No.", cell: (_o, i) => orders.page.offset + i + 1 },
              {
                header: "Order #",
                cell: (o) => <span className="font-mono text-xs whitespace-nowrap">{o.orderNumber}</span>,
              },
              { header: "Order Date", cell: (o) => o.orderDate },
              { header: "Your Name", cell: (o) => o.customerName },
              { header: "Order Status", cell: (o) => <Badge tone={orderTone(o.orderStatus)}>{o.orderStatus}</Badge> },
              {
                header: "Payment Status",
                cell: (o) => <Badge tone={paymentTone(o.paymentStatus)}>{o.paymentStatus}</Badge>,
              },
              {
                header: "Invoice",
                // Once money was received for the order (decision 038): its invoice, to read, print or save.
                cell: (o) =>
                  o.invoiceNumber ? (
                    <span className="flex flex-col gap-0.5 text-xs whitespace-nowrap">
                      <Link to={`/invoice/${o.orderNumber}`} className="font-semibold text-clay hover:underline">
                        View invoice<span className="sr-only"> {o.invoiceNumber}</span>
                      </Link>
                      <a href={`/invoice/${o.orderNumber}.pdf`} className="text-clay hover:underline" download>
                        PDF<span className="sr-only"> of invoice {o.invoiceNumber}</span>
                      </a>
                    </span>
                  ) : (
                    <span className="text-xs text-mist">
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">No invoice</span>
                    </span>
                  ),
              },
              {
                header: "Action",
                pinned: true,
                cell: (o) =>
                  o.paymentStatus === "UnPaid" ? (
                    <Link to={`/pay-now/${o._id}`} className="btn-primary px-4 py-1.5 text-xs">
                      Pay Now
                    </Link>
                  ) : o.paymentStatus === "Paid" ? (
                    <span className="text-sm text-forest">
                      You Have Paid
                      {o.action.kind === "waiting" ? (
                        <span className="block text-xs text-mist" data-testid="waiting-activation">
                          {WAITING_TEXTS.short}
                        </span>
                      ) : o.action.kind === "expires" ? (
                        <span className="block text-xs text-mist">
                          {o.packageValidity} days, until {longDate(o.action.date, timeZone)}
                        </span>
                      ) : o.action.kind === "membership-expired" ? (
                        <span className="block text-xs text-mist">Membership Expired</span>
                      ) : null}
                    </span>
                  ) : o.paymentStatus === "Cancelled" ? (
                    <span className="text-sm text-mist">You Have Cancelled</span>
                  ) : (
                    <span className="text-sm text-mist">Refunded</span>
                  ),
              },
            ]}
            rows={orders.rows}
            rowKey={(o) => o._id}
            empty="You have no orders yet."
            page={orders.page}
          />
        </div>
      </div>
    </section>
  );
}
