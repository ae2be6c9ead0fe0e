import { eq } from "drizzle-orm";
import { checkPayment } from "#domain/payment-check.ts";
import type { Db } from "#server/db/client.ts";
import { orders } from "#server/db/schema.ts";
import { isAppError, isId, isUniqueViolation } from "#server/lib/errors.ts";
import { PAYPAL_ACTOR, type OrdersService } from "#server/services/orders/index.ts";
import type { SubscriptionsService } from "#server/services/subscriptions.ts";
import type { Money, Notice, NoticeType, PaymentProvider, PaymentResult } from "../provider";
import type { RefundsService } from "../refunds";

/** What became of a notice (stored with it in payment_notices). */
export type NoticeOutcome = "applied" | "duplicate" | "refused" | "flagged" | "ignored";
export interface Handled {
  outcome: NoticeOutcome;
  reason: string;
  orderId: string | null;
}

/**
 * What every handler may use: the order commands (the only writer of `orders`), the subscriptions service (the only
 * writer of `subscriptions`), the provider, our account.
 */
export interface HandlerContext {
  db: Db;
  orders: Pick<
    OrdersService,
    "pay" | "renew" | "refund" | "notePending" | "noteDenied" | "flagPayment" | "byId" | "byTxnId" | "paymentNotApplied"
  >;
  subscriptions: Pick<SubscriptionsService, "note" | "bySubscrId">;
  provider: PaymentProvider;
  /** The one writer of refunds (payments/refunds.ts): a refund webhook records through it, as the order screen does. */
  refunds: Pick<RefundsService, "record">;
  /** Our merchant account at the provider, when known (the money check's receiver). */
  receiver: string | null;
}

export type Handler<T extends NoticeType = NoticeType> = (
  notice: Extract<Notice, { type: T }>,
  ctx: HandlerContext,
) => Promise<Handled>;

/** The order a notice names by our id (custom_id), as the money check needs it. */
export async function orderNamed(db: Db, orderId: string | null) {
  if (!orderId || !isId(orderId)) return null;
  const [row] = await db
    .select({
      id: orders.id,
      packagePrice: orders.packagePrice,
      paymentStatus: orders.paymentStatus,
      txnId: orders.txnId,
      currency: orders.currency,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row ?? null;
}

/**
 * A completed payment applied to its order through the one money check: the order marked Paid by the provider's
 * payment id (once: the order's txn id is unique), or refused, and flagged to staff when money does not match.
 * Used by the completed-payment notice, the approved checkout's capture, the return capture and the reconciliation.
 */
export async function applyPayment(
  ctx: HandlerContext,
  payment: { orderId: string | null; paymentId: string; amount: Money; receiver?: string | null },
): Promise<Handled> {
  const held = await ctx.orders.byTxnId(payment.paymentId);
  const order = await orderNamed(ctx.db, payment.orderId ?? held?.id ?? null);
  const check = checkPayment({
    order,
    noticeOrderId: payment.orderId,
    paymentId: payment.paymentId,
    amount: payment.amount,
    receiver: { expected: ctx.receiver, actual: payment.receiver ?? null },
    appliedBefore: Boolean(held),
  });
  const orderId = order?.id ?? null;
  if (check.kind === "duplicate") return { outcome: "duplicate", reason: check.reason, orderId };
  if (check.kind === "refused") {
    if (check.flag && orderId) await ctx.orders.flagPayment(orderId, `${check.reason} (${payment.paymentId})`);
    return { outcome: check.flag ? "flagged" : "refused", reason: check.reason, orderId };
  }
  try {
    const paid = await ctx.orders.pay(check.orderId, PAYPAL_ACTOR, payment.paymentId);
    return paid.changed
      ? { outcome: "applied", reason: `payment ${payment.paymentId}: order marked Paid`, orderId }
      : { outcome: "duplicate", reason: "the order was already Paid", orderId };
  } catch (error) {
    if (isUniqueViolation(error))
      return { outcome: "duplicate", reason: `payment ${payment.paymentId} was applied before`, orderId };
    // The order cannot take the money (its code used up meanwhile, decision 060): refused, not retried, and every
    // admin told once per payment to refund it, as on the Standard listener.
    if (isAppError(error) && error.status === 409) {
      await ctx.orders.paymentNotApplied(check.orderId, payment.paymentId, Number(payment.amount.value), error.message);
      return { outcome: "refused", reason: error.message, orderId };
    }
    throw error;
  }
}

/** What a capture (ours on return, or the approved notice's) answered, applied to the order. */
export async function applyCapture(ctx: HandlerContext, orderId: string | null, result: PaymentResult) {
  const id = result.orderId ?? orderId;
  const handlers: Record<PaymentResult["status"], () => Promise<Handled>> = {
    completed: () => applyPayment(ctx, { orderId: id, paymentId: result.paymentId, amount: result.amount }),
    pending: async () => {
      if (id && isId(id)) await ctx.orders.notePending(id, result.reason);
      return {
        outcome: "applied",
        reason: `payment ${result.paymentId} pending (${result.reason ?? "no reason"})`,
        orderId: id,
      };
    },
    denied: async () => {
      if (id && isId(id)) await ctx.orders.noteDenied(id);
      return { outcome: "applied", reason: `payment ${result.paymentId} denied: the order stays unpaid`, orderId: id };
    },
  };
  return handlers[result.status]();
}
