import { useEffect, useState, useSyncExternalStore } from "react";
import { Link, useRevalidator } from "react-router";
import type { Route } from "./+types/received-payment";
import { requireUser } from "#app/lib/guards.server.ts";
import { longDate } from "#domain/dates.ts";
import { money } from "#domain/format.ts";
import { rowAction, WAITING_TEXTS } from "#domain/membership.ts";
import { CheckIcon } from "#app/components/StrokeIcon.tsx";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  // Back from PayPal's approval page (`token`: the PayPal order): capture now; a reload, a second return or the webhook
  // having come first change nothing more (checkout.returned, decision 066).
  const search = new URL(request.url).searchParams;
  const token = search.get("token");
  const subscriptionId = search.get("subscription_id");
  const { checkout, subscribe } = context.services.payments;
  // Back from approving a subscription (decision 070): where PayPal has it; its webhooks pay the order.
  const subscription =
    subscriptionId && subscribe ? await subscribe.returned(viewer, params.id, subscriptionId.slice(0, 64)) : null;
  const back =
    token && checkout && !subscriptionId ? await checkout.returned(viewer, params.id, token.slice(0, 64)) : null;
  const order = await context.services.orders.get(viewer, params.id);
  // PayPal took a payment the order could not take (decision 060: its code used up meanwhile; or an amount not asked
  // for): it is on record for the studio to refund, and the customer is told so instead of waiting for nothing.
  const refused =
    order.paymentStatus !== "Paid" &&
    (back?.outcome === "refused" ||
      back?.outcome === "flagged" ||
      (await context.services.payments.paymentRefused(order._id)));
  const { kind } = rowAction(
    { ...order, id: order._id, membershipValid: order.membershipValid ? new Date(order.membershipValid) : null },
    context.services.now(),
    context.config.timeZone,
  );
  return { order, stage: kind, refused, subscription, timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Payment" }, { name: "robots", content: "noindex" }];

const POLL_MS = 2000;
/** Nothing to subscribe to: the value only differs between the server's render (false) and the browser's (true). */
const noChange = () => () => {};
const POLL_FOR_MS = 120_000;

/** What the customer reads when PayPal took a payment this order could not take. */
const REFUSED_TEXT =
  "PayPal took a payment for this order, but the order could no longer take it (its discount code was used up in the meantime, or the order had changed). The payment is on record and the studio refunds it to your PayPal account: there is nothing more for you to do. To buy this plan, place a new order.";

/** What the customer reads of a subscription PayPal did not start (they were sent back without it running). */
const SUBSCRIPTION_STOPPED: Record<string, string> = {
  cancelled: "PayPal reports this subscription as cancelled: nothing more will be taken for it.",
  expired: "PayPal reports this subscription as ended: nothing more will be taken for it.",
  suspended: "PayPal has suspended this subscription: please check your PayPal account.",
};

type Payment = Route.ComponentProps["loaderData"];

/** Asks the server again every POLL_MS while `watching`, for POLL_FOR_MS at most; `polling`: this page's scripts run. */
function usePaymentWatch(watching: boolean) {
  const revalidator = useRevalidator();
  const [gaveUp, setGaveUp] = useState(false);
  // Only a page whose scripts run asks again by itself: the server's HTML (and a browser without scripts) says how to.
  const polling = useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
  useEffect(() => {
    if (!watching) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > POLL_FOR_MS) {
        setGaveUp(true);
        clearInterval(timer);
      } else if (revalidator.state === "idle") {
        void revalidator.revalidate();
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [watching]); // eslint-disable-line react-hooks/exhaustive-deps
  return { gaveUp, polling };
}

/** The payment is in: what it gave, and the automatic renewal it started. */
function PaymentConfirmed({ order, stage, subscription, timeZone }: Omit<Payment, "refused">) {
  return (
    <>
      <span
        className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-forest text-white"
        aria-hidden="true"
      >
        <CheckIcon size={30} />
      </span>
      {stage === "waiting" ? (
        <>
          <h1 className="mt-6 text-3xl text-forest">{WAITING_TEXTS.title}</h1>
          <p className="mt-3 text-sm text-mist" data-testid="next-step">
            PayPal confirmed your payment of ${money(order.packagePrice)} for the {order.packageName} plan.{" "}
            {WAITING_TEXTS.next}
          </p>
        </>
      ) : (
        <>
          <h1 className="mt-6 text-3xl text-forest">Payment confirmed</h1>
          <p className="mt-3 text-sm text-mist" data-testid="next-step">
            PayPal confirmed your payment of ${money(order.packagePrice)} for the {order.packageName} plan.{" "}
            {stage === "expires" && order.membershipValid
              ? `Your membership is active until ${longDate(order.membershipValid, timeZone)}: your items are open on your dashboard.`
              : stage === "membership-expired"
                ? "The membership it gave has ended; your dashboard has the plans to renew."
                : ""}
          </p>
        </>
      )}
      {subscription?.status === "active" ? (
        <p className="mt-3 text-sm text-mist" data-testid="subscription-started">
          Your membership now renews automatically every {order.packageValidity} days. You can cancel it at any time on
          your account&apos;s{" "}
          <Link to="/account/subscriptions" className="font-semibold text-clay underline">
            Automatic renewal
          </Link>{" "}
          page.
        </p>
      ) : null}
    </>
  );
}

/** PayPal has not confirmed the payment yet: what it reports, and how the page learns more. */
function WaitingForPayPal({
  order,
  subscription,
  gaveUp,
  polling,
}: Pick<Payment, "order" | "subscription"> & { gaveUp: boolean; polling: boolean }) {
  return (
    <>
      <span
        className="mx-auto block h-12 w-12 animate-spin rounded-full border-4 border-linen border-t-clay"
        aria-hidden="true"
      />
      <h1 className="mt-6 text-3xl text-forest">Waiting for PayPal's confirmation</h1>
      {subscription ? (
        <p className="mt-3 text-sm text-mist" data-testid="subscription-state">
          {SUBSCRIPTION_STOPPED[subscription.status] ??
            "PayPal has started your subscription. Its first payment confirms this order."}
        </p>
      ) : null}
      <p className="mt-3 text-sm text-mist" role="status">
        {order.providerStatus ? (
          `PayPal reports the payment as ${order.providerStatus}. We will update your order as soon as it clears.`
        ) : gaveUp ? (
          "PayPal has not confirmed the payment yet. It can take a few minutes: your dashboard shows the order's status."
        ) : polling ? (
          "Thanks for paying. This page updates by itself as soon as PayPal confirms the payment."
        ) : (
          <>
            Thanks for paying. PayPal usually confirms a payment within a minute:{" "}
            <a href={`/received-payment/${order._id}`} className="font-semibold text-clay underline">
              reload this page
            </a>{" "}
            to see it.
          </>
        )}
      </p>
    </>
  );
}

/** PayPal's return address: where the payment stands. Never "paid" before PayPal's notification says so. */
export default function ReceivedPayment({
  loaderData: { order, stage, refused, subscription, timeZone },
}: Route.ComponentProps) {
  const denied = order.paymentStatus === "UnPaid" && order.providerStatus === "Denied" && !refused;
  const waiting = order.paymentStatus === "UnPaid" && !refused && !denied;
  // A cancelled order is watched too: a payment PayPal took from a page kept open may still be on its way to us.
  const watching = waiting || (order.paymentStatus === "Cancelled" && !refused);
  const { gaveUp, polling } = usePaymentWatch(watching);

  return (
    <section className="bg-sand/60">
      <div className="container-page max-w-2xl py-16 text-center">
        <div
          className="rounded-3xl bg-white p-10 ring-1 ring-linen"
          data-testid="payment-state"
          data-status={order.paymentStatus}
        >
          {order.paymentStatus === "Paid" ? (
            <PaymentConfirmed order={order} stage={stage} subscription={subscription} timeZone={timeZone} />
          ) : refused ? (
            <>
              <h1 className="text-3xl text-forest">Your payment could not be applied</h1>
              <p className="mt-3 text-sm text-mist" role="alert" data-testid="payment-refused">
                {REFUSED_TEXT}
              </p>
            </>
          ) : denied ? (
            <>
              <h1 className="text-3xl text-forest">PayPal declined this payment</h1>
              <p className="mt-3 text-sm text-mist" role="alert" data-testid="payment-denied">
                Nothing was charged and your order is still open. You can try again, with another card or PayPal
                account.
              </p>
              <a href={`/pay-now/${order._id}`} className="btn-dark mt-6 inline-flex">
                Try again
              </a>
            </>
          ) : waiting ? (
            <WaitingForPayPal order={order} subscription={subscription} gaveUp={gaveUp} polling={polling} />
          ) : (
            <>
              <h1 className="text-3xl text-forest">This order is {order.paymentStatus}</h1>
              <p className="mt-3 text-sm text-mist">No payment is expected for it.</p>
            </>
          )}
          <div className="mt-8 flex justify-center gap-3">
            <Link to="/dashboard" className="btn-dark">
              Go to your dashboard
            </Link>
            <Link to="/my-order" className="btn-outline">
              My Orders
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
