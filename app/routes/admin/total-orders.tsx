import { useEffect, useRef, useState } from "react";
import { data, Form, Link, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/total-orders";
import { filtersHref, isFiltered, type OrderFilters } from "#domain/order-filter-keys.ts";
import { filtersFromSearch } from "#domain/order-filters.ts";
import { SETTINGS, settingsSchema } from "#domain/settings.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge, DataTable, orderTone, paymentTone, type Column } from "#app/components/DataTable.tsx";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { longDate } from "#domain/dates.ts";
import { money } from "#domain/format.ts";
import { memberBadge, memberBadgeTone, validityMarker } from "#domain/membership.ts";
import { paymentsSoFar, SUBSCRIPTION_STATUS_LABELS } from "#domain/subscription.ts";
import { orderStatuses, paymentStatuses } from "#domain/vocabulary.ts";
import type { OrderSubscription } from "#server/services/subscriptions.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import type { AdminLayoutData } from "./layout";
import { ADMIN_ORDERS_PAGE_SIZE } from "./home";

const PATH = "/total-orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "orders");
  const url = new URL(request.url);
  const filters = filtersFromSearch(url.searchParams);
  const [{ orders, page }, settings] = await Promise.all([
    context.services.orders.list(viewer, {
      page: url.searchParams.get("page"),
      perPage: ADMIN_ORDERS_PAGE_SIZE,
      filters,
    }),
    context.services.settings.all(),
  ]);
  const now = context.services.now();
  const zone = context.config.timeZone;
  // Which orders of the page started or renewed a PayPal subscription, and where it stands: three reads for the page.
  const subscribed = await context.services.subscriptions.kindsOf(orders.map((o) => o._id));
  const toDeliver = filters.view === "to-deliver";
  const toDeliverHref = filtersHref(PATH, { view: "to-deliver" });
  return {
    page,
    filters,
    // The views' addresses, and the filter form's Clear (shown when a filter beyond the view's own is set).
    links: {
      toDeliver: toDeliverHref,
      clear:
        isFiltered(filters) && !(toDeliver && !filters.q && !filters.from && !filters.to)
          ? toDeliver
            ? toDeliverHref
            : PATH
          : null,
    },
    settings,
    // The setting's texts come with the page: domain/settings.ts builds schemas, which would bring zod to the browser.
    activation: { label: SETTINGS.autoActivate.label, help: SETTINGS.autoActivate.help },
    // Each order with what its row says, worked out here (the date and money formats and the badges' rules stay on
    // the server: the desk's scripts need not carry them).
    orders: orders.map((o) => {
      const valid = o.membershipValid ? new Date(o.membershipValid) : null;
      const badge = memberBadge(
        { paymentStatus: o.paymentStatus, orderStatus: o.orderStatus, membershipValid: valid },
        now,
      );
      return {
        ...o,
        price: money(o.packagePrice),
        validUntil: valid ? longDate(valid, zone) : null,
        marker: validityMarker(valid, now),
        badge,
        badgeTone: memberBadgeTone(badge),
        subscription: subscriptionOf(subscribed.get(o._id), zone),
      };
    }),
  };
}

/** What a desk row says of the subscription its order started or renewed: kind, status, payments, next payment. */
/** What a subscribed order's row says of its subscription, worked out here like the rest of the row. */
function subscriptionOf(s: OrderSubscription | undefined, zone: string) {
  if (!s) return null;
  const next = s.view.nextPaymentAt ? ` · next payment ${longDate(s.view.nextPaymentAt, zone)}` : "";
  return {
    kind: s.kind,
    facts: `${SUBSCRIPTION_STATUS_LABELS[s.status]} · ${paymentsSoFar(s.view.payments)}${next}`,
  };
}

/** Deliver one paid order (intent deliver), or save the desk's setting (intent settings). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "orders");
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "deliver") {
    const id = String(form.get("id") ?? "");
    return formAction(form, {
      run: () => context.services.orders.setOrderStatus(id, { orderStatus: "Delivered" }, viewer),
      success: "Order Status Updated Successfully!",
      failure: "Failed to update order status",
    });
  }
  if (intent === "settings") {
    return formAction(form, {
      schema: settingsSchema,
      run: (value) => context.services.settings.update(value, viewer),
      success: ({ settings }) =>
        settings.autoActivate
          ? "Memberships now start automatically when PayPal verifies a payment."
          : "Paid orders now wait in “To deliver” until you deliver them.",
    });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Total Orders" }, { name: "robots", content: "noindex" }];

export default function TotalOrders({
  loaderData: { orders, page, filters, links, settings, activation },
}: Route.ComponentProps) {
  const toDeliver = filters.view === "to-deliver";
  const { table, setDelivered } = useFocusAfterDelivery(orders);
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
      <ViewTabs toDeliver={toDeliver} toDeliverHref={links.toDeliver} />
      <FilterForm filters={filters} clearHref={links.clear} />
      <div ref={table}>
        <DataTable
          testId="total-orders"
          compact
          caption={
            toDeliver ? (
              <span>
                To deliver: paid orders waiting for activation, oldest first. Delivering one starts its membership.
              </span>
            ) : undefined
          }
          columns={orderColumns(page.offset, (id, index) => setDelivered({ id, index, orders }))}
          rows={orders}
          rowKey={(o) => o._id}
          empty={
            toDeliver
              ? "Nothing to deliver: every paid order is active."
              : links.clear
                ? "No order matches these filters."
                : "No orders yet."
          }
          page={page}
        />
      </div>
      <ActivationSetting autoActivate={settings.autoActivate} texts={activation} />
    </>
  );
}

type OrderRow = Route.ComponentProps["loaderData"]["orders"][number];

/** The desk's columns; `deliver` is told which order of the page was delivered, and where it was. */
function orderColumns(offset: number, deliver: (id: string, index: number) => void): Column<OrderRow>[] {
  return [
    { header: "Sl.", cell: (_o, i) => offset + i + 1 },
    {
      header: "Order Date",
      cell: (o) => (
        <>
          <span className="block">{o.orderDate}</span>
          <span className="font-mono text-xs whitespace-nowrap text-mist">{o.orderNumber}</span>
        </>
      ),
    },
    {
      header: "Customer",
      typed: true,
      cell: (o) => <CustomerCell order={o} />,
    },
    {
      header: "Package",
      typed: true,
      cell: (o) => <PackageCell order={o} />,
    },
    { header: "Payment", cell: (o) => <Badge tone={paymentTone(o.paymentStatus)}>{o.paymentStatus}</Badge> },
    { header: "Order", cell: (o) => <Badge tone={orderTone(o.orderStatus)}>{o.orderStatus}</Badge> },
    {
      header: "Membership Valid Until",
      cell: (o) => (
        // The date and its Active / Expired / Not Set marker, in one cell (one column fewer to scroll).
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {o.validUntil ? <span className="whitespace-nowrap">{o.validUntil}</span> : null}
          <Badge tone={o.marker === "Active" ? "green" : o.marker === "Expired" ? "red" : "grey"}>{o.marker}</Badge>
        </span>
      ),
    },
    {
      header: "Status",
      cell: (o) => <Badge tone={o.badgeTone}>{o.badge}</Badge>,
    },
    {
      header: "Action",
      cell: (o, i) => (
        // One above the other: the column stays narrow, so every column fits beside the navigation at 1024 px.
        <div className="flex flex-col items-start gap-1.5">
          {o.badge === "Awaiting Activation" ? (
            <DeliverButton id={o._id} name={o.customerName} onDelivered={() => deliver(o._id, i)} />
          ) : null}
          <Link
            to={`/admin/payment-status/${o._id}`}
            className="text-sm font-semibold text-clay hover:underline"
            data-order-update={o._id}
          >
            Update
          </Link>
        </div>
      ),
    },
  ];
}

function CustomerCell({ order: o }: { order: OrderRow }) {
  return (
    <>
      <span className="block">{o.customerName}</span>
      <span className="text-xs text-mist">
        {/* Long addresses break after the @ rather than anywhere. */}
        {o.customerEmail.split("@")[0]}
        {o.customerEmail.includes("@") ? (
          <>
            @<wbr />
            {o.customerEmail.split("@").slice(1).join("@")}
          </>
        ) : null}
      </span>
    </>
  );
}

function PackageCell({ order: o }: { order: OrderRow }) {
  return (
    <>
      <span className="block">{o.packageName}</span>
      <span className="text-xs text-mist">${o.price}</span>
      {o.subscription ? (
        <span className="mt-1 block" data-testid="order-subscription">
          <Badge tone="blue">{o.subscription.kind === "renewal" ? "Renewal" : "Subscription"}</Badge>
        </span>
      ) : null}
      {o.subscription ? (
        <span className="mt-1 block text-xs text-mist" data-testid="order-subscription-facts">
          {o.subscription.facts}
        </span>
      ) : null}
    </>
  );
}

/** All orders, or the paid ones waiting for delivery (with their count, as on the back-office navigation). */
function ViewTabs({ toDeliver, toDeliverHref }: { toDeliver: boolean; toDeliverHref: string }) {
  const layout = useRouteLoaderData<AdminLayoutData>("routes/admin/layout");
  const count = layout?.toDeliver;
  const tab = (active: boolean) =>
    `inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-medium ${active ? "bg-forest text-white" : "bg-white text-ink/80 ring-1 ring-linen hover:text-clay"}`;
  return (
    <nav aria-label="Order views" className="mb-4 flex flex-wrap gap-2">
      <Link to={PATH} className={tab(!toDeliver)} aria-current={!toDeliver ? "page" : undefined}>
        All orders
      </Link>
      <Link to={toDeliverHref} className={tab(toDeliver)} aria-current={toDeliver ? "page" : undefined}>
        To deliver
        {count && count.total > 0 ? (
          <span className="rounded-full bg-clay px-2 py-0.5 text-xs text-white" data-testid="to-deliver-count">
            {count.total}
            {count.capped ? "+" : ""}
          </span>
        ) : null}
      </Link>
    </nav>
  );
}

/** The desk's filters: a GET form, so every view has an address that can be bookmarked. */
function FilterForm({ filters, clearHref }: { filters: OrderFilters; clearHref: string | null }) {
  const toDeliver = filters.view === "to-deliver";
  return (
    <Form
      method="get"
      action={PATH}
      key={JSON.stringify(filters)}
      className="mb-6 grid grid-cols-2 gap-x-4 gap-y-3 rounded-2xl bg-white p-5 ring-1 ring-linen lg:grid-cols-4"
      data-testid="order-filters"
    >
      {toDeliver ? <input type="hidden" name="view" value="to-deliver" /> : null}
      <TextField
        label="Order number, customer name or email"
        name="q"
        type="search"
        defaultValue={filters.q ?? ""}
        placeholder="Also an invoice number: INV-…"
        className="col-span-2"
      />
      <SelectField
        label="Payment status"
        name="payment"
        options={paymentStatuses.options()}
        placeholder="Any"
        defaultValue={toDeliver ? "Paid" : (filters.payment ?? "")}
        disabled={toDeliver}
      />
      <SelectField
        label="Order status"
        name="status"
        options={orderStatuses.options()}
        placeholder="Any"
        defaultValue={toDeliver ? "Pending" : (filters.status ?? "")}
        disabled={toDeliver}
      />
      <TextField label="Ordered from" name="from" type="date" defaultValue={filters.from ?? ""} />
      <TextField label="Ordered until" name="to" type="date" defaultValue={filters.to ?? ""} />
      <div className="col-span-2 flex items-end gap-3">
        <button type="submit" className="btn-dark px-5 py-3">
          Filter
        </button>
        {clearHref ? (
          <Link to={clearHref} className="py-3 text-sm font-semibold text-clay hover:underline">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** An order just delivered from the desk: where it was, and the list it was in. */
interface Delivered {
  id: string;
  index: number;
  orders: unknown;
}

/** Once the list is read again after a delivery, the focus goes where the pressed button was (it is gone). */
function useFocusAfterDelivery(orders: unknown) {
  const table = useRef<HTMLDivElement>(null);
  const [delivered, setDelivered] = useState<Delivered | null>(null);
  useEffect(() => {
    if (!delivered || delivered.orders === orders || !table.current) return;
    setDelivered(null);
    focusAfterDelivery(table.current, delivered);
  }, [orders, delivered]);
  return { table, setDelivered };
}

/**
 * Where the focus goes after Deliver, whose button is gone: the order's Update link when its row stays (all orders);
 * when the row left the list (to deliver), the next order's first action, or the one before; with none left, the table,
 * which then says there is nothing to deliver.
 */
function focusAfterDelivery(table: HTMLElement, { id, index }: Delivered) {
  const row = (el: Element | null | undefined) => el?.closest("tr")?.querySelector<HTMLElement>("button, a");
  const rows = [...table.querySelectorAll("[data-order-update]")];
  const target =
    table.querySelector<HTMLElement>(`[data-order-update="${CSS.escape(id)}"]`) ??
    row(rows[index]) ??
    row(rows[index - 1]) ??
    table.querySelector<HTMLElement>("[data-testid=total-orders]");
  if (!target) return;
  if (!target.matches("a, button")) target.tabIndex = -1;
  target.focus();
}

/** One action that delivers a paid order: its membership starts. */
function DeliverButton({ id, name, onDelivered }: { id: string; name: string; onDelivered: () => void }) {
  const form = useActionForm({ id: `deliver:${id}`, onSuccess: onDelivered });
  return (
    <ActionForm handle={form} intent="deliver" hidden={{ id }} className="inline">
      <button
        type="submit"
        className="btn-primary px-3 py-1.5 text-xs"
        disabled={form.busy}
        aria-label={`Deliver the order of ${name}`}
      >
        {form.busy ? "Delivering…" : "Deliver"}
      </button>
    </ActionForm>
  );
}

/** The admin setting that lets a verified PayPal payment also set Delivered (off by default: the spec's rule). */
function ActivationSetting({
  autoActivate,
  texts: setting,
}: {
  autoActivate: boolean;
  texts: { label: string; help: string };
}) {
  const form = useActionForm({ id: "settings" });
  return (
    <ActionForm
      handle={form}
      intent="settings"
      className="mt-8 flex flex-wrap items-start justify-between gap-4 rounded-2xl bg-white p-6 ring-1 ring-linen"
      testId="activation-setting"
    >
      <div className="min-w-0 flex-1 basis-80">
        <label className="flex items-start gap-3 text-sm font-semibold text-ink">
          <input
            key={String(autoActivate)}
            type="checkbox"
            name="autoActivate"
            defaultChecked={autoActivate}
            className="mt-0.5 h-5 w-5 shrink-0 accent-forest"
          />
          {setting.label}
        </label>
        <p className="mt-2 pl-8 text-xs text-mist">{setting.help}</p>
      </div>
      <button type="submit" className="btn-outline px-5 py-2 text-xs" disabled={form.busy}>
        {form.busy ? "Saving…" : "Save setting"}
      </button>
    </ActionForm>
  );
}
