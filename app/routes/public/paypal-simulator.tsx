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
  return { fields, info: await sim.describe(fields) };
}

export function loader({ context }: Route.LoaderArgs) {
  if (context.services.paypal.mode !== "simulator") throw data({ message: "Not found" }, { status: 404 });
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "PayPal simulator" }, { name: "robots", content: "noindex" }];

/** A stand-in for PayPal's checkout page, clearly labelled, for machines without internet and for tests. */
export default function PayPalSimulator({ actionData }: Route.ComponentProps) {
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
            <>
              <dl className="mt-6 space-y-3 text-sm">
                <div className="flex justify-between gap-4">
                  <dt className="text-slate-500">Item</dt>
                  <dd className="text-right">{actionData.info.itemName}</dd>
                </div>
                <div className="flex justify-between gap-4">
                  <dt className="text-slate-500">Pay to</dt>
                  <dd className="text-right" data-testid="payee">
                    {actionData.info.business}
                  </dd>
                </div>
                <div className="flex justify-between gap-4 border-t border-slate-200 pt-3">
                  <dt className="font-semibold">Total</dt>
                  <dd className="text-lg font-semibold" data-testid="total">
                    ${actionData.info.amount} {actionData.info.currency}
                  </dd>
                </div>
              </dl>
              <Form method="post" className="mt-8 space-y-3">
                {Object.entries(actionData.fields).map(([k, v]) => (
                  <input key={k} type="hidden" name={k} value={v} />
                ))}
                {actionData.info.payable ? (
                  <button type="submit" name="intent" value="pay" className="w-full rounded-full bg-[#0070ba] py-3 font-semibold text-white hover:bg-[#005ea6]">
                    Pay
                  </button>
                ) : (
                  <p className="text-center text-sm text-slate-600">This order cannot be paid any more.</p>
                )}
                <button type="submit" name="intent" value="cancel" className="w-full rounded-full py-3 text-sm font-semibold text-[#0070ba] ring-1 ring-[#0070ba] hover:bg-sky-50">
                  Cancel and return to the merchant
                </button>
              </Form>
            </>
          ) : (
            <p className="mt-6 text-center text-sm text-slate-600">Open the pay page of an order to use the simulator.</p>
          )}
        </div>
      </div>
    </section>
  );
}
