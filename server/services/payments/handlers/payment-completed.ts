import { applyPayment, type Handler } from "./context";

/** The money arrived: the order is Paid, through the one money check. */
export const paymentCompleted: Handler<"payment.completed"> = (notice, ctx) =>
  applyPayment(ctx, { orderId: notice.orderId, paymentId: notice.paymentId, amount: notice.amount });
