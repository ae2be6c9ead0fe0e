import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/subscriptions";
import { Badge } from "#app/components/DataTable.tsx";
import { requireUser } from "#app/lib/guards.server.ts";
import { AppError } from "#server/lib/errors.ts";
import { longDate } from "#domain/dates.ts";
import { moneyIn, useCurrency } from "#app/lib/money.ts";
import type { SubscriptionStatus } from "#domain/subscription.ts";
import { cancelPlace, SUBSCRIPTION_STATUS_WORDS } from "#domain/subscription-renewal.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { subscriptionIdSchema } from "#domain/subscription.ts";

/**
 * "Automatic renewal": the customer's PayPal subscriptions (issue 27, part 4). One made on PayPal's Subscriptions API
 * is cancelled here (at PayPal, decision 070); one made with the older Subscribe button is cancelled in PayPal, and the
 * page says where.
 */
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
      cancellable: s.rail === "api",
    })),
    cancel: cancelPlace(context.services.paypal.mode),
    timeZone: context.config.timeZone,
  };
}

/** Cancels one of the customer's own subscriptions at PayPal, then here; PayPal down: said, nothing changed. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const { subscribe } = context.services.payments;
  return formAction(await request.formData(), {
    schema: subscriptionIdSchema,
    providerErrors: true,
    run: async ({ subscriptionId }) => {
      if (!subscribe) throw new AppError(503, "Payments are not set up on this site yet. Please contact the studio.");
      return subscribe.cancel(viewer, subscriptionId);
    },
    success: (r) =>
      r.modified
        ? "Your automatic renewal is cancelled. Nothing more will be taken; the time you have paid for stays yours."
        : "This subscription was no longer renewing.",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Automatic renewal" }, { name: "robots", content: "noindex" }];

type Row = Route.ComponentProps["loaderData"]["subscriptions"][number];

const TONE: Record<SubscriptionStatus, "green" | "grey"> = { active: "green", cancelled: "grey", ended: "grey" };

export default function Subscriptions({ loaderData }: Route.ComponentProps) {
  const { subscriptions, cancel, timeZone } = loaderData;
  // PayPal's own page is for subscriptions made with the older Subscribe button only.
  const elsewhere = subscriptions.some((s) => !s.cancellable && s.status === "active");
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
      {elsewhere ? (
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
      ) : null}
      <ul className="space-y-3" data-testid="subscriptions">
        {subscriptions.map((s) => (
          <SubscriptionItem key={s.id} subscription={s} timeZone={timeZone} />
        ))}
      </ul>
    </div>
  );
}

function SubscriptionItem({ subscription: s, timeZone }: { subscription: Row; timeZone: string }) {
  const currency = useCurrency();
  const date = (v: string | null) => (v ? longDate(v, timeZone) : "—");
  const form = useActionForm({ id: `cancel-${s.id}`, feedback: "inline" });
  return (
    <li className="rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-6" data-testid="subscription" data-status={s.status}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-serif text-xl text-forest">{s.packageName}</p>
          <p className="text-sm text-ink/80">
            {moneyIn(s.regularAmount, currency)} every {s.periodDays} {s.periodDays === 1 ? "day" : "days"}
            {s.firstAmount !== s.regularAmount ? ` (the first payment ${moneyIn(s.firstAmount, currency)})` : ""}
          </p>
        </div>
        <Badge tone={TONE[s.status]}>{SUBSCRIPTION_STATUS_WORDS[s.status]}</Badge>
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
        <Fact term="Started">{date(s.signedUpAt)}</Fact>
        {s.status === "active" ? (
          <Fact term="Next payment">
            {s.nextPaymentAt && s.nextAmount !== null
              ? `${date(s.nextPaymentAt)}, ${moneyIn(s.nextAmount, currency)}`
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
      ) : s.cancellable ? (
        <ActionForm handle={form} hidden={{ subscriptionId: s.id }} className="mt-5" testId="cancel-renewal-form">
          <p className="text-sm text-ink/80">
            Cancelling stops the payments at PayPal. The time you have already paid for stays yours.
          </p>
          <button type="submit" className="btn-outline mt-3" disabled={form.busy} data-testid="cancel-renewal">
            {form.busy ? "Cancelling…" : "Cancel automatic renewal"}
          </button>
        </ActionForm>
      ) : (
        <p className="mt-4 text-sm text-mist">
          This subscription was made on PayPal&apos;s older system: cancel it in your PayPal account.
        </p>
      )}
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
