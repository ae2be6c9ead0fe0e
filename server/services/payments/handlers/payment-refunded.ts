import { and, eq } from "drizzle-orm";
import { paymentCheckouts } from "#server/db/schema.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { orderNamed, type Handled, type Handler } from "./context";

/** Whether the order has a checkout of ours whose capture was not seen yet (a notice or the return still to come). */
async function captureAwaited(ctx: Parameters<Handler>[1], orderId: string): Promise<boolean> {
  const [open] = await ctx.db
    .select({ id: paymentCheckouts.id })
    .from(paymentCheckouts)
    .where(and(eq(paymentCheckouts.orderId, orderId), eq(paymentCheckouts.status, "created")))
    .limit(1);
  return Boolean(open);
}

/** The paid order a refund or reversal names: by its payment (our txn id), else by our id (custom_id). */
async function refundedOrder(
  notice: { paymentId: string | null; orderId: string | null },
  ctx: Parameters<Handler>[1],
): Promise<{ order: NonNullable<Awaited<ReturnType<typeof orderNamed>>> } | Handled> {
  const held = notice.paymentId ? await ctx.orders.byTxnId(notice.paymentId) : undefined;
  const order = await orderNamed(ctx.db, held?.id ?? notice.orderId);
  // Its payment is not applied yet (the capture's notice or the return comes later): PayPal is asked to send it again
  // (a failure, 5xx), so the refund is recorded once the payment is.
  if (order?.paymentStatus === "UnPaid" && notice.paymentId && (await captureAwaited(ctx, order.id)))
    throw new Error(`payment ${notice.paymentId} is not applied to order ${order.id} yet: PayPal sends this again`);
  if (!order || order.paymentStatus === "UnPaid" || order.paymentStatus === "Cancelled" || !order.txnId)
    return { outcome: "refused", reason: "the refund names no paid order of ours", orderId: order?.id ?? null };
  if (notice.paymentId && order.txnId !== notice.paymentId)
    return { outcome: "refused", reason: `payment ${notice.paymentId} did not pay this order`, orderId: order.id };
  return { order };
}

/**
 * The money went back (a refund made in PayPal's dashboard, or ours from the order screen): recorded once by its
 * refund id through the one writer of refunds (payments/refunds.ts), whichever came first, this webhook or our call's
 * answer. The refunds reaching the price make the order Refunded (its days removed); a part keeps the days.
 */
export const paymentRefunded: Handler<"payment.refunded"> = async (notice, ctx) => {
  const found = await refundedOrder(notice, ctx);
  if (!("order" in found)) return found;
  const { order } = found;
  const r = await ctx.refunds.record({
    provider: ctx.provider.name,
    refundId: notice.refundId,
    orderId: order.id,
    paymentId: order.txnId!,
    amount: notice.amount,
    status: "completed",
    note: notice.note ?? null,
  });
  const what = `refund ${notice.refundId} of ${notice.amount.value} ${notice.amount.currency}`;
  if (!r.created && r.applied === "no")
    return {
      outcome: "duplicate",
      reason: `${what} was recorded before (our refund call's answer)`,
      orderId: order.id,
    };
  return {
    outcome: "applied",
    reason:
      r.kind === "whole"
        ? `${what}: the refunds reach the price, the order is Refunded`
        : `${what}: a part refund, the order stays Paid and keeps its days`,
    orderId: order.id,
  };
};

/** The buyer's bank or a lost dispute took the money back: the order is Refunded, whole, as before. */
export const paymentReversed: Handler<"payment.reversed"> = async (notice, ctx) => {
  const found = await refundedOrder(notice, ctx);
  if (!("order" in found)) return found;
  const r = await ctx.orders.refund(found.order.id, PAYPAL_ACTOR, "reverse");
  return r.changed
    ? { outcome: "applied", reason: "reversed: order marked Refunded", orderId: found.order.id }
    : { outcome: "duplicate", reason: "the order was already Refunded", orderId: found.order.id };
};
