import { data, Form, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/paypal-checkout";
import { money } from "../../../domain/format";

/** The buttons of the simulator's approval page: what the buyer does on PayPal's page. */
const choice = z.object({
  token: z.string().min(1).max(64),
  intent: z.enum(["paypal", "card", "pending", "denied", "cancel"], { message: "Choose one of the page's buttons." }),
});

/**
 * The simulated PayPal order behind `token` and the order of ours it pays, for its customer (or an administrator)
 * only: with play money too, nobody approves someone else's order. Not found outside simulator mode.
 */
async function approvable(context: Route.LoaderArgs["context"], token: string) {
  const { simulator, paypal } = context.services.payments;
  if (!simulator || !paypal) throw data({ message: "Not found" }, { status: 404 });
  const made = await paypal.orders.get(token).catch(() => null);
  const unit = made?.purchase_units?.[0];
  if (!made || !unit) throw data({ message: "This PayPal order does not exist." }, { status: 404 });
  const viewer = await context.viewer();
  const ours = unit.custom_id ? await context.services.orders.byId(unit.custom_id).catch(() => undefined) : undefined;
  if (!viewer || !ours || !(viewer.id === ours.userId || viewer.isAdmin))
    throw data({ message: "Only the customer who placed this order can pay it. Please sign in." }, { status: 403 });
  return { made, unit };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) throw data({ message: "This PayPal order does not exist." }, { status: 404 });
  const { made, unit } = await approvable(context, token);
  return {
    token,
    number: unit.invoice_id ?? "",
    amount: unit.amount ? `${money(Number(unit.amount.value))} ${unit.amount.currency_code}` : "",
    open: made.status === "CREATED" || made.status === "PAYER_ACTION_REQUIRED",
  };
}

/** Each button calls the simulator's outcome (which sends PayPal's signed webhooks) and goes back as PayPal does. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = choice.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
  const { token, intent } = parsed.data;
  await approvable(context, token);
  const { outcomes } = context.services.payments.simulator!;
  try {
    const back =
      intent === "cancel"
        ? await outcomes.cancelOrder(token)
        : await outcomes.approveOrder(token, {
            payer: intent === "card" ? "card" : "paypal",
            result: intent === "pending" ? "pending" : intent === "denied" ? "denied" : "completed",
          });
    if (!back) return data({ error: "This PayPal order has no return address." }, { status: 409 });
    throw redirect(context.services.payments.browserAddress(back), 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    return data({ error: error instanceof Error ? error.message : String(error) }, { status: 409 });
  }
}

export const meta: Route.MetaFunction = () => [
  { title: "PayPal simulator: approve the payment" },
  { name: "robots", content: "noindex" },
];

const button = "w-full rounded-full py-3 font-semibold";
const outline = `${button} text-sm text-[#0070ba] ring-1 ring-[#0070ba] hover:bg-sky-50`;

/** A stand-in for PayPal's approval page (PAYPAL_MODE=simulator), clearly labelled: no money moves. */
export default function PayPalCheckoutSimulator({ loaderData, actionData }: Route.ComponentProps) {
  const { token, number, amount, open } = loaderData;
  return (
    <section className="bg-[#f5f7fa]">
      <div className="container-page flex justify-center py-16">
        <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg ring-1 ring-slate-200">
          <p className="text-center text-2xl font-bold tracking-tight text-[#003087] italic">
            Pay<span className="text-[#009cde]">Pal</span>{" "}
            <span className="text-sm font-medium text-slate-500 not-italic">simulator</span>
          </p>
          <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-center text-xs text-amber-900 ring-1 ring-amber-200">
            Built-in test checkout (PAYPAL_MODE=simulator). No money moves.
          </p>
          <dl className="mt-6 space-y-3 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Order #</dt>
              <dd className="font-mono text-xs break-all">{number}</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
              <dt className="font-semibold">Total</dt>
              <dd className="text-lg font-semibold" data-testid="total">
                ${amount}
              </dd>
            </div>
          </dl>
          {actionData?.error ? (
            <p className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200" role="alert">
              {actionData.error}
            </p>
          ) : null}
          <Form method="post" className="mt-8 space-y-3">
            <input type="hidden" name="token" value={token} />
            {open ? (
              <>
                <button
                  type="submit"
                  name="intent"
                  value="paypal"
                  className={`${button} bg-[#0070ba] text-white hover:bg-[#005ea6]`}
                >
                  Pay with PayPal
                </button>
                <button type="submit" name="intent" value="card" className={`${button} bg-slate-800 text-white`}>
                  Pay by card as a guest
                </button>
                <div className="grid grid-cols-2 gap-2">
                  <button type="submit" name="intent" value="pending" className={outline}>
                    Payment pending
                  </button>
                  <button type="submit" name="intent" value="denied" className={outline}>
                    Payment denied
                  </button>
                </div>
              </>
            ) : (
              <p className="text-center text-sm text-slate-600">This PayPal order was approved already.</p>
            )}
            <button type="submit" name="intent" value="cancel" className={outline}>
              Cancel and return to the merchant
            </button>
          </Form>
        </div>
      </div>
    </section>
  );
}
