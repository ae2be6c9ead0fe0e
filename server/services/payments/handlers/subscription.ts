import { and, eq } from "drizzle-orm";
import { checkPayment } from "#domain/payment-check.ts";
import { decideSubscriptionPayment, type SubscriptionNotice } from "#domain/subscription.ts";
import { paymentDue, subscriptionTerms } from "#domain/subscription-price.ts";
import { paymentNotices } from "#server/db/schema.ts";
import { isAppError, isId, isUniqueViolation } from "#server/lib/errors.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import type { SubscriptionRow } from "#server/services/subscriptions.ts";
import type { Notice, NoticeType } from "../provider";
import type { Handled, Handler, HandlerContext } from "./context";

/**
 * A provider's subscription notices, the same on both rails (decision 069): a Payments Standard subscription's IPN
 * messages (subscr_signup, subscr_payment …) and the Subscriptions API's webhooks (BILLING.SUBSCRIPTION.*,
 * PAYMENT.SALE.COMPLETED) arrive here as the same notices. The subscription is found by the provider's id
 * (`subscriptionId`), its order by ours (`orderId`, PayPal's custom / custom_id) or else by the subscription; the
 * subscriptions service records its status, the order commands take its money through the one money check.
 */

type SubscriptionNoticeType = Extract<NoticeType, `subscription.${string}`>;
type StatusNoticeType = Exclude<SubscriptionNoticeType, "subscription.payment">;
type OrderRow = NonNullable<Awaited<ReturnType<HandlerContext["orders"]["byId"]>>>;

/** What each status notice is to the subscription's rule (domain/subscription.ts nextSubscriptionStatus). */
const STATUS_NOTICES: Record<StatusNoticeType, { notice: SubscriptionNotice; done: string; again: string }> = {
  "subscription.activated": {
    notice: "signup",
    done: "subscription recorded",
    again: "subscription already recorded",
  },
  "subscription.payment-failed": {
    notice: "failed",
    done: "subscription payment failed: customer and admins told",
    again: "subscription payment failure already told",
  },
  "subscription.cancelled": {
    notice: "cancel",
    done: "subscription cancelled: no more renewals",
    again: "subscription already cancelled",
  },
  // PayPal suspends a subscription after too many failed payments (or when the merchant pauses it): it takes no more
  // money until someone reactivates it at PayPal. Here that is a stop: no more renewals are applied, the time paid
  // stays and the customer is told their automatic renewal stopped (decision 069).
  "subscription.suspended": {
    notice: "cancel",
    done: "subscription suspended by PayPal: no more renewals",
    again: "subscription already stopped",
  },
  "subscription.expired": { notice: "end", done: "subscription ended", again: "subscription already ended" },
};

/**
 * The subscription a notice names and the order that started it: the notice's own order, else the subscription's.
 * A subscription that belongs to another order than the notice's is refused.
 */
async function subscribed(
  notice: Extract<Notice, { type: SubscriptionNoticeType }>,
  ctx: HandlerContext,
): Promise<{ order: OrderRow; existing: SubscriptionRow | undefined } | Handled> {
  const existing = await ctx.subscriptions.bySubscrId(notice.subscriptionId);
  const orderId = notice.orderId && isId(notice.orderId) ? notice.orderId : (existing?.orderId ?? null);
  const order = orderId ? await ctx.orders.byId(orderId) : undefined;
  if (!order) return { outcome: "refused", reason: "the subscription names no order of ours", orderId: null };
  if (existing && existing.orderId !== order.id)
    return { outcome: "refused", reason: "the subscription belongs to another order", orderId: order.id };
  return { order, existing };
}

/** A failed payment's mail says the amount PayPal tried: the first payment's while the order is unpaid, else a later one's. */
const tried = (order: OrderRow) => paymentDue(subscriptionTerms(order), order.paymentStatus === "UnPaid" ? 1 : 2);

/** Records the notice on the subscription (made if it comes before the sign-up); a failure's mails once per notice. */
const note = (
  notice: Notice & { subscriptionId: string },
  what: SubscriptionNotice,
  order: OrderRow,
  ctx: HandlerContext,
) =>
  ctx.subscriptions.note(
    what,
    notice.subscriptionId,
    { ...order, packagePrice: tried(order) },
    PAYPAL_ACTOR,
    `${notice.subscriptionId}:${notice.eventId}`,
  );

/** Sign-up, failed payment, cancellation, suspension, end of term: the subscription's status, by its one rule. */
const statusNotice =
  <T extends StatusNoticeType>(type: T): Handler<T> =>
  async (notice, ctx) => {
    const found = await subscribed(notice, ctx);
    if ("outcome" in found) return found;
    const { notice: what, done, again } = STATUS_NOTICES[type];
    const { changed } = await note(notice, what, found.order, ctx);
    return { outcome: changed ? "applied" : "duplicate", reason: changed ? done : again, orderId: found.order.id };
  };

/** Whether this subscription's sign-up was refused (the IPN listener's check of its terms): none of its money applies. */
async function signupRefused(ctx: HandlerContext, orderId: string, subscriptionId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: paymentNotices.id })
    .from(paymentNotices)
    .where(
      and(
        eq(paymentNotices.subscriptionId, subscriptionId),
        eq(paymentNotices.orderId, orderId),
        eq(paymentNotices.noticeType, "subscription.activated"),
        eq(paymentNotices.outcome, "refused"),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * A period's payment: the first pays the order the customer placed, each later one renews it (a new paid order laid
 * after the current window), once per payment id; the amount due is the subscription's (paymentDue), checked by the
 * one money check. A pending payment is shown on the unpaid order and applies nothing.
 */
export const subscriptionPayment: Handler<"subscription.payment"> = async (notice, ctx) => {
  const found = await subscribed(notice, ctx);
  if ("outcome" in found) return found;
  const { order, existing } = found;
  const orderId = order.id;
  if (notice.status === "pending") {
    if (order.paymentStatus === "UnPaid") await ctx.orders.notePending(order.id, notice.reason ?? null);
    return { outcome: "applied", reason: `subscription payment ${notice.paymentId} pending`, orderId };
  }
  const terms = subscriptionTerms(order);
  const held = await ctx.orders.byTxnId(notice.paymentId);
  const check = checkPayment({
    order,
    noticeOrderId: order.id,
    paymentId: notice.paymentId,
    amount: notice.amount,
    receiver: { expected: ctx.receiver, actual: null },
    appliedBefore: Boolean(held),
    subscription: { first: paymentDue(terms, 1), later: paymentDue(terms, 2) },
  });
  if (check.kind === "duplicate") return { outcome: "duplicate", reason: check.reason, orderId };
  const decision = decideSubscriptionPayment({
    subscription: existing ? { orderId: existing.orderId, status: existing.status } : null,
    order,
    txnApplied: false,
    signupRefused: !existing && (await signupRefused(ctx, order.id, notice.subscriptionId)),
  });
  if (decision.kind === "refuse") return { outcome: "refused", reason: decision.reason, orderId };
  if (check.kind === "refused") {
    if (check.flag) await ctx.orders.flagPayment(order.id, `${check.reason} (${notice.paymentId})`);
    return { outcome: check.flag ? "flagged" : "refused", reason: check.reason, orderId };
  }
  // The subscription is recorded first (a payment may come before its sign-up), then the money.
  const { subscription } = await note(notice, "payment", order, ctx);
  if (subscription.status !== "active")
    return { outcome: "refused", reason: "a payment on a subscription no longer active: nothing renewed", orderId };
  try {
    if (decision.kind === "pay-order") {
      const paid = await ctx.orders.pay(order.id, PAYPAL_ACTOR, notice.paymentId);
      return paid.changed
        ? { outcome: "applied", reason: "subscription's first payment: order marked Paid", orderId }
        : { outcome: "duplicate", reason: "order was already Paid", orderId };
    }
    const renewal = await ctx.orders.renew(order.id, notice.paymentId, notice.subscriptionId);
    return { outcome: "applied", reason: `renewal: order ${renewal.order.number} paid`, orderId };
  } catch (error) {
    if (isUniqueViolation(error))
      return { outcome: "duplicate", reason: `transaction ${notice.paymentId} was already applied`, orderId };
    // The order cannot take the payment (its code used up meanwhile: decision 060): refused, and every admin told.
    if (isAppError(error) && error.status === 409) {
      await ctx.orders.paymentNotApplied(order.id, notice.paymentId, Number(notice.amount.value), error.message);
      return { outcome: "refused", reason: error.message, orderId };
    }
    throw error;
  }
};

export const subscriptionActivated = statusNotice("subscription.activated");
export const subscriptionPaymentFailed = statusNotice("subscription.payment-failed");
export const subscriptionCancelled = statusNotice("subscription.cancelled");
export const subscriptionSuspended = statusNotice("subscription.suspended");
export const subscriptionExpired = statusNotice("subscription.expired");
