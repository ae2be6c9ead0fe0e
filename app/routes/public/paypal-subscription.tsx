import { data, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/paypal-subscription";
import { SimulatorButton, SimulatorCard, SimulatorForm, simulatorMeta } from "#app/components/SimulatorCard.tsx";
import { played, refusedOutcome } from "./simulator.server";

/**
 * The buttons of the simulator's subscription page: on approval, what the buyer does on PayPal's page; once active, what
 * PayPal does later (the next period's payment, a failed one, a suspension, the end of the term, a cancellation made in
 * PayPal), each sent as PayPal's signed webhooks.
 */
const choice = z.object({
  subscription_id: z.string().min(1).max(64),
  intent: z.enum(["approve", "cancel", "renew", "fail", "suspend", "expire", "cancel-in-paypal", "resend"], {
    message: "Choose one of the page's buttons.",
  }),
});

const STATUS_WORDS: Record<string, string> = {
  APPROVAL_PENDING: "Waiting for your approval",
  APPROVED: "Approved",
  ACTIVE: "Active",
  SUSPENDED: "Suspended",
  CANCELLED: "Cancelled",
  EXPIRED: "Expired",
};

/**
 * The simulated subscription and the order of ours it pays, for that order's customer (or an administrator) only:
 * with play money too, nobody approves someone else's subscription. Not found outside simulator mode.
 */
async function approvable(context: Route.LoaderArgs["context"], id: string) {
  const { simulator, paypal } = context.services.payments;
  if (!simulator || !paypal) throw data({ message: "Not found" }, { status: 404 });
  const made = await paypal.subscriptions.get(id).catch(() => null);
  if (!made) throw data({ message: "This PayPal subscription does not exist." }, { status: 404 });
  const viewer = await context.viewer();
  const ours = made.custom_id ? await context.services.orders.byId(made.custom_id).catch(() => undefined) : undefined;
  if (!viewer || !ours || !(viewer.id === ours.userId || viewer.isAdmin))
    throw data(
      { message: "Only the customer who placed this order can subscribe with it. Please sign in." },
      { status: 403 },
    );
  return { made, ours, paypal };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("subscription_id") ?? "";
  if (!id) throw data({ message: "This PayPal subscription does not exist." }, { status: 404 });
  const { made, ours, paypal } = await approvable(context, id.slice(0, 64));
  const plan = await paypal.plans.get(made.plan_id).catch(() => null);
  const cycles = (plan?.billing_cycles ?? []).map((c) => ({
    trial: c.tenure_type === "TRIAL",
    price: c.pricing_scheme ? `${c.pricing_scheme.fixed_price.value} ${c.pricing_scheme.fixed_price.currency_code}` : "",
    every: `${c.frequency.interval_count} ${c.frequency.interval_unit.toLowerCase()}${c.frequency.interval_count === 1 ? "" : "s"}`,
  }));
  return {
    id: made.id,
    number: ours.number,
    packageName: ours.packageName,
    status: made.status,
    statusWords: STATUS_WORDS[made.status] ?? made.status,
    cycles,
    payments: made.billing_info?.cycle_executions?.reduce((n, c) => n + c.cycles_completed, 0) ?? 0,
    failed: made.billing_info?.failed_payments_count ?? 0,
    next: made.billing_info?.next_billing_time ?? null,
  };
}

/** Each button calls the simulator's outcome (which sends PayPal's signed webhooks); approval goes back as PayPal does. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = choice.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message, done: null }, { status: 400 });
  const { subscription_id: id, intent } = parsed.data;
  await approvable(context, id);
  const { outcomes } = context.services.payments.simulator!;
  const back = async (address: Promise<string | null>) => {
    const to = await address;
    if (!to) return data({ error: "This PayPal subscription has no return address.", done: null }, { status: 409 });
    throw redirect(context.services.payments.browserAddress(to), 303);
  };
  const later: Record<Exclude<typeof intent, "approve" | "cancel">, [() => Promise<unknown>, string]> = {
    renew: [() => outcomes.renewSubscription(id), "PayPal took the next period's payment."],
    fail: [() => outcomes.failSubscriptionPayment(id), "PayPal could not take the next payment."],
    suspend: [() => outcomes.setSubscriptionStatus(id, "SUSPENDED"), "PayPal suspended the subscription."],
    expire: [() => outcomes.setSubscriptionStatus(id, "EXPIRED"), "The subscription's term ended."],
    "cancel-in-paypal": [
      () => outcomes.setSubscriptionStatus(id, "CANCELLED"),
      "The subscription was cancelled in PayPal.",
    ],
    resend: [() => outcomes.resendLastPayment(id), "PayPal sent the last payment's webhook again."],
  };
  try {
    if (intent === "approve") return await back(outcomes.approveSubscription(id));
    if (intent === "cancel") return await back(outcomes.cancelSubscriptionApproval(id));
    return await played(later[intent]);
  } catch (error) {
    return refusedOutcome(error);
  }
}

export const meta: Route.MetaFunction = () => simulatorMeta("the subscription");

/**
 * A stand-in for PayPal's subscription approval page (PAYPAL_MODE=simulator), clearly labelled: no money moves. Once
 * the subscription runs, the same page plays what PayPal does later.
 */
export default function PayPalSubscriptionSimulator({ loaderData, actionData }: Route.ComponentProps) {
  const { id, number, packageName, status, statusWords, cycles, payments, failed, next } = loaderData;
  const pending = status === "APPROVAL_PENDING";
  const running = status === "ACTIVE" || status === "SUSPENDED";
  const facts = (
    <>
      <div className="flex justify-between gap-4">
        <dt className="text-slate-500">Plan</dt>
        <dd className="text-right">{packageName}</dd>
      </div>
      {cycles.map((c, i) => (
        <div key={i} className="flex justify-between gap-4" data-testid={c.trial ? "trial-cycle" : "regular-cycle"}>
          <dt className="text-slate-500">{c.trial ? "First period" : cycles.length > 1 ? "Then" : "Price"}</dt>
          <dd className="text-right font-semibold">
            ${c.price} every {c.every}
          </dd>
        </div>
      ))}
      <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
        <dt className="text-slate-500">Status</dt>
        <dd data-testid="sim-status">{statusWords}</dd>
      </div>
      {!pending ? (
        <div className="flex justify-between gap-4">
          <dt className="text-slate-500">Payments taken</dt>
          <dd data-testid="sim-payments">
            {payments}
            {failed ? ` (${failed} failed)` : ""}
          </dd>
        </div>
      ) : null}
      {next && running ? (
        <div className="flex justify-between gap-4">
          <dt className="text-slate-500">Next payment</dt>
          <dd>{next.slice(0, 10)}</dd>
        </div>
      ) : null}
    </>
  );
  return (
    <SimulatorCard
      what="subscription"
      number={number}
      facts={facts}
      factsData={{ "data-testid": "sim-api-subscription", "data-status": status }}
      answer={actionData}
    >
      <SimulatorForm name="subscription_id" value={id}>
        {pending ? (
          <>
            <SimulatorButton intent="approve" look="primary">Agree and subscribe</SimulatorButton>
            <SimulatorButton intent="cancel">Cancel and return to the merchant</SimulatorButton>
          </>
        ) : running ? (
          <>
            <p className="text-center text-xs text-slate-500">What PayPal does later:</p>
            {status === "ACTIVE" ? (
              <div className="grid grid-cols-2 gap-2">
                <SimulatorButton intent="renew">Next payment</SimulatorButton>
                <SimulatorButton intent="fail">Payment fails</SimulatorButton>
              </div>
            ) : null}
            {payments > 0 ? (
              <SimulatorButton intent="resend">Send the last payment&apos;s webhook again</SimulatorButton>
            ) : null}
            <div className="grid grid-cols-2 gap-2">
              {status === "ACTIVE" ? <SimulatorButton intent="suspend">Suspend</SimulatorButton> : null}
              <SimulatorButton intent="expire">End of term</SimulatorButton>
              <SimulatorButton intent="cancel-in-paypal">Cancel in PayPal</SimulatorButton>
            </div>
          </>
        ) : (
          <p className="text-center text-sm text-slate-600">
            This subscription is {statusWords.toLowerCase()}: PayPal takes no more payments for it.
          </p>
        )}
      </SimulatorForm>
    </SimulatorCard>
  );
}
