import { data, Form, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/paypal-subscription";

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
    const [run, done] = later[intent];
    await run();
    return { error: null, done };
  } catch (error) {
    if (error instanceof Response) throw error;
    return data({ error: error instanceof Error ? error.message : String(error), done: null }, { status: 409 });
  }
}

export const meta: Route.MetaFunction = () => [
  { title: "PayPal simulator: the subscription" },
  { name: "robots", content: "noindex" },
];

const button = "w-full rounded-full py-3 font-semibold";
const outline = `${button} text-sm text-[#0070ba] ring-1 ring-[#0070ba] hover:bg-sky-50`;

/**
 * A stand-in for PayPal's subscription approval page (PAYPAL_MODE=simulator), clearly labelled: no money moves. Once
 * the subscription runs, the same page plays what PayPal does later.
 */
export default function PayPalSubscriptionSimulator({ loaderData, actionData }: Route.ComponentProps) {
  const { id, number, packageName, status, statusWords, cycles, payments, failed, next } = loaderData;
  const pending = status === "APPROVAL_PENDING";
  const running = status === "ACTIVE" || status === "SUSPENDED";
  return (
    <section className="bg-[#f5f7fa]">
      <div className="container-page flex justify-center py-16">
        <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg ring-1 ring-slate-200">
          <p className="text-center text-2xl font-bold tracking-tight text-[#003087] italic">
            Pay<span className="text-[#009cde]">Pal</span>{" "}
            <span className="text-sm font-medium text-slate-500 not-italic">simulator</span>
          </p>
          <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-center text-xs text-amber-900 ring-1 ring-amber-200">
            Built-in test subscription (PAYPAL_MODE=simulator). No money moves.
          </p>
          <dl className="mt-6 space-y-3 text-sm" data-testid="sim-api-subscription" data-status={status}>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Order #</dt>
              <dd className="font-mono text-xs break-all">{number}</dd>
            </div>
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
          </dl>
          {actionData?.error ? (
            <p className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200" role="alert">
              {actionData.error}
            </p>
          ) : actionData?.done ? (
            <p
              className="mt-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200"
              role="status"
              data-testid="sim-done"
            >
              {actionData.done} Its webhook is on its way to the shop.
            </p>
          ) : null}
          <Form method="post" className="mt-8 space-y-3">
            <input type="hidden" name="subscription_id" value={id} />
            {pending ? (
              <>
                <button
                  type="submit"
                  name="intent"
                  value="approve"
                  className={`${button} bg-[#0070ba] text-white hover:bg-[#005ea6]`}
                >
                  Agree and subscribe
                </button>
                <button type="submit" name="intent" value="cancel" className={outline}>
                  Cancel and return to the merchant
                </button>
              </>
            ) : running ? (
              <>
                <p className="text-center text-xs text-slate-500">What PayPal does later:</p>
                {status === "ACTIVE" ? (
                  <div className="grid grid-cols-2 gap-2">
                    <button type="submit" name="intent" value="renew" className={outline}>
                      Next payment
                    </button>
                    <button type="submit" name="intent" value="fail" className={outline}>
                      Payment fails
                    </button>
                  </div>
                ) : null}
                {payments > 0 ? (
                  <button type="submit" name="intent" value="resend" className={outline}>
                    Send the last payment&apos;s webhook again
                  </button>
                ) : null}
                <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                  {status === "ACTIVE" ? (
                    <button type="submit" name="intent" value="suspend" className={outline}>
                      Suspend
                    </button>
                  ) : null}
                  <button type="submit" name="intent" value="expire" className={outline}>
                    End of term
                  </button>
                  <button type="submit" name="intent" value="cancel-in-paypal" className={outline}>
                    Cancel in PayPal
                  </button>
                </div>
              </>
            ) : (
              <p className="text-center text-sm text-slate-600">
                This subscription is {statusWords.toLowerCase()}: PayPal takes no more payments for it.
              </p>
            )}
          </Form>
        </div>
      </div>
    </section>
  );
}
