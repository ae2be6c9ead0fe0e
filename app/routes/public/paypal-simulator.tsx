import type { ReactNode } from "react";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/paypal-simulator";

const fieldsOf = (form: FormData) => {
  const out: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === "string" && k !== "intent") out[k] = v;
  return out;
};

/** The PayPal form arrives here (PAYPAL_MODE=simulator); 'Pay' and 'Cancel' come back here too. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const fields = fieldsOf(form);
  const intent = form.get("intent");
  const sim = context.services.paypal.simulator;
  if (intent === "pay") {
    // Only the customer who placed the order (or an administrator) pays it, even with play money.
    const viewer = await context.viewer();
    const order = fields.custom ? await context.services.orders.byId(fields.custom) : undefined;
    if (order && !(viewer && (viewer.id === order.userId || viewer.isAdmin))) {
      throw data({ message: "Only the customer who placed this order can pay it. Please sign in." }, { status: 403 });
    }
    throw redirect(await sim.pay(fields));
  }
  if (intent === "cancel") throw redirect(await sim.cancel(fields));
  if (typeof intent === "string" && intent.startsWith("subscription-")) {
    // What PayPal does later to a subscription it holds: only its customer (or an administrator) plays it.
    const what = intent.slice("subscription-".length);
    if (what !== "payment" && what !== "failed" && what !== "cancel" && what !== "end")
      throw data({ message: "Unknown action" }, { status: 400 });
    const viewer = await context.viewer();
    const subscription = fields.subscr_id ? await context.services.subscriptions.bySubscrId(fields.subscr_id) : undefined;
    if (!viewer || !subscription || !(viewer.id === subscription.userId || viewer.isAdmin))
      throw data({ message: "Only the customer of this subscription can change it. Please sign in." }, { status: 403 });
    await sim.subscriptionEvent(subscription.subscrId, what);
    throw redirect("/paypal-simulator");
  }
  return { fields, info: await sim.describe(fields) };
}

export async function loader({ context }: Route.LoaderArgs) {
  if (context.services.paypal.mode !== "simulator") throw data({ message: "Not found" }, { status: 404 });
  // The signed-in customer's subscriptions the simulator holds, with what PayPal would do next.
  const viewer = await context.viewer();
  if (!viewer) return { subscriptions: [] };
  const ours = await context.services.subscriptions.forUser(viewer.id);
  const held = await context.services.paypal.simulator.subscriptionsOf(ours.map((s) => s.orderId));
  return { subscriptions: held.filter((h) => ours.some((s) => s.subscrId === h.subscrId)) };
}

export const meta: Route.MetaFunction = () => [{ title: "PayPal simulator" }, { name: "robots", content: "noindex" }];

type Checkout = NonNullable<Route.ComponentProps["actionData"]>;
type HeldSubscription = Route.ComponentProps["loaderData"]["subscriptions"][number];

/** One line of what is paid: its name, and its value under a test id. */
function CheckoutFact({ term, testId, children }: { term: string; testId: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-500">{term}</dt>
      <dd className="text-right" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** What PayPal would show of the order posted here, with its Pay (or Subscribe) and Cancel buttons. */
function SimulatorCheckout({ checkout }: { checkout: Checkout }) {
  return (
    <>
      <dl className="mt-6 space-y-3 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="shrink-0 text-slate-500">Item</dt>
          <dd className="text-right">{checkout.info.itemName}</dd>
        </div>
        <CheckoutFact term="Pay to" testId="payee">
          {checkout.info.business}
        </CheckoutFact>
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
          <dt className="font-semibold">Total</dt>
          <dd className="text-lg font-semibold" data-testid="total">
            ${checkout.info.amount} {checkout.info.currency}
          </dd>
        </div>
        {checkout.info.period ? (
          <CheckoutFact term="Billed every" testId="period">
            {checkout.info.period}
          </CheckoutFact>
        ) : null}
        {checkout.info.laterAmount ? (
          <CheckoutFact term="Each later payment" testId="later-amount">
            ${checkout.info.laterAmount} {checkout.info.currency}
          </CheckoutFact>
        ) : null}
      </dl>
      <Form method="post" className="mt-8 space-y-3">
        {Object.entries(checkout.fields).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        {checkout.info.payable ? (
          <button type="submit" name="intent" value="pay" className="w-full rounded-full bg-[#0070ba] py-3 font-semibold text-white hover:bg-[#005ea6]">
            {checkout.info.period ? "Subscribe" : "Pay"}
          </button>
        ) : (
          <p className="text-center text-sm text-slate-600">This order cannot be paid any more.</p>
        )}
        <button type="submit" name="intent" value="cancel" className="w-full rounded-full py-3 text-sm font-semibold text-[#0070ba] ring-1 ring-[#0070ba] hover:bg-sky-50">
          Cancel and return to the merchant
        </button>
      </Form>
    </>
  );
}

/** The signed-in customer's automatic payments, each with what PayPal may do next to it. */
function SimulatorSubscriptions({ subscriptions }: { subscriptions: HeldSubscription[] }) {
  return (
    <div className="mt-6">
      <h1 className="text-base font-semibold text-slate-800">Your automatic payments</h1>
      <ul className="mt-3 space-y-4">
        {subscriptions.map((s) => (
          <li key={s.subscrId} className="rounded-xl p-4 ring-1 ring-slate-200" data-testid="sim-subscription">
            <p className="text-sm">{s.itemName}</p>
            <p className="mt-1 text-xs text-slate-500">
              ${s.amount} USD each period · {s.status === "active" ? "Active" : s.status === "cancelled" ? "Cancelled" : "Ended"}
            </p>
            {s.status === "active" ? (
              <Form method="post" className="mt-3 grid grid-cols-2 gap-2 text-sm">
                <input type="hidden" name="subscr_id" value={s.subscrId} />
                <button type="submit" name="intent" value="subscription-payment" className="rounded-full bg-[#0070ba] py-2 font-semibold text-white">
                  Next payment
                </button>
                <button type="submit" name="intent" value="subscription-failed" className="rounded-full py-2 font-semibold text-[#0070ba] ring-1 ring-[#0070ba]">
                  Payment fails
                </button>
                <button type="submit" name="intent" value="subscription-cancel" className="rounded-full py-2 font-semibold text-[#0070ba] ring-1 ring-[#0070ba]">
                  Cancel
                </button>
                <button type="submit" name="intent" value="subscription-end" className="rounded-full py-2 font-semibold text-[#0070ba] ring-1 ring-[#0070ba]">
                  End of term
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A stand-in for PayPal's checkout page, clearly labelled, for machines without internet and for tests. */
export default function PayPalSimulator({ actionData, loaderData }: Route.ComponentProps) {
  return (
    <section className="bg-[#f5f7fa]">
      <div className="container-page flex justify-center py-16">
        <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg ring-1 ring-slate-200">
          <p className="text-center text-2xl font-bold tracking-tight text-[#003087] italic">
            Pay<span className="text-[#009cde]">Pal</span> <span className="text-sm font-medium text-slate-500 not-italic">simulator</span>
          </p>
          <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-center text-xs text-amber-900 ring-1 ring-amber-200">
            Built-in test checkout (PAYPAL_MODE=simulator). No money moves.
          </p>
          {actionData ? (
            <SimulatorCheckout checkout={actionData} />
          ) : loaderData?.subscriptions.length ? (
            <SimulatorSubscriptions subscriptions={loaderData.subscriptions} />
          ) : (
            <p className="mt-6 text-center text-sm text-slate-600">Open the pay page of an order to use the simulator.</p>
          )}
        </div>
      </div>
    </section>
  );
}
