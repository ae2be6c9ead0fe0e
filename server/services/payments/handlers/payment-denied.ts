import { applyCapture, type Handler } from "./context";

/** The payment was denied: the order stays unpaid and says so; the customer may pay again. */
export const paymentDenied: Handler<"payment.denied"> = (notice, ctx) =>
  applyCapture(ctx, notice.orderId, {
    status: "denied",
    paymentId: notice.paymentId,
    amount: notice.amount,
    orderId: notice.orderId,
    reason: null,
  });
