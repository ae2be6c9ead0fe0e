import { data, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/paypal-checkout";
import { money } from "#domain/format.ts";
import { SimulatorButton, SimulatorCard, SimulatorForm, simulatorMeta } from "#app/components/SimulatorCard.tsx";
import { played, refusedOutcome } from "./simulator.server";

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
      return await played(later[intent]);
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
    return refusedOutcome(error);
  }
}

export const meta: Route.MetaFunction = () => simulatorMeta("approve the payment");

/** A stand-in for PayPal's approval page (PAYPAL_MODE=simulator), clearly labelled: no money moves. */
export default function PayPalCheckoutSimulator({ loaderData, actionData }: Route.ComponentProps) {
  const { token, number, amount, open, capture } = loaderData;
  const facts = (
    <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
      <dt className="font-semibold">Total</dt>
      <dd className="text-lg font-semibold" data-testid="total">
        ${amount}
      </dd>
    </div>
  );
  return (
    <SimulatorCard what="checkout" number={number} facts={facts} answer={actionData}>
      <SimulatorForm name="token" value={token}>
        {open ? (
          <>
            <SimulatorButton intent="paypal" look="primary">Pay with PayPal</SimulatorButton>
            <SimulatorButton intent="card" look="dark">Pay by card as a guest</SimulatorButton>
            <div className="grid grid-cols-2 gap-2">
              <SimulatorButton intent="pending">Payment pending</SimulatorButton>
              <SimulatorButton intent="denied">Payment denied</SimulatorButton>
            </div>
          </>
        ) : (
          <p className="text-center text-sm text-slate-600">This PayPal order was approved already.</p>
        )}
        <SimulatorButton intent="cancel">Cancel and return to the merchant</SimulatorButton>
      </SimulatorForm>
      {capture ? (
        <SimulatorForm name="token" value={token} className="mt-8 space-y-3 border-t border-slate-200 pt-6">
          <h2 className="text-sm font-semibold text-slate-700">Later, at PayPal</h2>
          <p className="text-xs text-slate-500" data-testid="sim-capture-status">
            The payment is {capture.status.toLowerCase().replaceAll("_", " ")}.
          </p>
          <div className="grid gap-2 sm:grid-cols-2">
            <SimulatorButton intent="refund-in-paypal">Refund in PayPal</SimulatorButton>
            <SimulatorButton intent="reverse">Reverse (a dispute lost)</SimulatorButton>
          </div>
          <SimulatorButton intent="resend">Send the payment&apos;s webhook again</SimulatorButton>
        </SimulatorForm>
      ) : null}
    </SimulatorCard>
  );
}
