import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/data";
import { dateTime, longDate } from "#domain/dates.ts";
import { moneyIn, useCurrency } from "#app/lib/money.ts";
import type { Currency } from "#domain/currency.ts";
import { requireUser } from "#app/lib/guards.server.ts";

/** "My data": what the site holds about the signed-in person, readable, and the same as one JSON file. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  return { data: await context.services.privacy.exportData(viewer.id), timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "My data" }, { name: "robots", content: "noindex" }];

const DOCUMENTS: Record<string, string> = { terms: "Terms", privacy: "Privacy notice" };
const NEWSLETTER: Record<string, string> = {
  pending: "Signed up, not confirmed yet",
  confirmed: "Subscribed",
  unsubscribed: "Unsubscribed",
};

const SUBSCRIPTION: Record<string, string> = {
  active: "Renews each period",
  cancelled: "Cancelled: no more renewals",
  ended: "Ended",
};

/** How an order was paid, as its owner reads it: a gift says why, a transfer its reference. */
function paidBy(method: string, reference: string | null): string {
  if (method === "Gift") return reference ? `Given by the studio: ${reference}` : "Given by the studio";
  if (method === "Bank transfer")
    return reference ? `Paid by bank transfer, reference ${reference}` : "Paid by bank transfer";
  if (method === "By hand") return "Payment recorded by the studio";
  return `Paid by ${method}`;
}

type MyExport = Route.ComponentProps["loaderData"]["data"];
/** A time in the site's zone, or a dash. */
type When = (v: string | null) => string;

/** One order: what, when, how it was paid, and whose details it carries. */
function OrderItem({ order, when }: { order: MyExport["orders"][number]; when: When }) {
  return (
    <li className="rounded-xl bg-sand/60 p-4">
      <p className="font-semibold text-forest">
        {order.number} · {order.packageName} · {moneyIn(order.amount, order.currency)}
      </p>
      <p className="mt-1 text-sm text-ink/80">
        {order.paymentStatus}, {order.orderStatus}. Placed {when(order.placedAt)}
        {order.paidAt ? `; paid ${when(order.paidAt)}` : ""}
        {order.deliveredAt ? `; delivered ${when(order.deliveredAt)}` : ""}.
      </p>
      {order.paymentMethod || order.invoiceNumber || order.discountCode ? (
        <p className="mt-1 text-sm text-ink/80" data-testid="data-order-payment">
          {[
            order.paymentMethod ? paidBy(order.paymentMethod, order.paymentReference) : null,
            order.invoiceNumber ? `Invoice ${order.invoiceNumber}` : null,
            order.discountCode
              ? `Discount code ${order.discountCode} (−${moneyIn(order.discountAmount, order.currency)})`
              : null,
          ]
            .filter(Boolean)
            .join(" · ")}
        </p>
      ) : null}
      <p className="mt-1 text-sm text-mist">
        {[order.name, order.email, order.address, order.country].filter(Boolean).join(" · ")}
        {order.paypalTransactionId ? ` · PayPal ${order.paypalTransactionId}` : ""}
      </p>
    </li>
  );
}

/** What the orders gave: the membership's days, the subscriptions, the discount codes used. */
function MembershipParts({ data, when, currency }: { data: MyExport; when: When; currency: Currency }) {
  return (
    <>
      <Part
        title="Membership"
        empty={data.membershipWindows.length === 0 ? "No paid and delivered order has given days yet." : undefined}
      >
        <ul className="space-y-1 text-sm">
          {data.membershipWindows.map((w) => (
            <li key={w.orderNumber}>
              {w.orderNumber} ({w.packageName}): {when(w.starts)} to {when(w.ends)}
            </li>
          ))}
        </ul>
      </Part>

      <Part
        title={`Subscriptions (${data.subscriptions.length})`}
        empty={data.subscriptions.length === 0 ? "No subscription." : undefined}
      >
        <ul className="space-y-1 text-sm">
          {data.subscriptions.map((s) => (
            <li key={s.reference}>
              {s.reference} (order {s.orderNumber}): {SUBSCRIPTION[s.status] ?? s.status}
              {s.signedUpAt ? `, signed up ${when(s.signedUpAt)}` : ""}
              {s.cancelledAt ? `, cancelled ${when(s.cancelledAt)}${s.cancelledBy ? ` by ${s.cancelledBy}` : ""}` : ""}
              {s.endedAt ? `, ended ${when(s.endedAt)}` : ""}
            </li>
          ))}
        </ul>
      </Part>

      <Part title="Discount codes you used" empty={data.discountCodes.length === 0 ? "None used." : undefined}>
        <ul className="space-y-1 text-sm">
          {data.discountCodes.map((d) => (
            <li key={d.orderNumber}>
              {d.code} on order {d.orderNumber}: −{moneyIn(d.discount, currency)}, {when(d.usedAt)}
            </li>
          ))}
        </ul>
      </Part>
    </>
  );
}

/** The studio's note, the newsletter sign-ups and the messages sent through the contact form. */
function WhatYouToldUs({ data, when }: { data: MyExport; when: When }) {
  return (
    <>
      <Part title="Our note about you" empty={data.staffNote ? undefined : "We keep no note about you."}>
        <p className="text-sm whitespace-pre-line" data-testid="data-staff-note">
          {data.staffNote?.note}
        </p>
        <p className="mt-1 text-sm text-mist">
          Written by our studio, last changed {when(data.staffNote?.updatedAt ?? null)}.
        </p>
      </Part>

      <Part title="Newsletter" empty={data.newsletter.length === 0 ? "Not signed up." : undefined}>
        <ul className="space-y-1 text-sm">
          {data.newsletter.map((s) => (
            <li key={s.email}>
              {s.email}: {NEWSLETTER[s.state] ?? s.state} (signed up {when(s.subscribedAt)}
              {s.confirmedAt ? `, confirmed ${when(s.confirmedAt)}` : ""}
              {s.unsubscribedAt ? `, unsubscribed ${when(s.unsubscribedAt)}` : ""})
            </li>
          ))}
        </ul>
      </Part>

      <Part
        title={`Messages you sent us (${data.messages.length})`}
        empty={data.messages.length === 0 ? "None sent with this email." : undefined}
      >
        <ul className="space-y-3">
          {data.messages.map((m, i) => (
            <li key={i} className="rounded-xl bg-sand/60 p-4 text-sm">
              <p className="font-semibold text-forest">{m.subject}</p>
              <p className="text-mist">
                {when(m.sentAt)} · {m.name}
                {m.phone ? ` · ${m.phone}` : ""}
              </p>
              <p className="mt-2 whitespace-pre-line">{m.message}</p>
            </li>
          ))}
        </ul>
      </Part>
    </>
  );
}

export default function MyData({ loaderData }: Route.ComponentProps) {
  const currency = useCurrency();
  const { data, timeZone } = loaderData;
  const when = (v: string | null) => (v ? dateTime(v, timeZone) : "—");
  return (
    <div>
      <p className="max-w-2xl text-ink/80">
        As of {dateTime(data.exportedAt, timeZone)}. The file holds the same, in a format other services can read.
      </p>
      <p className="mt-5">
        <a href="/account/data/download" className="btn-dark" download data-testid="download-data">
          Download my data (JSON)
        </a>
      </p>

      <Part title="Profile">
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[12rem_1fr]">
          <Row term="Name">{data.profile.name || "—"}</Row>
          <Row term="Email">
            {data.profile.email} {data.profile.emailVerified ? "(confirmed)" : "(not confirmed yet)"}
          </Row>
          <Row term="Account opened">{longDate(data.profile.createdAt, timeZone)}</Row>
          {data.profile.staffRole ? <Row term="Staff role">{data.profile.staffRole}</Row> : null}
          <Row term="Two-factor sign-in">{data.profile.twoFactorEnabled ? "On" : "Off"}</Row>
        </dl>
      </Part>

      <Part title={`Orders (${data.orders.length})`} empty={data.orders.length === 0 ? "No orders." : undefined}>
        <ul className="space-y-3">
          {data.orders.map((o) => (
            <OrderItem key={o.number} order={o} when={when} />
          ))}
        </ul>
      </Part>

      <MembershipParts data={data} when={when} currency={currency} />

      <WhatYouToldUs data={data} when={when} />

      <Part title="What you accepted" empty={data.consents.length === 0 ? "Nothing recorded." : undefined}>
        <ul className="space-y-1 text-sm">
          {data.consents.map((c, i) => (
            <li key={i}>
              {DOCUMENTS[c.document] ?? c.document}, version of{" "}
              {/^\d{4}-/.test(c.version) ? when(c.version) : c.version}: accepted {when(c.acceptedAt)}
            </li>
          ))}
        </ul>
      </Part>

      <Part title={`Where you are signed in (${data.sessions.length})`}>
        <ul className="space-y-2 text-sm">
          {data.sessions.map((s, i) => (
            <li key={i}>
              <span className="break-all">{s.device || "Unknown device"}</span>
              <span className="text-mist">
                {" "}
                · {s.ipAddress || "unknown address"} · signed in {when(s.signedInAt)} · last seen {when(s.lastSeenAt)}
              </span>
            </li>
          ))}
        </ul>
      </Part>

      <p className="mt-10 text-sm text-mist">
        Want us to forget you?{" "}
        <Link to="/account/delete" className="font-semibold text-clay hover:underline">
          Delete your account
        </Link>
        .
      </p>
    </div>
  );
}

function Part({ title, empty, children }: { title: string; empty?: string; children: ReactNode }) {
  return (
    <section className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-linen">
      <h2 className="text-xl text-forest">{title}</h2>
      <div className="mt-3">{empty ? <p className="text-sm text-mist">{empty}</p> : children}</div>
    </section>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-sm text-mist">{term}</dt>
      <dd className="text-ink">{children}</dd>
    </>
  );
}
