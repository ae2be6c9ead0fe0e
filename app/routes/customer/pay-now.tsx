import { data, Link, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/pay-now";
import { requireUser } from "#app/lib/guards.server.ts";
import { orderAmount, orderTaxShown, TaxLines } from "#app/components/TaxLines.tsx";
import { WAITING_TEXTS } from "#domain/membership.ts";
import { PAY_PAGE_REFUSALS } from "#domain/discounts.ts";
import { CheckIcon, LockIcon, ReturnIcon } from "#app/components/StrokeIcon.tsx";
import { whenRefused } from "#app/lib/refusal.server.ts";

/** Said when the site has no PayPal connection to take a one-time payment with. */
const NO_CHECKOUT = "Payments are not set up on this site yet. Please contact the studio.";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const order = await context.services.orders.get(viewer, params.id);
  const unpaid = order.paymentStatus === "UnPaid" ? await context.services.orders.byId(order._id) : undefined;
  // An order whose discount code has no room left for it is not sent to PayPal: it says why (decision 060).
  const refusal = unpaid ? await context.services.discounts.payRefusal(unpaid) : null;
  const settings = await context.services.settings.all();
  // One-time payments go through PayPal Checkout: the button posts to this page's action (decision 066).
  const checkout = Boolean(unpaid && !refusal);
  // A package that renews automatically also offers a subscription on PayPal's Subscriptions API (decision 070): its
  // terms are the plan's (a code on the first payment only is one trial cycle, decision 049).
  const { subscribe: renewals } = context.services.payments;
  const subscribe = checkout && renewals ? await renewals.offer(viewer, order._id) : null;
  return {
    order,
    checkout,
    subscribe,
    codeRefused: refusal ? PAY_PAGE_REFUSALS[refusal] : null,
    mode: context.services.paypal.mode,
    autoActivate: settings.autoActivate,
  };
}

/** The two buttons: pay once (the default), or subscribe. */
const intent = z.object({ intent: z.enum(["pay", "subscribe"]).default("pay") });

/**
 * "Pay Now With PayPal": the server makes the PayPal order for the customer's own unpaid order at its own price and
 * sends the buyer to PayPal's approval page (303); "Subscribe with PayPal" makes or reuses the package's plan and starts
 * the subscription instead (decision 070). PayPal down, a refused code, a paid order: the page says why and nothing is
 * written (checkout.start, decision 066; subscribe.start).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const { checkout, subscribe } = context.services.payments;
  if (!checkout || !subscribe) return data({ error: NO_CHECKOUT }, { status: 503 });
  const form = Object.fromEntries([...(await request.formData())].filter(([name]) => name === "intent"));
  const parsed = intent.safeParse(form);
  if (!parsed.success) return data({ error: "Choose one of the page's buttons." }, { status: 400 });
  const order = await context.services.orders.get(viewer, params.id);
  const row = order.paymentStatus === "UnPaid" ? await context.services.orders.byId(order._id) : undefined;
  const refusal = row ? await context.services.discounts.payRefusal(row) : null;
  if (refusal) return data({ error: PAY_PAGE_REFUSALS[refusal] }, { status: 409 });
  const opened: Promise<{ approveUrl: string }> =
    parsed.data.intent === "subscribe" ? subscribe.start(viewer, order._id) : checkout.start(viewer, order._id);
  // A refusal (the order is paid already, PayPal refused) is this page's answer, shown above its buttons.
  const started = await whenRefused(
    opened,
    () => true,
    ({ message, status }) => data({ error: message }, { status }),
  );
  if (!("approveUrl" in started)) return started;
  throw redirect(context.services.payments.browserAddress(started.approveUrl), 303);
}

export const meta: Route.MetaFunction = () => [{ title: "Pay now" }, { name: "robots", content: "noindex" }];

type PayPage = Route.ComponentProps["loaderData"];

/** The pay buttons (once, or as a subscription) with what happens when PayPal is done. */
function PayWithPayPal({
  order,
  subscribe,
  mode,
  autoActivate,
  error,
}: Pick<PayPage, "order" | "subscribe" | "mode" | "autoActivate"> & { error: string | undefined }) {
  return (
    <>
      {mode !== "live" ? (
        <p className="mt-8 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200" role="note">
          {mode === "simulator"
            ? "Test mode: this site uses the built-in PayPal simulator. No money moves."
            : "Test mode: payments go to the PayPal sandbox. No real money moves."}
        </p>
      ) : null}
      {error ? (
        <p
          className="mt-8 rounded-xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200"
          role="alert"
          data-testid="pay-error"
        >
          {error}
        </p>
      ) : null}
      <form method="post" className="mt-8">
        <button
          type="submit"
          name="intent"
          value="pay"
          className="btn w-full bg-[#ffc439] py-4 text-base text-[#003087] hover:bg-[#f2b82f]"
        >
          {subscribe ? "Pay once with PayPal" : "Pay Now With PayPal"}
        </button>
      </form>
      {subscribe ? (
        <form method="post" className="mt-3" data-testid="subscribe-form">
          <button
            type="submit"
            name="intent"
            value="subscribe"
            className="btn w-full bg-[#003087] py-4 text-base text-white hover:bg-[#00246b]"
          >
            Subscribe with PayPal: renews every {order.packageValidity} days
          </button>
          <p className="mt-2 text-center text-xs text-mist" data-testid="subscribe-terms">
            {subscribe.firstPayment !== null
              ? `${orderAmount(Number(subscribe.firstPayment), order.currency)} now, then ${orderAmount(Number(subscribe.amount), order.currency)} every ${order.packageValidity} days until you cancel it.`
              : `${orderAmount(Number(subscribe.amount), order.currency)} now, then every ${order.packageValidity} days until you cancel it.`}{" "}
            You can cancel it at any time on your account&apos;s Automatic renewal page.
          </p>
        </form>
      ) : null}
      <ul className="mt-8 space-y-2 text-xs text-mist">
        <li className="flex gap-2">
          <LockIcon size={16} className="shrink-0 text-forest" />
          You pay on PayPal's own page: we never see your card or PayPal password.
        </li>
        <li className="flex gap-2" data-testid="what-happens-next">
          <CheckIcon size={16} className="shrink-0 text-forest" />
          {autoActivate
            ? "Your membership starts as soon as PayPal confirms the payment to us."
            : "Once PayPal confirms the payment, the studio activates your membership; your dashboard shows where it stands until then."}
        </li>
        <li className="flex gap-2">
          <ReturnIcon size={16} className="shrink-0 text-forest" />
          Changed your mind? Cancel on PayPal's page and nothing is charged.
        </li>
      </ul>
    </>
  );
}

/** Why this order cannot be paid here, and where to go instead. */
function NotPayable({ order, codeRefused }: Pick<PayPage, "order" | "codeRefused">) {
  return (
    <div className="mt-8 rounded-xl bg-sand px-5 py-4 text-sm text-ink" role={codeRefused ? "alert" : undefined}>
      {codeRefused
        ? codeRefused
        : order.paymentStatus === "Paid"
          ? order.orderStatus === "Pending"
            ? `This order is paid and waiting for activation. ${WAITING_TEXTS.next}`
            : "This order is already paid."
          : order.paymentStatus === "Cancelled"
            ? "This order was cancelled and cannot be paid. Place a new order to buy this plan."
            : "This order was refunded and cannot be paid again."}
      <div className="mt-4 flex gap-3">
        {codeRefused ? (
          <Link to={`/my-order?cancel=${order._id}`} className="btn-dark">
            Cancel this order
          </Link>
        ) : (
          <Link to="/dashboard" className="btn-dark">
            Dashboard
          </Link>
        )}
        <Link to="/pricing" className="btn-outline">
          Plans
        </Link>
      </div>
    </div>
  );
}

/**
 * The order summary and the pay button (spec 1). The spec's form posted `cmd=_xclick` to PayPal; it now posts to this
 * page, which starts PayPal Checkout (decision 066), or a subscription on PayPal's Subscriptions API (decision 070).
 */
export default function PayNow({
  loaderData: { order, checkout, subscribe, codeRefused, mode, autoActivate },
  actionData,
}: Route.ComponentProps) {
  return (
    <section className="bg-sand/60">
      <div className="container-page max-w-3xl py-12 sm:py-16">
        <div className="rounded-3xl bg-white p-8 ring-1 ring-linen sm:p-10">
          <p className="eyebrow">Payment</p>
          <h1 className="mt-2 text-3xl text-forest">Order summary</h1>
          <dl className="mt-8 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-mist">Order #</dt>
            <dd className="font-mono text-xs break-all">{order.orderNumber}</dd>
            <dt className="text-mist">Package</dt>
            <dd>
              {order.packageName} · {order.packageValidity} days
            </dd>
            <dt className="text-mist">Amount</dt>
            <dd className="font-serif text-2xl text-forest" data-testid="amount">
              {orderAmount(order.packagePrice, order.currency)}
            </dd>
            <TaxLines tax={orderTaxShown(order)} />
          </dl>

          {checkout ? (
            <PayWithPayPal
              order={order}
              subscribe={subscribe}
              mode={mode}
              autoActivate={autoActivate}
              error={actionData?.error}
            />
          ) : (
            <NotPayable order={order} codeRefused={codeRefused} />
          )}
        </div>
      </div>
    </section>
  );
}
