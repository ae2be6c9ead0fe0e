import { Form, Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge, DataTable, orderTone, paymentTone } from "#app/components/DataTable.tsx";
import { ItemsGrid } from "#app/components/ItemsGrid.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { attempt, requireUser } from "#app/lib/guards.server.ts";
import { STATIC_PAGE } from "#app/lib/hydration.ts";
import { longDate } from "#domain/dates.ts";
import { money } from "#domain/format.ts";
import { CURRENCY_SYMBOL, type Currency } from "#domain/currency.ts";
import { moneyIn, useCurrency } from "#app/lib/money.ts";
import { GIVEN_TEXTS, WAITING_TEXTS, type RowAction } from "#domain/membership.ts";
import { renewalOf } from "#domain/subscription-renewal.ts";
import { customerOrders } from "./orders.server";

/**
 * Sent as a plain page, like the public ones (decision 057): its links, page links and the one form work as HTML, the
 * form is posted in place by the plain pages' script. Reached from a page React runs, it is drawn by React as before.
 */
export const handle = STATIC_PAGE;

/** Dashboard orders per page (spec 1, section 9). */
export const DASHBOARD_PAGE_SIZE = 3;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const summary = context.services.orders.summary(viewer);
  const [{ membership, totalSpent }, catalogue, orders, subscriptions, displayName] = await Promise.all([
    summary,
    summary.then((s) => context.services.catalogue.list(viewer, s.membership)),
    customerOrders(context, viewer, request, DASHBOARD_PAGE_SIZE),
    viewer.isAdmin ? [] : context.services.subscriptions.forUser(viewer.id),
    // "Welcome back, {display name or email}" (spec 1): the name they gave at checkout when their account has none.
    context.services.customers.displayNameOf(viewer),
  ]);
  // An active membership that a PayPal subscription renews says when, and for how much (issue 27, part 4).
  const renewal = membership.state === "active" ? renewalOf(subscriptions) : null;
  return {
    viewer: {
      displayName,
      email: viewer.email,
      emailVerified: viewer.emailVerified,
      isAdmin: viewer.isAdmin,
    },
    membership:
      membership.state === "active" ? { ...membership, expiresAt: membership.expiresAt.toISOString() } : membership,
    renewal: renewal ? { at: renewal.at.toISOString(), amount: renewal.amount } : null,
    catalogue,
    totalSpent,
    orders,
    timeZone: context.config.timeZone,
  };
}

/** Sends the email-confirmation link again. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  return formAction(await request.formData(), {
    run: () => context.services.accounts.resendVerification(viewer, attempt(request, context)),
    // The same link asked for again within a second is not mailed twice: say so rather than claim a new one.
    success: (mailed) =>
      mailed
        ? `We sent a new link to ${viewer.email}.`
        : `A link went to ${viewer.email} a moment ago, so no new one was sent: please check your inbox and your spam folder.`,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }, { name: "robots", content: "noindex" }];

export function OrderAction({ action, timeZone }: { action: RowAction; timeZone: string }) {
  switch (action.kind) {
    case "pay":
      return (
        <Link to={action.href} className="btn-primary px-4 py-1.5 text-xs">
          Pay Now
        </Link>
      );
    case "expires":
      return <span className="text-sm text-forest">Expires At {longDate(action.date, timeZone)}</span>;
    case "membership-expired":
      return <span className="text-sm text-mist">Membership Expired</span>;
    case "cancelled":
      return <span className="text-sm text-mist">Order Cancelled</span>;
    case "refunded":
      return <span className="text-sm text-mist">Refunded</span>;
    case "paid":
      return <span className="text-sm text-forest">Paid</span>;
    case "waiting":
      return <span className="text-sm text-forest">{WAITING_TEXTS.row}</span>;
  }
}

type DashboardData = Route.ComponentProps["loaderData"];

/** The greeting, with the links to the customer's orders and account and the sign-out button. */
function DashboardHeading({ displayName }: { displayName: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-4">
      <div>
        <p className="eyebrow">Dashboard</p>
        <h1 className="mt-2 text-3xl text-forest sm:text-4xl">Welcome back, {displayName}</h1>
      </div>
      <div className="flex items-center gap-3">
        <Link to="/my-order" className="btn-outline">
          My Orders
        </Link>
        <Link to="/account" className="btn-outline">
          My account
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className="btn-dark">
            Sign Out
          </button>
        </Form>
      </div>
    </div>
  );
}

/** An administrator's banner: every item opens, and the back office is one click away. */
function AdminBanner() {
  return (
    <div
      className="mt-8 flex flex-wrap items-center gap-4 rounded-2xl bg-forest px-6 py-5 text-white"
      data-testid="admin-banner"
    >
      <svg
        className="h-8 w-8 shrink-0 text-brass"
        viewBox="0 0 24 24"
        fill="currentColor"
        aria-label="Crown"
        role="img"
      >
        <path d="M3 7l4.5 4L12 4l4.5 7L21 7l-2 12H5L3 7zm3.7 10h10.6l.9-5.5-2.9 2.5L12 8.3 8.7 14l-2.9-2.5.9 5.5z" />
      </svg>
      <div className="flex-1">
        <p className="font-serif text-xl">Administrator Access</p>
        <p className="text-sm text-white/75">You can open every item and manage the site from the back office.</p>
      </div>
      <Link to="/admin" className="btn-primary">
        Open Admin
      </Link>
    </div>
  );
}

/** Where the customer's membership stands: active (and how it ends or renews), waiting for activation, or none. */
function MembershipBanner({
  membership,
  renewal,
  timeZone,
  currency,
}: Pick<DashboardData, "membership" | "renewal" | "timeZone"> & { currency: Currency }) {
  return (
    <div className="mt-8" data-testid="membership-banner" data-state={membership.state}>
      {membership.state === "active" ? (
        <div className="flex flex-wrap items-center justify-between gap-4 rounded-2xl bg-forest px-6 py-5 text-white">
          <div>
            <p className="text-sm text-white/70">Active membership</p>
            <p className="font-serif text-2xl">{membership.packageName}</p>
          </div>
          <div className="sm:text-right">
            <p className="font-serif text-3xl text-brass">{membership.daysLeft} days left</p>
            <p className="text-sm text-white/75" data-testid="membership-end">
              {renewal
                ? `Renews automatically on ${longDate(renewal.at, timeZone)}, ${moneyIn(renewal.amount, currency)}`
                : `Ends on ${longDate(membership.expiresAt, timeZone)}`}
            </p>
            {renewal ? (
              <Link to="/account/subscriptions" className="text-sm text-white underline underline-offset-2">
                Manage automatic renewal
              </Link>
            ) : null}
          </div>
        </div>
      ) : membership.state === "waiting" ? (
        <div className="flex items-start gap-4 rounded-2xl bg-white px-6 py-5 ring-1 ring-emerald-200 sm:items-center">
          <span
            className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-lg text-emerald-800"
            aria-hidden="true"
          >
            ✓
          </span>
          <div className="min-w-0 flex-1">
            <p className="font-serif text-xl text-forest">{WAITING_TEXTS.title}</p>
            <p className="text-sm text-mist">
              Thank you: your payment for the {membership.packageName} plan has arrived. {WAITING_TEXTS.next}
            </p>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-4 rounded-2xl bg-white px-6 py-5 ring-1 ring-linen">
          <div>
            <p className="font-serif text-xl text-forest">
              {membership.state === "expired" ? "Membership Expired" : "No Active Membership"}
            </p>
            <p className="text-sm text-mist">
              {membership.state === "expired"
                ? "Renew your membership to access Items."
                : "Purchase a membership package to access Items."}
            </p>
          </div>
          <Link to="/pricing" className="btn-primary">
            {membership.state === "expired" ? "Renew" : "See the plans"}
          </Link>
        </div>
      )}
    </div>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { viewer, membership, catalogue, totalSpent, orders, timeZone, renewal } = loaderData;
  const resend = useActionForm({ id: "resend", feedback: "inline" });
  const currency = useCurrency();
  return (
    <section className="bg-sand/60">
      <div className="container-page py-12 sm:py-16">
        <DashboardHeading displayName={viewer.displayName} />

        {viewer.isAdmin ? (
          <AdminBanner />
        ) : (
          <MembershipBanner membership={membership} renewal={renewal} timeZone={timeZone} currency={currency} />
        )}

        {!viewer.emailVerified ? (
          <ActionForm
            handle={resend}
            inPlace
            className="mt-6 flex flex-wrap items-center justify-between gap-4 rounded-2xl bg-white px-6 py-5 ring-1 ring-linen"
          >
            <p className="text-sm text-ink">
              Please confirm your email address: we sent a link to <strong>{viewer.email}</strong>.
            </p>
            <button type="submit" className="text-sm font-semibold text-clay hover:underline" disabled={resend.busy}>
              {resend.busy ? "Sending…" : "Send the link again"}
            </button>
          </ActionForm>
        ) : null}

        <ItemsGrid {...catalogue} manage={viewer.isAdmin} waiting={membership.state === "waiting"} />

        <div className="mt-10">
          <DataTable
            testId="dashboard-orders"
            caption={
              <span data-testid="total-spent">
                My Orders (Total Spent {CURRENCY_SYMBOL[currency]} {money(totalSpent)} {currency})
              </span>
            }
            columns={[
              {
                header: "Order #",
                cell: (o) => <span className="font-mono text-xs whitespace-nowrap">{o.orderNumber}</span>,
              },
              { header: "Date", cell: (o) => o.orderDate },
              { header: "Package", typed: true, cell: (o) => o.packageName },
              { header: "Customer", typed: true, cell: (o) => o.customerName },
              { header: "Order Status", cell: (o) => <Badge tone={orderTone(o.orderStatus)}>{o.orderStatus}</Badge> },
              {
                header: "Payment",
                cell: (o) => (
                  <Badge tone={paymentTone(o.paymentStatus)}>{o.given ? GIVEN_TEXTS.status : o.paymentStatus}</Badge>
                ),
              },
              { header: "Actions", pinned: true, cell: (o) => <OrderAction action={o.action} timeZone={timeZone} /> },
            ]}
            rows={orders.rows}
            rowKey={(o) => o._id}
            empty="You have no orders yet. Choose a plan to get started."
            page={orders.page}
          />
        </div>
      </div>
    </section>
  );
}
