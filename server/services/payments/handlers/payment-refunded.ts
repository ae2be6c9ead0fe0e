import { and, eq, sql } from "drizzle-orm";
import { paymentNotices } from "../../../db/schema";
import { moneyCents } from "../../../../domain/payment-check";
import { PAYPAL_ACTOR } from "../../orders";
import { orderNamed, type Handler } from "./context";

/**
 * The money went back (a refund made in PayPal or from the order screen, or a reversal): a refund of the whole price,
 * or a reversal, makes the order Refunded (its days removed by the timeline); a part refund keeps the days.
 */
const refunded =
  (how: "refund" | "reverse"): Handler<"payment.refunded" | "payment.reversed"> =>
  async (notice, ctx) => {
    const held = notice.paymentId ? await ctx.orders.byTxnId(notice.paymentId) : undefined;
    const order = await orderNamed(ctx.db, held?.id ?? notice.orderId);
    if (!order || order.paymentStatus === "UnPaid" || order.paymentStatus === "Cancelled")
      return { outcome: "refused", reason: "the refund names no paid order of ours", orderId: order?.id ?? null };
    if (notice.paymentId && order.txnId !== notice.paymentId)
      return { outcome: "refused", reason: `payment ${notice.paymentId} did not pay this order`, orderId: order.id };
    // A refund in parts is whole once the parts applied before and this one reach the price.
    const [before] = await ctx.db
      .select({ cents: sql<number>`coalesce(round(sum(${paymentNotices.amount}) * 100), 0)::int` })
      .from(paymentNotices)
      .where(
        and(
          eq(paymentNotices.orderId, order.id),
          eq(paymentNotices.noticeType, "payment.refunded"),
          eq(paymentNotices.outcome, "applied"),
        ),
      );
    const refunded = (before?.cents ?? 0) + (moneyCents(notice.amount.value) ?? 0);
    const whole = refunded >= Math.round(order.packagePrice * 100);
    if (how === "refund" && !whole)
      return {
        outcome: "applied",
        reason: `part refund of ${notice.amount.value} ${notice.amount.currency}: the order stays Paid and keeps its days`,
        orderId: order.id,
      };
    const r = await ctx.orders.refund(order.id, PAYPAL_ACTOR, how);
    return r.changed
      ? {
          outcome: "applied",
          reason: `${how === "refund" ? "refunded" : "reversed"}: order marked Refunded`,
          orderId: order.id,
        }
      : { outcome: "duplicate", reason: "the order was already Refunded", orderId: order.id };
  };
export const paymentRefunded = refunded("refund") as Handler<"payment.refunded">;
export const paymentReversed = refunded("reverse") as Handler<"payment.reversed">;
