import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/my-order";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge, DataTable, orderTone, paymentTone } from "#app/components/DataTable.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireUser } from "#app/lib/guards.server.ts";
import { STATIC_PAGE } from "#app/lib/hydration.ts";
import { conflict } from "#server/lib/errors.ts";
import { whenRefused } from "#app/lib/refusal.server.ts";
import { longDate } from "#domain/dates.ts";
import { moneyIn, useCurrency } from "#app/lib/money.ts";
import { GIVEN_TEXTS, WAITING_TEXTS } from "#domain/membership.ts";
import { customerOrders } from "./orders.server";
import { orderAmount } from "#app/components/TaxLines.tsx";

/**
 * Sent as a plain page (decision 057): the cancel confirmation is a page of its own and its form a plain post, so
 * nothing here needs a script. Reached from a page React runs, it is drawn by React as before.
 */
export const handle = STATIC_PAGE;

/** My Orders per page (spec 1, section 9). */
export const MY_ORDERS_PAGE_SIZE = 5;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  // ?cancel={id}: the confirmation asked before an unpaid order is cancelled (a page of its own, so that it works
  // without JavaScript); an order the viewer may not see (orders.get: the owner's, or any for an admin) is not shown.
  const cancelId = new URL(request.url).searchParams.get("cancel");
  const [orders, unpaid, totalSpent, toCancel] = await Promise.all([
    customerOrders(context, viewer, request, MY_ORDERS_PAGE_SIZE),
    context.services.orders.unpaid(viewer),
    context.services.orders.totalSpent(viewer.id),
    cancelId ? whenRefused(context.services.orders.get(viewer, cancelId), 404, () => null) : null,
  ]);
  const cancel = toCancel
    ? {
        id: toCancel._id,
        orderNumber: toCancel.orderNumber,
        packageName: toCancel.packageName,
        packagePrice: toCancel.packagePrice,
        currency: toCancel.currency,
        paymentStatus: toCancel.paymentStatus,
      }
    : null;
  return { orders, unpaid, totalSpent, cancel, timeZone: context.config.timeZone };
}

const cancelSchema = z.object({ orderId: z.string().max(100) });

/** Cancels one of the customer's unpaid orders, through the orders module (the same rule as PayPal's cancel page). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  return formAction(await request.formData(), {
    schema: cancelSchema,
    run: async ({ orderId }) => {
      const { modified } = await context.services.orders.cancel(viewer, orderId);
      if (!modified) throw conflict("This order can no longer be cancelled.");
    },
    success: "Your order is cancelled.",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "My Orders" }, { name: "robots", content: "noindex" }];

/** What cancelling an order is called on every button and link (with the order's number for screen readers). */
const CANCEL_LABEL = "Cancel order";

function CancelLink({ id, orderNumber }: { id: string; orderNumber: string }) {
  return (
    <Link to={`/my-order?cancel=${id}`} className="text-xs font-semibold text-clay underline-offset-4 hover:underline">
      {CANCEL_LABEL}
      <span className="sr-only"> {orderNumber}</span>
    </Link>
  );
}

type CancelTarget = NonNullable<Route.ComponentProps["loaderData"]["cancel"]>;

/**
 * The confirmation asked before an unpaid order is cancelled: what it is, what cancelling means, and the two ways out.
 * Once cancelled (or when it no longer can be), it says so instead. It takes the focus when it opens.
 */
function CancelPanel({ order }: { order: CancelTarget }) {
  const form = useActionForm({ id: "cancel-order", feedback: "inline" });
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), [order.id]);
  const unpaid = order.paymentStatus === "UnPaid";
  return (
    <div
      ref={panel}
      tabIndex={-1}
      // The server's HTML takes the focus by itself (a plain page); drawn by React, the effect above gives it. The
      // person asked for this confirmation with the link they followed: the focus belongs on it.
      // eslint-disable-next-line jsx-a11y/no-autofocus
      autoFocus
      data-testid="cancel-order"
      data-state={unpaid ? "confirm" : order.paymentStatus === "Cancelled" ? "cancelled" : "closed"}
      className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-amber-200 focus:outline-none"
    >
      {unpaid ? (
        <>
          <h2 className="font-serif text-xl text-forest">Cancel this order?</h2>
          <p className="mt-2 text-sm text-ink">
            <span className="font-mono text-xs break-all">{order.orderNumber}</span> · {order.packageName} ·{" "}
            {orderAmount(order.packagePrice, order.currency)}
          </p>
          <p className="mt-2 text-sm text-mist">
            Nothing has been paid for it. A cancelled order cannot be paid; you can place a new one at any time.
          </p>
          <ActionForm handle={form} hidden={{ orderId: order.id }} className="mt-5 flex flex-wrap items-center gap-3">
            <button type="submit" className="btn-dark" disabled={form.busy}>
              {form.busy ? "Cancelling…" : "Yes, cancel the order"}
            </button>
            <Link to="/my-order" className="btn-outline">
              Keep the order
            </Link>
          </ActionForm>
        </>
      ) : (
        <div role="status">
          <p className="font-serif text-xl text-forest">
            {order.paymentStatus === "Cancelled"
              ? `Order ${order.orderNumber} is cancelled.`
              : `Order ${order.orderNumber} can no longer be cancelled.`}
          </p>
          <Link to="/my-order" className="mt-3 inline-block text-sm font-semibold text-clay hover:underline">
            Back to My Orders
          </Link>
        </div>
      )}
    </div>
  );
}

type OrderRow = Route.ComponentProps["loaderData"]["orders"]["rows"][number];

/** The customer's unpaid orders, each with its pay and cancel links. */
function PendingOrders({ unpaid }: Pick<Route.ComponentProps["loaderData"], "unpaid">) {
  return (
    <div className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-amber-200" data-testid="pending-orders">
      <h2 className="font-serif text-xl text-forest">Your Pending Orders</h2>
      <ul className="mt-4 divide-y divide-linen">
        {unpaid.map((o) => (
          <li key={o._id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
            <span>
              <span className="font-mono text-xs">{o.orderNumber}</span> · {o.packageName} ·{" "}
              {moneyIn(o.packagePrice, o.currency)} · {o.orderDate}
            </span>
            <span className="flex items-center gap-4">
              <CancelLink id={o._id} orderNumber={o.orderNumber} />
              <Link to={`/pay-now/${o._id}`} className="btn-primary px-4 py-1.5 text-xs">
                Pay Now
              </Link>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Once money was received for the order (decision 038): its invoice, to read, print or save. */
function InvoiceLinks({ order }: { order: OrderRow }) {
  return order.invoiceNumber ? (
    <span className="flex flex-col gap-0.5 text-xs whitespace-nowrap">
      <Link to={`/invoice/${order.orderNumber}`} className="font-semibold text-clay hover:underline">
        View invoice<span className="sr-only"> {order.invoiceNumber}</span>
      </Link>
      <a href={`/invoice/${order.orderNumber}.pdf`} className="text-clay hover:underline" download>
        PDF<span className="sr-only"> of invoice {order.invoiceNumber}</span>
      </a>
    </span>
  ) : (
    <span className="text-xs text-mist">
      <span aria-hidden="true">—</span>
      <span className="sr-only">No invoice</span>
    </span>
  );
}

/** What the customer can do with an order, or where it stands. */
function OrderAction({ order, timeZone }: { order: OrderRow; timeZone: string }) {
  return order.paymentStatus === "UnPaid" ? (
    <span className="flex items-center gap-3 whitespace-nowrap">
      <Link to={`/pay-now/${order._id}`} className="btn-primary px-4 py-1.5 text-xs">
        Pay Now
      </Link>
      <CancelLink id={order._id} orderNumber={order.orderNumber} />
    </span>
  ) : order.paymentStatus === "Paid" ? (
    <span className="text-sm text-forest">
      {order.given ? GIVEN_TEXTS.action : "You Have Paid"}
      {order.action.kind === "waiting" ? (
        <span className="block text-xs text-mist" data-testid="waiting-activation">
          {WAITING_TEXTS.short}
        </span>
      ) : order.action.kind === "expires" ? (
        <span className="block text-xs text-mist">
          {order.packageValidity} days, until {longDate(order.action.date, timeZone)}
        </span>
      ) : order.action.kind === "membership-expired" ? (
        <span className="block text-xs text-mist">Membership Expired</span>
      ) : null}
    </span>
  ) : order.paymentStatus === "Cancelled" ? (
    <span className="text-sm text-mist">You Have Cancelled</span>
  ) : (
    <span className="text-sm text-mist">Refunded</span>
  );
}

export default function MyOrders({
  loaderData: { orders, unpaid, totalSpent, cancel, timeZone },
}: Route.ComponentProps) {
  const currency = useCurrency();
  const card = "rounded-2xl bg-white p-6 ring-1 ring-linen transition-shadow hover:shadow-md";
  return (
    <section className="bg-sand/60">
      <div className="container-page py-12 sm:py-16">
        <p className="eyebrow">Account</p>
        <h1 className="mt-2 text-3xl text-forest sm:text-4xl">My Orders</h1>

        {cancel ? <CancelPanel key={cancel.id} order={cancel} /> : null}

        <div className="mt-8 grid gap-4 sm:grid-cols-3">
          <Link to="/my-order" className={card}>
            <p className="text-sm text-mist">My Orders</p>
            <p className="mt-1 font-serif text-3xl text-forest">{orders.page.total}</p>
          </Link>
          <Link to="/" className={card} data-testid="total-spent-card">
            <p className="text-sm text-mist">Total Spent</p>
            <p className="mt-1 font-serif text-3xl text-forest">{moneyIn(totalSpent, currency)}</p>
          </Link>
          <Link to="/contact" className={card}>
            <p className="text-sm text-mist">Support</p>
            <p className="mt-1 font-serif text-xl text-forest">Contact the studio →</p>
          </Link>
        </div>

        {unpaid.length ? <PendingOrders unpaid={unpaid} /> : null}

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
              { header: "Package", typed: true, cell: (o) => o.packageName },
              {
                header: "Amount",
                cell: (o) =>
                  o.given ? (
                    <span className="text-xs text-mist">
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">{GIVEN_TEXTS.amount}</span>
                    </span>
                  ) : (
                    <span className="whitespace-nowrap">{moneyIn(o.packagePrice, o.currency)}</span>
                  ),
              },
              { header: "Your Name", typed: true, cell: (o) => o.customerName },
              { header: "Order Status", cell: (o) => <Badge tone={orderTone(o.orderStatus)}>{o.orderStatus}</Badge> },
              {
                header: "Payment Status",
                cell: (o) => (
                  <Badge tone={paymentTone(o.paymentStatus)}>{o.given ? GIVEN_TEXTS.status : o.paymentStatus}</Badge>
                ),
              },
              {
                header: "Invoice",
                cell: (o) => <InvoiceLinks order={o} />,
              },
              {
                header: "Action",
                pinned: true,
                cell: (o) => <OrderAction order={o} timeZone={timeZone} />,
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
