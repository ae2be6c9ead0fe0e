import type { ReactNode } from "react";
import { Form } from "react-router";

/** The page's title and meta: PayPal simulator pages are never indexed. */
export const simulatorMeta = (title: string) => [
  { title: `PayPal simulator: ${title}` },
  { name: "robots", content: "noindex" },
];

/** The last button's answer, as the action returns it. */
type Answer = { error: string | null; done: string | null } | undefined;

/**
 * What the PayPal simulator's pages (PAYPAL_MODE=simulator) share: PayPal's look in a card clearly labelled as a test
 * (no money moves), the facts of what is paid (our order's number first), the answer to the last button pressed, then
 * the page's forms (app/routes/public/paypal-checkout.tsx and paypal-subscription.tsx).
 */
export function SimulatorCard({
  what,
  number,
  facts,
  factsData,
  answer,
  children,
}: {
  what: "checkout" | "subscription";
  number: string;
  /** The facts after the order's number: rows of the list (`dt` and `dd` in a `div`). */
  facts: ReactNode;
  /** The list's data attributes, for tests. */
  factsData?: Record<`data-${string}`, string>;
  answer: Answer;
  children: ReactNode;
}) {
  return (
    <section className="bg-[#f5f7fa]">
      <div className="container-page flex justify-center py-16">
        <div className="w-full max-w-md rounded-2xl bg-white p-8 shadow-lg ring-1 ring-slate-200">
          <p className="text-center text-2xl font-bold tracking-tight text-[#003087] italic">
            Pay<span className="text-[#009cde]">Pal</span>{" "}
            <span className="text-sm font-medium text-slate-500 not-italic">simulator</span>
          </p>
          <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-center text-xs text-amber-900 ring-1 ring-amber-200">
            {`Built-in test ${what} (PAYPAL_MODE=simulator). No money moves.`}
          </p>
          <dl className="mt-6 space-y-3 text-sm" {...factsData}>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-500">Order #</dt>
              <dd className="font-mono text-xs break-all">{number}</dd>
            </div>
            {facts}
          </dl>
          <SimulatorMessage answer={answer} />
          {children}
        </div>
      </div>
    </section>
  );
}

/** The last button's answer: why it failed (an alert), or what PayPal did (a status; its webhook is on its way). */
function SimulatorMessage({ answer }: { answer: Answer }) {
  if (answer?.error)
    return (
      <p className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200" role="alert">
        {answer.error}
      </p>
    );
  if (answer?.done)
    return (
      <p
        className="mt-4 rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-900 ring-1 ring-sky-200"
        role="status"
        data-testid="sim-done"
      >
        {answer.done} Its webhook is on its way to the shop.
      </p>
    );
  return null;
}

const button = "w-full rounded-full py-3 font-semibold";
const looks = {
  /** The page's main choice, in PayPal's blue. */
  primary: `${button} bg-[#0070ba] text-white hover:bg-[#005ea6]`,
  dark: `${button} bg-slate-800 text-white`,
  outline: `${button} text-sm text-[#0070ba] ring-1 ring-[#0070ba] hover:bg-sky-50`,
};

/** One of the page's buttons: it posts its form with `intent` naming what the buyer (or PayPal) does. */
export function SimulatorButton({
  intent,
  look = "outline",
  children,
}: {
  intent: string;
  look?: keyof typeof looks;
  children: ReactNode;
}) {
  return (
    <button type="submit" name="intent" value={intent} className={looks[look]}>
      {children}
    </button>
  );
}

/** A form of the page's buttons, carrying the PayPal object they act on (`name`: its field, `value`: its id). */
export function SimulatorForm({
  name,
  value,
  className = "mt-8 space-y-3",
  children,
}: {
  name: "token" | "subscription_id";
  value: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className={className}>
      <input type="hidden" name={name} value={value} />
      {children}
    </Form>
  );
}
