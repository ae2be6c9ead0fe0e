import { useEffect } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/pending-order";
import { Badge, paymentTone } from "#app/components/DataTable.tsx";
import { clearFormDraft } from "#app/components/useFormDraft.ts";
import { requireUser } from "#app/lib/guards.server.ts";
import { orderAmount, orderTaxShown, TaxLines } from "#app/components/TaxLines.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const id = new URL(request.url).searchParams.get("order");
  const order = id ? await context.services.orders.get(viewer, id) : (await context.services.orders.unpaid(viewer))[0];
  return { order: order ?? null };
}

export const meta: Route.MetaFunction = () => [{ title: "Your order" }, { name: "robots", content: "noindex" }];

/** Shown after an order is placed: what was ordered, and the way to pay it. */
export default function PendingOrder({ loaderData: { order } }: Route.ComponentProps) {
  // The order was placed: what was typed for it is no longer kept in the tab.
  useEffect(() => clearFormDraft("order"), []);
  return (
    <section className="bg-sand/60">
      <div className="container-page max-w-3xl py-12 sm:py-16">
        {order ? (
          <div className="rounded-3xl bg-white p-8 ring-1 ring-linen sm:p-10">
            <p className="eyebrow">Order placed</p>
            <h1 className="mt-2 text-3xl text-forest">Thank you, {order.customerName}</h1>
            <p className="mt-3 text-sm text-mist">
              Your order for the <strong className="text-ink">{order.packageName}</strong> plan is saved. Pay it now to
              start your membership.
            </p>
            <dl className="mt-8 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
              <dt className="text-mist">Order #</dt>
              <dd className="font-mono text-xs break-all text-ink">{order.orderNumber}</dd>
              <dt className="text-mist">Date</dt>
              <dd>{order.orderDate}</dd>
              {order.discountCode && order.priceBefore !== null ? (
                <>
                  <dt className="text-mist">Price</dt>
                  <dd>{orderAmount(order.priceBefore, order.currency)}</dd>
                  <dt className="text-mist">Discount ({order.discountCode})</dt>
                  <dd data-testid="order-discount">−{orderAmount(order.discountAmount, order.currency)}</dd>
                </>
              ) : null}
              <dt className="text-mist">Amount</dt>
              <dd data-testid="amount">{orderAmount(order.packagePrice, order.currency)}</dd>
              <TaxLines tax={orderTaxShown(order)} />
              <dt className="text-mist">Validity</dt>
              <dd>{order.packageValidity} days</dd>
              <dt className="text-mist">Payment</dt>
              <dd>
                <Badge tone={paymentTone(order.paymentStatus)}>{order.paymentStatus}</Badge>
              </dd>
            </dl>
            <div className="mt-10 flex flex-wrap gap-3">
              {order.paymentStatus === "UnPaid" ? (
                <Link to={`/pay-now/${order._id}`} className="btn-primary">
                  Pay Now
                </Link>
              ) : null}
              <Link to="/my-order" className="btn-outline">
                My Orders
              </Link>
            </div>
          </div>
        ) : (
          <div className="rounded-3xl bg-white p-10 text-center ring-1 ring-linen">
            <h1 className="text-3xl text-forest">No order waiting for payment</h1>
            <p className="mt-3 text-sm text-mist">Choose a plan to place an order.</p>
            <Link to="/pricing" className="btn-primary mt-8">
              See the plans
            </Link>
          </div>
        )}
      </div>
    </section>
  );
}
