import { useEffect } from "react";
import { isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/subscription-cancel";
import { longDate } from "#domain/dates.ts";
import { money } from "#domain/format.ts";
import { SUBSCRIPTION_STATUS_LABELS } from "#domain/subscription.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge } from "#app/components/DataTable.tsx";
import { useToast } from "#app/components/toast.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { DangerButton } from "#app/components/forms.tsx";
import { AppError } from "#server/lib/errors.ts";

/**
 * Cancelling a PayPal subscription when the customer asked by phone or mail (issue 27, part 5): this page is the
 * confirmation. One made on PayPal's Subscriptions API is cancelled at PayPal, then recorded (decision 070); one made
 * with Payments Standard's Subscribe button is only marked cancelled here, and PayPal is told by the customer or the
 * studio on PayPal (decision 046), which the page says in live and sandbox mode.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "customers");
  return {
    subscription: await context.services.subscriptions.get(params.id),
    paypalIsReal: context.services.paypal.mode !== "simulator",
    timeZone: context.config.timeZone,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "customers");
  const { subscribe } = context.services.payments;
  const s = await context.services.subscriptions.get(params.id);
  return formAction(await request.formData(), {
    providerErrors: true,
    run: async () => {
      if (subscribe) return subscribe.cancel(viewer, params.id);
      if (s.rail === "api")
        throw new AppError(503, "Payments are not set up on this site, so PayPal cannot be asked to cancel it.");
      return context.services.subscriptions.markCancelled(params.id, viewer);
    },
    success: (r) => (r.modified ? DONE[s.rail] : "This subscription was no longer active."),
  });
}

/** What the page says once it is done: cancelled at PayPal, or only marked here (Payments Standard). */
const DONE = { api: "Subscription cancelled.", standard: "Subscription marked cancelled." } as const;

export const meta: Route.MetaFunction = () => [
  { title: "Mark a subscription cancelled" },
  { name: "robots", content: "noindex" },
];

export default function SubscriptionCancel({
  loaderData: { subscription: s, paypalIsReal, timeZone },
}: Route.ComponentProps) {
  const form = useActionForm({ id: "cancel-subscription", feedback: "inline" });
  const back = { to: `/customers/${s.userId}`, label: s.customerName.trim() || s.customerEmail };
  const active = s.status === "active";
  const atPayPal = s.rail === "api";
  return (
    <>
      <AdminHeader title={atPayPal ? "Cancel subscription" : "Mark subscription cancelled"} back={back} />
      <article className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8" data-testid="subscription-cancel">
        <SubscriptionFacts s={s} timeZone={timeZone} />
        {active ? (
          <>
            <div className="mt-6 space-y-3 text-sm text-ink/90">
              <p>Do this when the customer asked to stop, by phone or mail.</p>
              <ul className="list-disc space-y-1.5 pl-5">
                <li>They keep the time already paid for.</li>
                {atPayPal ? (
                  <li data-testid="cancel-at-paypal">PayPal is told at once and takes no more payments.</li>
                ) : (
                  <li>No more renewals are applied here: a later payment adds no days.</li>
                )}
              </ul>
            </div>
            {paypalIsReal && !atPayPal ? (
              <p
                className="mt-6 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-amber-200"
                data-testid="tell-paypal"
              >
                <strong>PayPal must be told too:</strong> cancel it in the PayPal account&apos;s automatic payments, or
                PayPal keeps taking payments that we will then have to refund.
              </p>
            ) : null}
            <ActionForm handle={form} className="mt-6" testId="cancel-subscription-form">
              <DangerButton
                busy={form.busy}
                busyLabel={atPayPal ? "Cancelling at PayPal…" : "Saving…"}
                testId="cancel-subscription"
              >
                {atPayPal ? "Cancel at PayPal" : "Mark cancelled"}
              </DangerButton>
            </ActionForm>
          </>
        ) : (
          <p className="mt-6 text-sm" role="status">
            {form.shown?.ok ? `${DONE[s.rail]} ` : ""}
            No renewal will be applied: the customer keeps the time already paid for.
          </p>
        )}
      </article>
    </>
  );
}

type Subscription = Route.ComponentProps["loaderData"]["subscription"];

/** Who, which package, its status, its dates and its payments. */
function SubscriptionFacts({ s, timeZone }: { s: Subscription; timeZone: string }) {
  const active = s.status === "active";
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
      <dt className="text-mist">Customer</dt>
      <dd>
        {s.customerName.trim() ? `${s.customerName} · ` : ""}
        {s.customerEmail}
      </dd>
      <dt className="text-mist">Package</dt>
      <dd>
        {s.packageName} · ${money(s.amount)} every {s.periodDays} days
      </dd>
      <dt className="text-mist">Status</dt>
      <dd>
        <Badge tone={active ? "green" : "grey"}>{SUBSCRIPTION_STATUS_LABELS[s.status]}</Badge>
      </dd>
      <dt className="text-mist">Started</dt>
      <dd>{s.signedUpAt ? longDate(s.signedUpAt, timeZone) : "—"}</dd>
      <dt className="text-mist">Payments so far</dt>
      <dd>{s.payments}</dd>
      {s.nextPaymentAt ? (
        <>
          <dt className="text-mist">Next payment</dt>
          <dd>{longDate(s.nextPaymentAt, timeZone)}</dd>
        </>
      ) : null}
      {s.cancelledAt ? (
        <>
          <dt className="text-mist">Cancelled</dt>
          <dd>
            {longDate(s.cancelledAt, timeZone)}
            {s.cancelledBy ? ` by ${s.cancelledBy}` : ""}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** An unknown subscription: said inside the back office. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const toast = useToast();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!missing) toast("error", "The subscription could not be read");
  }, [toast, missing]);
  return (
    <>
      <title>Subscription</title>
      <AdminHeader title="Mark subscription cancelled" back={{ to: "/customers", label: "Customers" }} />
      <div role="alert" className="rounded-2xl bg-white p-6 ring-1 ring-linen">
        <p className="font-semibold text-red-800">
          {missing ? "No subscription has this address." : "The subscription could not be read."}
        </p>
      </div>
    </>
  );
}
