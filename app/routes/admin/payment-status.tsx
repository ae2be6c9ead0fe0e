import { useEffect, useRef } from "react";
import { data, isRouteErrorResponse, Link, useFetchers } from "react-router";
import type { Route } from "./+types/payment-status";
import { orderStatusSchema, paymentStatusSchema } from "../../../domain/order-form";
import { ActionForm, useActionForm } from "../../components/ActionForm";
import { Badge, orderTone, paymentTone } from "../../components/DataTable";
import { SelectField } from "../../components/forms";
import { useToast } from "../../components/toast";
import { formAction } from "../../lib/form.server";
import { requireStaff } from "../../lib/guards.server";
import { dateTime, longDate } from "../../../domain/dates";
import { money } from "../../../domain/format";
import { memberBadge, memberBadgeTone } from "../../../domain/membership";
import { paymentsSoFar, SUBSCRIPTION_STATUS_LABELS } from "../../../domain/subscription";
import { AdminHeader } from "./layout";
import { ADMIN_PAYMENT_STATUSES, orderStatuses } from "../../../domain/vocabulary";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "orders");
  const order = await context.services.orders.get(viewer, params.id);
  const [events, subscription] = await Promise.all([
    context.services.payments.events(order._id),
    context.services.subscriptions.ofOrder(order._id),
  ]);
  const valid = order.membershipValid ? new Date(order.membershipValid) : null;
  return {
    order,
    badge: memberBadge({ ...order, membershipValid: valid }, context.services.now()),
    events: events.map((e) => ({ id: e.id, at: e.receivedAt.toISOString(), outcome: e.outcome, reason: e.reason })),
    subscription,
    timeZone: context.config.timeZone,
  };
}

/** The payment status and order status forms (intent payment or order), with the spec's texts (spec 2, section 9). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "orders");
  const form = await request.formData();
  const { orders } = context.services;
  if (form.get("intent") === "payment") {
    return formAction(form, {
      schema: paymentStatusSchema,
      run: async (value) => ({
        status: value.paymentStatus,
        ...(await orders.setPaymentStatus(params.id, value, viewer)),
      }),
      // A paid order's days start when it is delivered (domain/membership.ts): the admin is told which happened.
      success: ({ status, membershipValid }) => [
        "Payment Status Updated Successfully!",
        ...(status !== "Paid"
          ? []
          : membershipValid
            ? ["Membership validity has been calculated and set!"]
            : ["The membership starts when the order is set Delivered."]),
      ],
      failure: "Failed to update payment status",
    });
  }
  if (form.get("intent") === "order") {
    return formAction(form, {
      schema: orderStatusSchema,
      run: async (value) => {
        const r = await orders.setOrderStatus(params.id, value, viewer);
        return { started: r.modified && value.orderStatus === "Delivered" && r.membershipValid !== null };
      },
      // Delivering a paid order starts its membership: the admin is told it was calculated (spec 2, section 8).
      success: ({ started }) => [
        "Order Status Updated Successfully!",
        ...(started ? ["Membership validity has been calculated and set!"] : []),
      ],
      failure: "Failed to update order status",
    });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Order" }, { name: "robots", content: "noindex" }];

/** One order: its details, and the payment status and order status forms (posting to this page's action). */
export default function PaymentStatus({
  loaderData: { order, badge, events, subscription: s, timeZone },
}: Route.ComponentProps) {
  // While any of the page's forms is being sent, none of its buttons can be pressed (spec 2, section 2).
  const busy = useFetchers().some((f) => f.state !== "idle");
  const forms = useRef<HTMLDivElement>(null);
  // The order as it was when "Deliver now" succeeded: once it is read again, the banner and its button are gone, and
  // the focus goes to the order status field (which now says Delivered) rather than to the page's start.
  const deliveredFrom = useRef<typeof order | null>(null);
  useEffect(() => {
    if (!deliveredFrom.current || deliveredFrom.current === order) return;
    deliveredFrom.current = null;
    forms.current?.querySelector<HTMLSelectElement>("select[name=orderStatus]")?.focus();
  }, [order]);
  const rows: [string, React.ReactNode][] = [
    ["Order #", <span className="font-mono text-xs break-all">{order.orderNumber}</span>],
    ["Order ID", <span className="font-mono text-xs break-all">{order._id}</span>],
    ["Order Date", order.orderDate],
    ["Customer", order.customerEmail ? `${order.customerName} (${order.customerEmail})` : order.customerName],
    ["Address", `${order.customerAddress}, ${order.customerCountry}`],
    ["Package", `${order.packageName} · $${money(order.packagePrice)} · ${order.packageValidity} days`],
    ["Payment Status", <Badge tone={paymentTone(order.paymentStatus)}>{order.paymentStatus}</Badge>],
    ["Order Status", <Badge tone={orderTone(order.orderStatus)}>{order.orderStatus}</Badge>],
    ["Membership Valid Until", order.membershipValid ? longDate(order.membershipValid, timeZone) : "Not Set"],
    ["Membership", <Badge tone={memberBadgeTone(badge)}>{badge}</Badge>],
  ];
  // Its invoice (decision 038), once money was received for it: the page and the PDF.
  if (order.invoiceNumber)
    rows.push([
      "Invoice",
      <span className="flex flex-wrap gap-x-4 gap-y-1" data-testid="order-invoice">
        <a href={`/invoice/${order.orderNumber}`} className="font-mono text-xs text-clay hover:underline">
          {order.invoiceNumber}
        </a>
        <a href={`/invoice/${order.orderNumber}.pdf`} className="text-xs text-clay hover:underline" download>
          Download PDF<span className="sr-only"> of invoice {order.invoiceNumber}</span>
        </a>
      </span>,
    ]);
  // The PayPal subscription this order started or renewed (decision 046).
  if (s)
    rows.push([
      s.kind === "renewal" ? "Renewal of subscription" : "Subscription",
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="order-subscription">
        <Badge tone={s.status === "active" ? "green" : "grey"}>{SUBSCRIPTION_STATUS_LABELS[s.status]}</Badge>
        <span>
          {paymentsSoFar(s.payments)}
          {s.nextPaymentAt ? ` · next payment ${longDate(s.nextPaymentAt, timeZone)}` : ""}
          {s.cancelledAt ? ` · cancelled ${longDate(s.cancelledAt, timeZone)}` : ""}
          {s.kind === "renewal" ? ` · started with ${s.orderNumber}` : ""}
        </span>
        <Link to={`/customers/${s.userId}`} className="text-xs font-semibold text-clay hover:underline">
          Customer&apos;s subscriptions
        </Link>
      </span>,
    ]);
  return (
    <>
      <OrderHeader />
      {badge === "Awaiting Activation" ? (
        <DeliverNow pageBusy={busy} onDelivered={() => (deliveredFrom.current = order)} />
      ) : null}
      <div className="grid gap-6 xl:grid-cols-[1fr_20rem]">
        <dl
          className="grid gap-x-6 gap-y-3 rounded-2xl bg-white p-6 text-sm ring-1 ring-linen sm:grid-cols-[12rem_1fr]"
          data-testid="order-details"
        >
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-mist">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <div className="space-y-6" ref={forms}>
          <StatusForm
            intent="payment"
            label="Payment Status"
            name="paymentStatus"
            options={ADMIN_PAYMENT_STATUSES}
            pageBusy={busy}
          />
          <StatusForm
            intent="order"
            label="Order Status"
            name="orderStatus"
            options={orderStatuses.values}
            pageBusy={busy}
          />
        </div>
      </div>
      {events.length ? (
        <div className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-linen">
          <h2 className="font-serif text-lg text-forest">PayPal notifications</h2>
          <ul className="mt-3 space-y-1 text-sm">
            {events.map((e) => (
              <li key={e.id}>
                <span className="text-mist">{dateTime(e.at, timeZone)}</span> · <strong>{e.outcome}</strong> ·{" "}
                {e.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

function OrderHeader() {
  return <AdminHeader title="Order details" back={{ to: "/total-orders", label: "Total Orders" }} />;
}

/** An order that cannot be read (unknown id, database failure): the spec's toast, inside the back office. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const toast = useToast();
  useEffect(() => toast("error", "Error fetching order details"), [toast]);
  const missing = isRouteErrorResponse(error) && error.status === 404;
  return (
    <>
      <title>Order</title>
      <OrderHeader />
      <div role="alert" className="rounded-2xl bg-white p-6 text-sm ring-1 ring-linen">
        <p className="font-semibold text-red-800">Error fetching order details</p>
        <p className="mt-1 text-mist">
          {missing ? "No order has this number." : "The order could not be read. Please try again in a moment."}
        </p>
      </div>
    </>
  );
}

/** A paid order waiting for activation: say so, and deliver it in one action (the order status form's intent). */
function DeliverNow({ pageBusy, onDelivered }: { pageBusy: boolean; onDelivered: () => void }) {
  const form = useActionForm({ id: "deliver", onSuccess: onDelivered });
  return (
    <ActionForm
      handle={form}
      intent="order"
      hidden={{ orderStatus: "Delivered" }}
      className="mb-6 flex flex-wrap items-center justify-between gap-4 rounded-2xl bg-amber-50 px-6 py-4 ring-1 ring-amber-200"
      testId="deliver-now"
    >
      <p className="min-w-0 flex-1 basis-64 text-sm text-amber-950">
        <strong>Payment received, waiting for activation.</strong> Deliver this order to start the customer&apos;s
        membership; until then they are told their payment arrived and activation is pending.
      </p>
      <button type="submit" className="btn-dark px-5 py-2 text-xs" disabled={pageBusy || form.busy}>
        {form.busy ? "Delivering…" : "Deliver now"}
      </button>
    </ActionForm>
  );
}

function StatusForm({
  intent,
  label,
  name,
  options,
  pageBusy,
}: {
  intent: "payment" | "order";
  label: string;
  name: string;
  options: readonly string[];
  /** A form of the page is being sent: this one's button waits too; the pressed one says "Updating...". */
  pageBusy: boolean;
}) {
  const form = useActionForm({ id: intent });
  return (
    <ActionForm handle={form} intent={intent} className="rounded-2xl bg-white p-6 ring-1 ring-linen">
      <SelectField label={label} name={name} options={options.map((o) => ({ value: o, label: o }))} required />
      <button type="submit" className="btn-dark mt-4 w-full" disabled={pageBusy || form.busy}>
        {form.busy ? "Updating..." : `Update ${label}`}
      </button>
    </ActionForm>
  );
}
