import { useEffect, useRef } from "react";
import { data, isRouteErrorResponse, Link, useFetchers } from "react-router";
import type { Route } from "./+types/payment-status";
import { orderStatusSchema, paymentStatusSchema } from "#domain/order-form.ts";
import { ActionForm, useActionForm, type ActionFormHandle } from "#app/components/ActionForm.tsx";
import { Badge, orderTone, paymentTone } from "#app/components/DataTable.tsx";
import { SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { useToast } from "#app/components/toast.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { can } from "#domain/capabilities.ts";
import { AppError } from "#server/lib/errors.ts";
import { whenRefused } from "#app/lib/refusal.server.ts";
import { refundFormSchema } from "#server/services/payments/refunds.ts";
import { REFUND_IN_DASHBOARD } from "#domain/refunds.ts";
import { dateTime, longDate } from "#domain/dates.ts";
import { memberBadge, memberBadgeTone } from "#domain/membership.ts";
import { paymentsSoFar, SUBSCRIPTION_STATUS_LABELS } from "#domain/subscription.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { ADMIN_PAYMENT_STATUSES, orderStatuses } from "#domain/vocabulary.ts";
import { CURRENCY_SYMBOL, type Currency } from "#domain/currency.ts";
import { moneyIn } from "#app/lib/money.ts";

/** "$", "£" or "€": the order's currency's symbol before an amount of its refund panel. */
const symbolOf = (currency: Currency) => CURRENCY_SYMBOL[currency];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "orders");
  const order = await context.services.orders.get(viewer, params.id);
  const [events, subscription, refunds, creditNotes] = await Promise.all([
    context.services.payments.events(order._id),
    context.services.subscriptions.ofOrder(order._id),
    context.services.payments.refunds?.panel(order._id) ?? null,
    context.services.creditNotes.ofOrder(order._id),
  ]);
  const valid = order.membershipValid ? new Date(order.membershipValid) : null;
  return {
    order,
    badge: memberBadge({ ...order, membershipValid: valid }, context.services.now()),
    events: events.map((e) => ({ id: e.id, at: e.receivedAt.toISOString(), outcome: e.outcome, reason: e.reason })),
    subscription,
    refunds,
    creditNoteNumbers: creditNotes.map((c) => c.number),
    // Money leaving the business: the payments area (decision 067).
    canRefund: can(viewer.staffRole, "payments"),
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
  if (form.get("intent") === "refund") {
    const staff = await requireStaff(request, context, "payments");
    const refunds = context.services.payments.refunds;
    if (!refunds) throw data({ message: "PayPal is not configured on this site." }, { status: 503 });
    return formAction(form, {
      schema: refundFormSchema,
      // PayPal not answering is a refusal the form shows (try again), not an error of this page.
      run: (value) =>
        whenRefused(
          refunds.refund(params.id, value, { id: staff.id, email: staff.email }),
          502,
          ({ message }): never => {
            throw new AppError(409, message);
          },
        ),
      success: (r) =>
        r.status === "pending"
          ? `PayPal is processing the refund of ${symbolOf(r.currency)}${r.amount}: it shows as pending until PayPal completes it.`
          : r.kind === "whole"
            ? `${symbolOf(r.currency)}${r.amount} was refunded through PayPal: the payment is refunded in full, the order is Refunded and its membership days are removed.`
            : `${symbolOf(r.currency)}${r.amount} was refunded through PayPal. The order stays Paid and keeps its membership days.`,
      reset: true,
    });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Order" }, { name: "robots", content: "noindex" }];

/** One order: its details, and the payment status and order status forms (posting to this page's action). */
export default function PaymentStatus({
  loaderData: { order, badge, events, subscription: s, refunds, creditNoteNumbers, canRefund, timeZone },
}: Route.ComponentProps) {
  // While any of the page's forms is being sent, none of its buttons can be pressed (spec 2, section 2).
  const busy = useFetchers().some((f) => f.state !== "idle");
  const { forms, onDelivered } = useFocusAfterDelivery(order);
  const rows: [string, React.ReactNode][] = [
    ["Order #", <span className="font-mono text-xs break-all">{order.orderNumber}</span>],
    ["Order ID", <span className="font-mono text-xs break-all">{order._id}</span>],
    ["Order Date", order.orderDate],
    ["Customer", order.customerEmail ? `${order.customerName} (${order.customerEmail})` : order.customerName],
    ["Address", `${order.customerAddress}, ${order.customerCountry}`],
    [
      "Package",
      `${order.packageName} · ${moneyIn(order.packagePrice, order.currency)} · ${order.packageValidity} days`,
    ],
    ["Payment Status", <Badge tone={paymentTone(order.paymentStatus)}>{order.paymentStatus}</Badge>],
    ["Order Status", <Badge tone={orderTone(order.orderStatus)}>{order.orderStatus}</Badge>],
    ["Membership Valid Until", order.membershipValid ? longDate(order.membershipValid, timeZone) : "Not Set"],
    ["Membership", <Badge tone={memberBadgeTone(badge)}>{badge}</Badge>],
  ];
  // Its invoice (decision 038), once money was received for it: the page and the PDF.
  if (order.invoiceNumber) rows.push(["Invoice", <InvoiceLinks order={order} />]);
  // Its credit notes (decision 073), one per refund: beside the invoice they correct.
  if (creditNoteNumbers.length) rows.push(["Credit notes", <CreditNoteLinks numbers={creditNoteNumbers} />]);
  // The PayPal subscription this order started or renewed (decision 046).
  if (s)
    rows.push([
      s.kind === "renewal" ? "Renewal of subscription" : "Subscription",
      <OrderSubscription s={s} timeZone={timeZone} />,
    ]);
  return (
    <>
      <OrderHeader />
      {badge === "Awaiting Activation" ? <DeliverNow pageBusy={busy} onDelivered={onDelivered} /> : null}
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
      {refunds && (refunds.state !== "none" || refunds.refunds.length) ? (
        <RefundPanel panel={refunds} canRefund={canRefund} pageBusy={busy} timeZone={timeZone} />
      ) : null}
      {events.length ? <PayPalNotifications events={events} timeZone={timeZone} /> : null}
    </>
  );
}

type Order = Route.ComponentProps["loaderData"]["order"];
type Subscription = NonNullable<Route.ComponentProps["loaderData"]["subscription"]>;
type PayPalEvent = Route.ComponentProps["loaderData"]["events"][number];

/**
 * The order as it was when "Deliver now" succeeded: once it is read again, the banner and its button are gone, and
 * the focus goes to the order status field (which now says Delivered) rather than to the page's start.
 */
function useFocusAfterDelivery(order: Order) {
  const forms = useRef<HTMLDivElement>(null);
  const deliveredFrom = useRef<Order | null>(null);
  useEffect(() => {
    if (!deliveredFrom.current || deliveredFrom.current === order) return;
    deliveredFrom.current = null;
    forms.current?.querySelector<HTMLSelectElement>("select[name=orderStatus]")?.focus();
  }, [order]);
  const onDelivered = () => {
    deliveredFrom.current = order;
  };
  return { forms, onDelivered };
}

/** Its invoice (decision 038): the page and the PDF. */
function InvoiceLinks({ order }: { order: Order }) {
  return (
    <span className="flex flex-wrap gap-x-4 gap-y-1" data-testid="order-invoice">
      <a href={`/invoice/${order.orderNumber}`} className="font-mono text-xs text-clay hover:underline">
        {order.invoiceNumber}
      </a>
      <a href={`/invoice/${order.orderNumber}.pdf`} className="text-xs text-clay hover:underline" download>
        Download PDF<span className="sr-only"> of invoice {order.invoiceNumber}</span>
      </a>
    </span>
  );
}

/** Its credit notes (decision 073), one per refund. */
function CreditNoteLinks({ numbers }: { numbers: string[] }) {
  return (
    <span className="flex flex-col gap-y-1" data-testid="order-credit-notes">
      {numbers.map((number) => (
        <span key={number} className="flex flex-wrap gap-x-4">
          <a href={`/credit-note/${number}`} className="font-mono text-xs text-clay hover:underline">
            {number}
          </a>
          <a href={`/credit-note/${number}.pdf`} className="text-xs text-clay hover:underline" download>
            Download PDF<span className="sr-only"> of credit note {number}</span>
          </a>
        </span>
      ))}
    </span>
  );
}

/** The PayPal subscription this order started or renewed (decision 046). */
function OrderSubscription({ s, timeZone }: { s: Subscription; timeZone: string }) {
  return (
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
      {s.status === "active" ? (
        <Link
          to={`/subscriptions/${s.id}/cancel`}
          className="text-xs font-semibold text-clay hover:underline"
          data-testid="order-subscription-cancel"
        >
          {s.rail === "api" ? "Cancel at PayPal" : "Mark cancelled"}
        </Link>
      ) : null}
    </span>
  );
}

function PayPalNotifications({ events, timeZone }: { events: PayPalEvent[]; timeZone: string }) {
  return (
    <div className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-linen">
      <h2 className="font-serif text-lg text-forest">PayPal notifications</h2>
      <ul className="mt-3 space-y-1 text-sm">
        {events.map((e) => (
          <li key={e.id}>
            <span className="text-mist">{dateTime(e.at, timeZone)}</span> · <strong>{e.outcome}</strong> · {e.reason}
          </li>
        ))}
      </ul>
    </div>
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

type Panel = NonNullable<Route.ComponentProps["loaderData"]["refunds"]>;

/**
 * Refunds through PayPal (issue 34 part 3, decision 067): what went back so far and the form, with PayPal's 180 days
 * and what a part refund does said before the button; a Payments Standard payment is refunded in PayPal's dashboard.
 */
function RefundPanel({
  panel,
  canRefund,
  pageBusy,
  timeZone,
}: {
  panel: Panel;
  canRefund: boolean;
  pageBusy: boolean;
  timeZone: string;
}) {
  const form = useActionForm({ id: "refund" });
  const deadline = panel.deadline ? longDate(panel.deadline, timeZone) : null;
  return (
    <section
      className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-linen"
      aria-labelledby="refund-heading"
      data-testid="refund-panel"
    >
      <h2 id="refund-heading" className="font-serif text-lg text-forest">
        Refund
      </h2>
      {panel.rail === "checkout" ? (
        <p className="mt-1 text-sm text-mist" data-testid="refund-summary">
          Refunded so far: {symbolOf(panel.currency)}
          {panel.refunded}. Left to refund: {symbolOf(panel.currency)}
          {panel.remaining}.
        </p>
      ) : null}
      {panel.refunds.length ? <RefundList panel={panel} timeZone={timeZone} /> : null}
      {panel.state === "dashboard" ? (
        <p className="mt-3 rounded-xl bg-sand/60 px-4 py-3 text-sm" data-testid="refund-in-dashboard">
          {REFUND_IN_DASHBOARD}
        </p>
      ) : panel.state === "refunded" ? (
        <p className="mt-3 text-sm">This payment has been refunded in full.</p>
      ) : panel.state === "not-paid" ? (
        <p className="mt-3 text-sm" data-testid="refund-not-paid">
          This order is not Paid now, so nothing more can be refunded through PayPal from here. To refund through
          PayPal, set its payment status back to Paid first.
        </p>
      ) : panel.state === "too-late" ? (
        <p
          className="mt-3 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-200"
          data-testid="refund-too-late"
        >
          PayPal refunds a payment only within 180 days of it. This payment&apos;s last day was {deadline}, so it can no
          longer be refunded through PayPal: return the money another way (a bank transfer, for example) and set the
          payment status to Refunded to record it.
        </p>
      ) : panel.state === "open" && !canRefund ? (
        <p className="mt-3 text-sm">Only an Admin can refund a payment.</p>
      ) : panel.state === "open" ? (
        <RefundForm panel={panel} form={form} pageBusy={pageBusy} deadline={deadline} />
      ) : null}
    </section>
  );
}

/** What went back so far. */
function RefundList({ panel, timeZone }: { panel: Panel; timeZone: string }) {
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="refund-list">
        <thead className="text-xs text-mist">
          <tr>
            <th className="py-1 pr-4 font-normal">Amount</th>
            <th className="py-1 pr-4 font-normal">When</th>
            <th className="py-1 pr-4 font-normal">By</th>
            <th className="py-1 font-normal">Status</th>
          </tr>
        </thead>
        <tbody>
          {panel.refunds.map((r) => (
            <tr key={r.id} className="border-t border-linen align-top">
              <td className="py-2 pr-4 font-semibold">
                {symbolOf(panel.currency)}
                {r.amount}
                {r.reason ? <span className="block text-xs font-normal text-mist">{r.reason}</span> : null}
              </td>
              <td className="py-2 pr-4">{dateTime(r.at, timeZone)}</td>
              <td className="py-2 pr-4 break-all">{r.by ?? "In PayPal"}</td>
              <td className="py-2">{REFUND_STATUS[r.status]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The refund form, with PayPal's 180 days and what a part refund does said before the button. */
function RefundForm({
  panel,
  form,
  pageBusy,
  deadline,
}: {
  panel: Panel;
  form: ActionFormHandle;
  pageBusy: boolean;
  deadline: string | null;
}) {
  return (
    <ActionForm
      handle={form}
      intent="refund"
      hidden={{ seen: String(panel.seen) }}
      className="mt-4 grid gap-4 md:grid-cols-2"
    >
      <TextField
        label={`Amount in ${panel.currency}`}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={panel.remaining}
      />
      <p id="refund-amount-hint" className="self-end text-xs text-mist md:pb-3">
        Leave it blank to refund everything that is left (${panel.remaining}).
      </p>
      <TextField label="Reason (kept for the studio)" name="reason" maxLength={500} autoComplete="off" />
      <TextAreaField
        label="Note to the customer (sent by PayPal and in our email)"
        name="note"
        maxLength={255}
        className="md:col-span-2"
      />
      <div className="space-y-1 text-sm md:col-span-2" data-testid="refund-terms">
        <p>PayPal refunds a payment only within 180 days of it: this one can be refunded until {deadline}.</p>
        <p>
          A part refund keeps the customer&apos;s membership days. Refunding everything that is left makes the order
          Refunded and removes its days.
        </p>
      </div>
      <div className="md:col-span-2">
        <button type="submit" className="btn-dark" disabled={pageBusy || form.busy}>
          {form.busy ? "Refunding…" : "Refund through PayPal"}
        </button>
      </div>
    </ActionForm>
  );
}

const REFUND_STATUS = { completed: "Completed", pending: "Pending at PayPal", failed: "Failed" } as const;
