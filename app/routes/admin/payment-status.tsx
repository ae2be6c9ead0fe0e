import { useEffect, useState } from "react";
import { isRouteErrorResponse, useRevalidator } from "react-router";
import type { Route } from "./+types/payment-status";
import { Badge, orderTone, paymentTone } from "../../components/DataTable";
import { useToast } from "../../components/toast";
import { apiFetch } from "../../lib/api";
import { requireAdmin } from "../../lib/guards.server";
import { dateTime, longDate } from "../../../domain/dates";
import { money } from "../../lib/format";
import { AdminHeader } from "./layout";
import { ADMIN_PAYMENT_STATUSES, orderStatuses } from "../../../domain/vocabulary";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const order = await context.services.orders.get(viewer, params.id);
  const events = await context.services.paypal.events(order._id);
  return {
    order,
    events: events.map((e) => ({ id: e.id, at: e.receivedAt.toISOString(), outcome: e.outcome, reason: e.reason })),
    timeZone: context.config.timeZone,
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Order" }, { name: "robots", content: "noindex" }];

/** One order: its details, and the payment status and order status forms (through the REST calls, as spec 2 says). */
export default function PaymentStatus({ loaderData: { order, events, timeZone } }: Route.ComponentProps) {
  const toast = useToast();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<"payment" | "order" | null>(null);

  async function update(kind: "payment" | "order", value: string) {
    setBusy(kind);
    const texts =
      kind === "payment"
        ? {
            ok: "Payment Status Updated Successfully!",
            failed: "Failed to update payment status",
            error: "Error updating payment status",
          }
        : {
            ok: "Order Status Updated Successfully!",
            failed: "Failed to update order status",
            error: "Error updating order status",
          };
    try {
      const res =
        kind === "payment"
          ? await apiFetch(`/api/order/${order._id}`, { method: "PUT", json: { paymentStatus: value } })
          : await apiFetch(`/api/order-status/${order._id}`, { method: "PUT", json: { orderStatus: value } });
      const body = res.data as { acknowledged?: boolean; modifiedCount?: number };
      if (res.ok && (body.acknowledged || (body.modifiedCount ?? 0) > 0)) {
        toast("success", texts.ok);
        if (kind === "payment" && value === "Paid")
          toast("success", "Membership validity has been calculated and set!");
        await revalidator.revalidate();
      } else {
        toast("error", texts.failed);
      }
    } catch {
      toast("error", texts.error);
    } finally {
      setBusy(null);
    }
  }

  const rows: [string, React.ReactNode][] = [
    ["Order #", <span className="font-mono text-xs break-all">{order._id}</span>],
    ["Order Date", order.orderDate],
    ["Customer", `${order.customerName} (${order.customerEmail})`],
    ["Address", `${order.customerAddress}, ${order.customerCountry}`],
    ["Package", `${order.packageName} · $${money(order.packagePrice)} · ${order.packageValidity} days`],
    ["Payment Status", <Badge tone={paymentTone(order.paymentStatus)}>{order.paymentStatus}</Badge>],
    ["Order Status", <Badge tone={orderTone(order.orderStatus)}>{order.orderStatus}</Badge>],
    ["Membership Valid Until", order.membershipValid ? longDate(order.membershipValid, timeZone) : "Not Set"],
  ];
  return (
    <>
      <OrderHeader />
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
        <div className="space-y-6">
          <StatusForm
            label="Payment Status"
            name="paymentStatus"
            options={ADMIN_PAYMENT_STATUSES}
            busy={busy === "payment"}
            disabled={busy !== null}
            onSubmit={(v) => update("payment", v)}
          />
          <StatusForm
            label="Order Status"
            name="orderStatus"
            options={orderStatuses.values}
            busy={busy === "order"}
            disabled={busy !== null}
            onSubmit={(v) => update("order", v)}
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

function StatusForm({
  label,
  name,
  options,
  busy,
  disabled,
  onSubmit,
}: {
  label: string;
  name: string;
  options: readonly string[];
  busy: boolean;
  disabled: boolean;
  onSubmit: (value: string) => void;
}) {
  return (
    <form
      className="rounded-2xl bg-white p-6 ring-1 ring-linen"
      onSubmit={(e) => {
        e.preventDefault();
        const value = new FormData(e.currentTarget).get(name);
        if (typeof value === "string" && value) onSubmit(value);
      }}
    >
      <label htmlFor={`select-${name}`} className="field-label">
        {label}
      </label>
      <select id={`select-${name}`} name={name} required defaultValue="" className="field-input">
        <option value="" disabled>
          Select
        </option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <button type="submit" className="btn-dark mt-4 w-full" disabled={disabled}>
        {busy ? "Updating..." : `Update ${label}`}
      </button>
    </form>
  );
}
