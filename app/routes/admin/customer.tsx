import { useEffect } from "react";
import { data, isRouteErrorResponse, Link } from "react-router";
import type { Route } from "./+types/customer";
import { CUSTOMER_STATE_LABELS, customerStateTone, MAX_GIVEN_DAYS } from "#domain/customer-states.ts";
import { bankTransferSchema, grantSchema, noteSchema, resendSchema } from "#domain/customers.ts";
import { dateTime, longDate } from "#domain/dates.ts";
import { money } from "#domain/format.ts";
import { WAITING_TEXTS } from "#domain/membership.ts";
import { paymentsSoFar, SUBSCRIPTION_STATUS_LABELS } from "#domain/subscription.ts";
import { orderStatuses, paymentMethods, paymentStatuses } from "#domain/vocabulary.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge } from "#app/components/Badge.tsx";
import { SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { useToast } from "#app/components/toast.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import type { CustomerRecord } from "#server/services/customers.ts";
import type { SubscriptionView } from "#server/services/subscriptions.ts";
import { can } from "#domain/capabilities.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { CURRENCY_SYMBOL } from "#domain/currency.ts";
import { useCurrency } from "#app/lib/money.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "customers");
  const [customer, subscriptions] = await Promise.all([
    context.services.customers.get(params.id),
    context.services.subscriptions.forUser(params.id),
  ]);
  const zone = context.config.timeZone;
  return {
    customer: shownCustomer(customer, zone),
    subscriptions: subscriptions.map((s) => shownSubscription(s, zone)),
    // A one-time key per form shown: the same post sent twice gives one order (a double click, a reload).
    grantKey: crypto.randomUUID(),
    maxDays: MAX_GIVEN_DAYS,
    // A sale made by hand (issue 35, part 7) makes an order and records its payment: the orders area's.
    canSell: can(viewer.staffRole, "orders"),
  };
}

/*
 * The record as the page shows it: dates in the site's time zone, money, labels and badge tones as text, worked out
 * here (the formats, vocabularies and membership rules stay on the server: the page's scripts need not carry them).
 */
function shownCustomer(c: CustomerRecord, zone: string) {
  const m = c.membership;
  return {
    ...c,
    membership:
      c.state === "erased"
        ? "None: their data was erased; their orders are kept for the accounts"
        : m.state === "active"
          ? `${m.packageName} · until ${longDate(m.expiresAt, zone)} (${m.daysLeft} ${m.daysLeft === 1 ? "day" : "days"} left)`
          : m.state === "waiting"
            ? WAITING_TEXTS.title
            : m.state === "expired"
              ? "Expired"
              : "No membership",
    badge: c.endingSoon
      ? { tone: "amber" as const, label: "Ending soon" }
      : { tone: customerStateTone(c.state), label: CUSTOMER_STATE_LABELS[c.state] },
    totalSpent: money(c.totalSpent),
    joinedAt: longDate(c.joinedAt, zone),
    orders: c.orders.map((o) => ({
      ...o,
      createdAt: longDate(o.createdAt, zone),
      packagePrice: money(o.packagePrice),
      paymentTone: paymentStatuses.tone(o.paymentStatus as never),
      orderTone: orderStatuses.tone(o.orderStatus as never),
      paymentMethod: o.paymentMethod ? paymentMethods.label(o.paymentMethod) : null,
      // Whose mail the Resend button sends again: an unpaid order's confirmation, a paid one's receipt (not a gift's).
      resendable: o.paymentStatus === "UnPaid" || (o.paymentStatus === "Paid" && o.paymentMethod !== "Gift"),
      membershipValid: o.membershipValid ? longDate(o.membershipValid, zone) : null,
    })),
    timeline: c.timeline.map((w) => ({ ...w, starts: longDate(w.starts, zone), ends: longDate(w.ends, zone) })),
    mails: c.mails.map((mail) => ({ ...mail, queuedAt: dateTime(mail.queuedAt, zone) })),
    activity: c.activity.map((e) => ({ ...e, createdAt: dateTime(e.createdAt, zone) })),
    noteUpdatedAt: c.noteUpdatedAt ? dateTime(c.noteUpdatedAt, zone) : null,
  };
}

function shownSubscription(s: SubscriptionView, zone: string) {
  const date = (d: Date | null) => (d ? longDate(d, zone) : null);
  return {
    id: s.id,
    orderId: s.orderId,
    orderNumber: s.orderNumber,
    packageName: s.packageName,
    amount: money(s.amount),
    periodDays: s.periodDays,
    active: s.status === "active",
    /** On the Subscriptions API: cancelled at PayPal from here (decision 070); else only marked cancelled here. */
    atPayPal: s.rail === "api",
    status: SUBSCRIPTION_STATUS_LABELS[s.status],
    payments: s.payments,
    cancelledBy: s.cancelledBy,
    signedUpAt: date(s.signedUpAt),
    cancelledAt: date(s.cancelledAt),
    endedAt: date(s.endedAt),
    lastFailedAt: date(s.lastFailedAt),
    nextPaymentAt: date(s.nextPaymentAt),
  };
}

/** The record's actions (intents grant, bank-transfer, resend, sign-out, note), each audited by its service. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "customers");
  const form = await request.formData();
  const { customers } = context.services;
  const zone = context.config.timeZone;
  switch (form.get("intent")) {
    case "grant":
      return formAction(form, {
        schema: grantSchema,
        run: (value) => customers.grant(params.id, value, viewer, form.get("idempotencyKey")),
        success: (r) =>
          r.membershipEnds
            ? `Membership extended: it now runs until ${longDate(r.membershipEnds, zone)}.`
            : "Membership extended.",
        reset: true,
      });
    case "bank-transfer":
      return formAction(form, {
        schema: bankTransferSchema,
        run: (value) => customers.bankTransfer(params.id, value, viewer),
        success: (r) => [
          `Bank transfer recorded: order ${r.orderNumber} is paid.`,
          ...(r.membershipValid ? [`The membership runs until ${longDate(r.membershipValid, zone)}.`] : []),
        ],
        reset: true,
      });
    case "resend":
      return formAction(form, {
        schema: resendSchema,
        run: (value) => customers.resend(params.id, value, viewer),
        success: (r) => (r.sent ? `Sent again: ${r.what}.` : "This mail was sent again a moment ago."),
      });
    case "sign-out":
      return formAction(form, {
        run: () => customers.signOutEverywhere(params.id, viewer),
        success: (r) =>
          r.sessions
            ? `Signed out on ${r.sessions === 1 ? "1 device" : `${r.sessions} devices`}.`
            : "They were not signed in anywhere.",
      });
    case "note":
      return formAction(form, {
        schema: noteSchema,
        run: (value) => customers.setNote(params.id, value, viewer),
        success: "Note saved.",
      });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `${d.customer.name || d.customer.email} · Customers` : "Customer" },
  { name: "robots", content: "noindex" },
];

type Customer = Route.ComponentProps["loaderData"]["customer"];

export default function CustomerPage({
  loaderData: { customer: c, subscriptions, grantKey, maxDays, canSell },
}: Route.ComponentProps) {
  const unpaid = c.orders.filter((o) => o.paymentStatus === "UnPaid");
  return (
    <>
      <AdminHeader
        title={c.name || c.email || ""}
        lead={c.name ? c.email : null}
        back={{ to: "/customers", label: "Customers" }}
        actions={
          <>
            {canSell && c.state !== "erased" ? (
              <Link to={`/customers/${c.id}/sale`} className="btn-dark px-4 py-2 text-xs" data-testid="new-sale">
                New sale…
              </Link>
            ) : null}
            <Link to={`/customers/${c.id}/delete`} className="btn-outline px-4 py-2 text-xs">
              Delete account…
            </Link>
          </>
        }
      />
      <Summary c={c} />
      <div className="mt-6 grid gap-6 xl:grid-cols-[1fr_24rem]">
        <div className="min-w-0 space-y-6">
          {subscriptions.length ? <Subscriptions subscriptions={subscriptions} /> : null}
          <Orders c={c} />
          <Timeline c={c} />
          <Mails c={c} />
          <Activity c={c} />
        </div>
        <div className="space-y-6">
          {c.state === "erased" ? null : <GrantForm grantKey={grantKey} maxDays={maxDays} />}
          {unpaid.length ? <BankTransferForm orders={unpaid} /> : null}
          <NoteForm note={c.note} updatedAt={c.noteUpdatedAt} />
          <SignOutForm sessions={c.sessions} />
        </div>
      </div>
    </>
  );
}

const card = "rounded-2xl bg-white p-6 ring-1 ring-linen";
const h2 = "font-serif text-lg text-forest";

function Summary({ c }: { c: Customer }) {
  const currency = useCurrency();
  const facts: [string, React.ReactNode][] = [
    [
      "Membership",
      <>
        <Badge tone={c.badge.tone}>{c.badge.label}</Badge> <span data-testid="customer-membership">{c.membership}</span>
      </>,
    ],
    ["Total spent", `${CURRENCY_SYMBOL[currency]}${c.totalSpent}`],
    ["Orders", String(c.orders.length)],
    ["Joined", c.joinedAt],
    ["Email", c.email === null ? "—" : c.emailVerified ? "Confirmed" : "Not confirmed yet"],
    ["Signed in on", c.sessions === 1 ? "1 device" : `${c.sessions} devices`],
  ];
  return (
    <dl className={`${card} grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]`} data-testid="customer-summary">
      {facts.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-mist">{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Their PayPal subscriptions (decision 046), each with a link to mark an active one cancelled. */
function Subscriptions({ subscriptions }: { subscriptions: Route.ComponentProps["loaderData"]["subscriptions"] }) {
  return (
    <section className={card} aria-labelledby="subscriptions-title" data-testid="customer-subscriptions">
      <h2 id="subscriptions-title" className={h2}>
        Subscriptions
      </h2>
      <ul className="mt-3 divide-y divide-linen">
        {subscriptions.map((s) => (
          <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
            <div className="min-w-0">
              <p>
                {s.packageName} · ${s.amount} every {s.periodDays} days{" "}
                <Badge tone={s.active ? "green" : "grey"}>{s.status}</Badge>
              </p>
              <p className="text-xs text-mist">
                Started {s.signedUpAt ?? "—"} with{" "}
                <Link to={`/admin/payment-status/${s.orderId}`} className="font-mono text-forest hover:underline">
                  {s.orderNumber}
                </Link>{" "}
                · {paymentsSoFar(s.payments)}
                {s.nextPaymentAt ? ` · next payment ${s.nextPaymentAt}` : ""}
              </p>
              {s.cancelledAt ? (
                <p className="text-xs text-mist">
                  Cancelled {s.cancelledAt}
                  {s.cancelledBy ? ` by ${s.cancelledBy}` : ""}
                </p>
              ) : s.endedAt ? (
                <p className="text-xs text-mist">Ended {s.endedAt}</p>
              ) : null}
              {s.lastFailedAt && s.active ? (
                <p className="text-xs text-red-800">Last payment failed {s.lastFailedAt}</p>
              ) : null}
            </div>
            {s.active ? (
              <Link
                to={`/subscriptions/${s.id}/cancel`}
                className="text-xs font-semibold text-clay hover:underline"
                aria-label={`${s.atPayPal ? "Cancel at PayPal" : "Mark cancelled"}: the ${s.packageName} subscription`}
              >
                {s.atPayPal ? "Cancel at PayPal" : "Mark cancelled"}
              </Link>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Orders({ c }: { c: Customer }) {
  const currency = useCurrency();
  return (
    <section className={card} aria-labelledby="orders-title" data-testid="customer-orders">
      <h2 id="orders-title" className={h2}>
        Orders
      </h2>
      {c.orders.length === 0 ? (
        <p className="mt-3 text-sm text-mist">No orders yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-linen">
          {c.orders.map((o) => (
            <li key={o.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
              <div className="min-w-0">
                <Link to={`/admin/payment-status/${o.id}`} className="font-mono text-xs font-semibold text-forest">
                  {o.number}
                </Link>{" "}
                <span className="text-mist">· {o.createdAt}</span>
                <p>
                  {o.packageName} · {CURRENCY_SYMBOL[currency]}
                  {o.packagePrice} · {o.packageValidity} days
                </p>
                <p className="mt-1 flex flex-wrap items-center gap-2">
                  <Badge tone={o.paymentTone}>{o.paymentStatus}</Badge>
                  <Badge tone={o.orderTone}>{o.orderStatus}</Badge>
                  {o.paymentMethod ? (
                    <span className="text-xs text-mist">
                      {o.paymentMethod}
                      {o.paymentReference ? ` · ${o.paymentReference}` : ""}
                    </span>
                  ) : null}
                </p>
                {o.membershipValid ? <p className="text-xs text-mist">Membership until {o.membershipValid}</p> : null}
              </div>
              <div className="flex flex-col items-end gap-1.5">
                {o.invoiceNumber ? (
                  <span className="flex gap-3 text-xs font-semibold">
                    <Link to={`/invoice/${o.number}`} className="text-clay hover:underline">
                      Invoice
                    </Link>
                    <a href={`/invoice/${o.number}.pdf`} className="text-clay hover:underline">
                      PDF
                    </a>
                  </span>
                ) : null}
                {o.resendable ? (
                  <ResendButton orderId={o.id} number={o.number} paid={o.paymentStatus === "Paid"} />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ResendButton({ orderId, number, paid }: { orderId: string; number: string; paid: boolean }) {
  const form = useActionForm({ id: `resend:${orderId}` });
  return (
    <ActionForm handle={form} intent="resend" hidden={{ orderId }}>
      <button
        type="submit"
        className="text-xs font-semibold text-clay hover:underline"
        disabled={form.busy}
        aria-label={`${paid ? "Resend receipt" : "Resend confirmation"} of ${number}`}
      >
        {form.busy ? "Sending…" : paid ? "Resend receipt" : "Resend confirmation"}
      </button>
    </ActionForm>
  );
}

function Timeline({ c }: { c: Customer }) {
  return (
    <section className={card} aria-labelledby="timeline-title" data-testid="customer-timeline">
      <h2 id="timeline-title" className={h2}>
        Membership timeline
      </h2>
      {c.timeline.length === 0 ? (
        <p className="mt-3 text-sm text-mist">No paid and delivered order: no membership days yet.</p>
      ) : (
        <ol className="mt-3 space-y-2 text-sm">
          {c.timeline.map((w) => (
            <li key={w.orderId} className="flex flex-wrap gap-x-2">
              <span className="font-mono text-xs text-mist">{w.number}</span>
              <span>
                {w.packageName}, {w.days} days: {w.starts} – {w.ends}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Mails({ c }: { c: Customer }) {
  return (
    <section className={card} aria-labelledby="mails-title" data-testid="customer-mails">
      <h2 id="mails-title" className={h2}>
        Mails sent to them
      </h2>
      {c.mails.length === 0 ? (
        <p className="mt-3 text-sm text-mist">No mail in the log.</p>
      ) : (
        <ul className="mt-3 space-y-2 text-sm">
          {c.mails.map((m) => (
            <li key={m.id}>
              <span className="text-mist">{m.queuedAt}</span> · {m.subject} · <strong>{m.status}</strong>
              {m.error ? <span className="text-red-800"> · {m.error}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Activity({ c }: { c: Customer }) {
  return (
    <section className={card} aria-labelledby="activity-title" data-testid="customer-activity">
      <h2 id="activity-title" className={h2}>
        Activity
      </h2>
      {c.activity.length === 0 ? (
        <p className="mt-3 text-sm text-mist">Nothing logged about them yet.</p>
      ) : (
        <ul className="mt-3 space-y-3 text-sm">
          {c.activity.map((e) => (
            <li key={e.id}>
              <p>
                <span className="text-mist">{e.createdAt}</span> · {e.actorEmail} · {e.action} {e.kind.toLowerCase()}
              </p>
              <ul className="text-xs text-mist">
                {e.changes.map((ch) => (
                  <li key={ch.field}>
                    {ch.label}: {ch.before || "—"} → {ch.after || "—"}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function GrantForm({ grantKey, maxDays }: { grantKey: string; maxDays: number }) {
  const form = useActionForm({ id: "grant" });
  return (
    <ActionForm
      handle={form}
      intent="grant"
      hidden={{ idempotencyKey: grantKey }}
      className={`${card} space-y-4`}
      testId="grant-form"
    >
      <h2 className={h2}>Give or extend membership</h2>
      <p className="text-xs text-mist">
        The days follow their current membership, free of charge, and they get a mail with the new end date.
      </p>
      <TextField label="Days" name="days" type="number" min={1} max={maxDays} inputMode="numeric" required />
      <TextField label="Reason (only the staff see it)" name="reason" maxLength={200} required />
      <button type="submit" className="btn-dark w-full" disabled={form.busy}>
        {form.busy ? "Saving…" : "Give days"}
      </button>
    </ActionForm>
  );
}

function BankTransferForm({ orders }: { orders: Customer["orders"] }) {
  const currency = useCurrency();
  const form = useActionForm({ id: "bank-transfer" });
  return (
    <ActionForm handle={form} intent="bank-transfer" className={`${card} space-y-4`} testId="bank-transfer-form">
      <h2 className={h2}>Record a bank transfer</h2>
      <p className="text-xs text-mist">
        For a payment received outside PayPal: the order is marked paid. For a sale they did not order themselves, use
        New sale.
      </p>
      <SelectField
        label="Order"
        name="orderId"
        options={orders.map((o) => ({
          value: o.id,
          label: `${o.number} · ${o.packageName} · ${CURRENCY_SYMBOL[currency]}${o.packagePrice}`,
        }))}
        placeholder="Choose the order"
        defaultValue={orders.length === 1 ? orders[0]!.id : undefined}
        required
      />
      <TextField label="Transfer reference" name="reference" maxLength={120} required />
      <label className="flex items-start gap-3 text-sm">
        <input type="checkbox" name="activate" defaultChecked className="mt-0.5 h-5 w-5 shrink-0 accent-forest" />
        Start the membership now
      </label>
      <button type="submit" className="btn-dark w-full" disabled={form.busy}>
        {form.busy ? "Saving…" : "Record payment"}
      </button>
    </ActionForm>
  );
}

function NoteForm({ note, updatedAt }: { note: string; updatedAt: string | null }) {
  const form = useActionForm({ id: "note", defaultValue: { note } });
  return (
    <ActionForm handle={form} intent="note" className={`${card} space-y-4`} testId="note-form">
      <h2 className={h2}>Private note</h2>
      <TextAreaField label="Only the staff see this note" name="note" rows={4} />
      {updatedAt ? <p className="text-xs text-mist">Last saved {updatedAt}</p> : null}
      <button type="submit" className="btn-outline w-full" disabled={form.busy}>
        {form.busy ? "Saving…" : "Save note"}
      </button>
    </ActionForm>
  );
}

function SignOutForm({ sessions }: { sessions: number }) {
  const form = useActionForm({ id: "sign-out" });
  return (
    <ActionForm handle={form} intent="sign-out" className={`${card} space-y-3`} testId="sign-out-form">
      <h2 className={h2}>Sign out everywhere</h2>
      <p className="text-xs text-mist">
        Ends their sessions on every device ({sessions} now). Their account pages close at once; the site&apos;s public
        pages may still show them as signed in for up to 5 minutes.
      </p>
      <button type="submit" className="btn-outline w-full" disabled={form.busy}>
        {form.busy ? "Signing out…" : "Sign out everywhere"}
      </button>
    </ActionForm>
  );
}

/** An unknown customer (or a staff member's id): said inside the back office. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const toast = useToast();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!missing) toast("error", "The customer could not be read");
  }, [toast, missing]);
  return (
    <>
      <title>Customer</title>
      <AdminHeader title="Customer" back={{ to: "/customers", label: "Customers" }} />
      <div role="alert" className={card}>
        <p className="font-semibold text-red-800">
          {missing ? "No customer has this address." : "The customer could not be read."}
        </p>
        <p className="mt-1 text-sm text-mist">
          {missing ? "They may have deleted their account." : "Please try again in a moment."}
        </p>
      </div>
    </>
  );
}
