import { data, Form, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/paypal-checkout";
import { money } from "../../../domain/format";

/**
 * The buttons of the simulator's approval page: what the buyer does on PayPal's page; once the payment is taken, what
 * happens later at PayPal (a refund made in its dashboard, a reversal after a lost dispute, a webhook sent again).
 */
const choice = z.object({
  token: z.string().min(1).max(64),
  intent: z.enum(["paypal", "card", "pending", "denied", "cancel", "refund-in-paypal", "reverse", "resend"], {
    message: "Choose one of the page's buttons.",
  }),
});
type Later = "refund-in-paypal" | "reverse" | "resend";
const isLater = (intent: string): intent is Later => ["refund-in-paypal", "reverse", "resend"].includes(intent);

/** The PayPal order's capture, once the payment was taken (or is pending). */
const captureOf = (made: { purchase_units?: { payments?: { captures?: { id: string; status: string }[] } }[] }) =>
  made.purchase_units?.[0]?.payments?.captures?.[0] ?? null;

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
  return { made, unit, capture: captureOf(made) };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) throw data({ message: "This PayPal order does not exist." }, { status: 404 });
  const { made, unit, capture } = await approvable(context, token);
  return {
    token,
    number: unit.invoice_id ?? "",
    amount: unit.amount ? `${money(Number(unit.amount.value))} ${unit.amount.currency_code}` : "",
    open: made.status === "CREATED" || made.status === "PAYER_ACTION_REQUIRED",
    capture: capture ? { status: capture.status } : null,
  };
}

/** Each button calls the simulator's outcome (which sends PayPal's signed webhooks) and goes back as PayPal does. */
export async function action({ request, context }: Route.ActionArgs) {
  const parsed = choice.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message, done: null }, { status: 400 });
  const { token, intent } = parsed.data;
  const { capture } = await approvable(context, token);
  const { outcomes } = context.services.payments.simulator!;
  try {
    if (isLater(intent)) {
      if (!capture)
        return data({ error: "PayPal has taken no payment for this order yet.", done: null }, { status: 409 });
      const later: Record<Later, [() => Promise<unknown>, string]> = {
        "refund-in-paypal": [() => outcomes.refundInPayPal(capture.id), "The payment was refunded in PayPal."],
        reverse: [() => outcomes.reverseCapture(capture.id), "The buyer's bank took the payment back."],
        resend: [() => outcomes.resendLastCaptureEvent(capture.id), "PayPal sent the payment's last webhook again."],
      };
      const [run, done] = later[intent];
      await run();
      return { error: null, done };
    }
    const back =
      intent === "cancel"
        ? await outcomes.cancelOrder(token)
        : await outcomes.approveOrder(token, {
            payer: intent === "card" ? "card" : "paypal",
            result: intent === "pending" ? "pending" : intent === "denied" ? "denied" : "completed",
          });
    if (!back) return data({ error: "This PayPal order has no return address.", done: null }, { status: 409 });
    throw redirect(context.services.payments.browserAddress(back), 303);
  } catch (error) {
    if (error instanceof Response) throw error;
    return data({ error: error instanceof Error ? error.message : String(error), done: null }, { status: 409 });
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
  const { token, number, amount, open, capture } = loaderData;
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
          {capture ? (
            <Form method="post" className="mt-8 space-y-3 border-t border-slate-200 pt-6">
              <input type="hidden" name="token" value={token} />
              <h2 className="text-sm font-semibold text-slate-700">Later, at PayPal</h2>
              <p className="text-xs text-slate-500" data-testid="sim-capture-status">
                The payment is {capture.status.toLowerCase().replaceAll("_", " ")}.
              </p>
              <div className="grid gap-2 sm:grid-cols-2">
                <button type="submit" name="intent" value="refund-in-paypal" className={outline}>
                  Refund in PayPal
                </button>
                <button type="submit" name="intent" value="reverse" className={outline}>
                  Reverse (a dispute lost)
                </button>
              </div>
              <button type="submit" name="intent" value="resend" className={outline}>
                Send the payment&apos;s webhook again
              </button>
            </Form>
          ) : null}
        </div>
      </div>
    </section>
  );
}
