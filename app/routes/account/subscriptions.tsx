import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/subscriptions";
import { Badge } from "../../components/DataTable";
import { requireUser } from "../../lib/guards.server";
import { longDate } from "../../../domain/dates";
import { money } from "../../../domain/format";
import type { SubscriptionStatus } from "../../../domain/subscription";
import { cancelPlace, SUBSCRIPTION_STATUS_WORDS } from "../../../domain/subscription-renewal";

/** "Automatic renewal": the customer's PayPal subscriptions, and where to cancel one (issue 27, part 4). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const subscriptions = await context.services.subscriptions.forUser(viewer.id);
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    subscriptions: subscriptions.map((s) => ({
      id: s.id,
      orderNumber: s.orderNumber,
      packageName: s.packageName,
      firstAmount: s.amount,
      regularAmount: s.regularAmount,
      nextAmount: s.nextAmount,
      periodDays: s.periodDays,
      status: s.status,
      payments: s.payments,
      signedUpAt: iso(s.signedUpAt),
      nextPaymentAt: iso(s.nextPaymentAt),
      cancelledAt: iso(s.cancelledAt),
      endedAt: iso(s.endedAt),
      lastFailedAt: iso(s.lastFailedAt),
    })),
    cancel: cancelPlace(context.services.paypal.mode),
    timeZone: context.config.timeZone,
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Automatic renewal" }, { name: "robots", content: "noindex" }];

type Row = Route.ComponentProps["loaderData"]["subscriptions"][number];

const TONE: Record<SubscriptionStatus, "green" | "grey"> = { active: "green", cancelled: "grey", ended: "grey" };

export default function Subscriptions({ loaderData }: Route.ComponentProps) {
  const { subscriptions, cancel, timeZone } = loaderData;
  if (!subscriptions.length)
    return (
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8" data-testid="no-subscriptions">
        <p className="text-ink/80">
          You have no membership that renews automatically. When you choose Subscribe on a plan&apos;s payment page, it
          shows here, with how to cancel it.
        </p>
        <p className="mt-5">
          <Link to="/pricing" className="btn-outline">
            See the plans
          </Link>
        </p>
      </div>
    );
  return (
    <div className="space-y-6">
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <p className="text-ink/80" data-testid="how-to-cancel">
          {cancel.sentence}
        </p>
        <p className="mt-5">
          <a
            href={cancel.href}
            className="btn-outline"
            {...(cancel.external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
          >
            {cancel.label}
          </a>
        </p>
      </div>
      <ul className="space-y-3" data-testid="subscriptions">
        {subscriptions.map((s) => (
          <SubscriptionItem key={s.id} subscription={s} timeZone={timeZone} />
        ))}
      </ul>
    </div>
  );
}

function SubscriptionItem({ subscription: s, timeZone }: { subscription: Row; timeZone: string }) {
  const date = (v: string | null) => (v ? longDate(v, timeZone) : "—");
  return (
    <li className="rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-6" data-testid="subscription" data-status={s.status}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-serif text-xl text-forest">{s.packageName}</p>
          <p className="text-sm text-ink/80">
            ${money(s.regularAmount)} every {s.periodDays} {s.periodDays === 1 ? "day" : "days"}
            {s.firstAmount !== s.regularAmount ? ` (the first payment $${money(s.firstAmount)})` : ""}
          </p>
        </div>
        <Badge tone={TONE[s.status]}>{SUBSCRIPTION_STATUS_WORDS[s.status]}</Badge>
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
        <Fact term="Started">{date(s.signedUpAt)}</Fact>
        {s.status === "active" ? (
          <Fact term="Next payment">
            {s.nextPaymentAt && s.nextAmount !== null
              ? `${date(s.nextPaymentAt)}, $${money(s.nextAmount)}`
              : "After the first payment arrives"}
          </Fact>
        ) : s.status === "cancelled" ? (
          <Fact term="Cancelled on">{date(s.cancelledAt)}</Fact>
        ) : (
          <Fact term="Ended on">{date(s.endedAt)}</Fact>
        )}
        <Fact term="Payments so far">{s.payments}</Fact>
        <Fact term="First order">{s.orderNumber}</Fact>
      </dl>
      {s.status === "active" && s.lastFailedAt ? (
        <p className="mt-4 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          PayPal could not take a payment on {date(s.lastFailedAt)}. Please check the card or account you pay with on
          PayPal: it tries again in a few days.
        </p>
      ) : null}
      {s.status !== "active" ? (
        <p className="mt-4 text-sm text-mist">Nothing more is taken. The time you have paid for stays yours.</p>
      ) : null}
    </li>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-mist">{term}</dt>
      <dd className="text-ink">{children}</dd>
    </>
  );
}
