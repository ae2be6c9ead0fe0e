import { applyCapture, type Handler } from "./context";

/** The payment waits (an eCheck, a review): the order says so while it is unpaid. */
export const paymentPending: Handler<"payment.pending"> = (notice, ctx) =>
  applyCapture(ctx, notice.orderId, {
    status: "pending",
    paymentId: notice.paymentId,
    amount: notice.amount,
    orderId: notice.orderId,
    reason: notice.reason,
  });
