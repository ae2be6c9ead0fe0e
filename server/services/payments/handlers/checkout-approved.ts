import { ProviderRefusedError } from "../provider";
import { applyCapture, orderNamed, type Handler } from "./context";

/** The request id of an approved checkout's capture: the same from the return, this notice and the job. */
export const captureRequestId = (checkoutId: string) => `capture-${checkoutId}`;

/**
 * The buyer approved the checkout: capture it, in case they never come back to our return address (the same request
 * id as the return's capture, so PayPal takes the money once and answers both the same).
 */
export const checkoutApproved: Handler<"checkout.approved"> = async (notice, ctx) => {
  const order = await orderNamed(ctx.db, notice.orderId);
  if (!order) return { outcome: "refused", reason: "the checkout names no order of ours", orderId: null };
  if (order.paymentStatus === "Paid")
    return { outcome: "duplicate", reason: "the order is Paid already (captured on return)", orderId: order.id };
  try {
    return await applyCapture(
      ctx,
      order.id,
      await ctx.provider.capture(notice.checkoutId, captureRequestId(notice.checkoutId)),
    );
  } catch (error) {
    if (error instanceof ProviderRefusedError && error.status < 500)
      return { outcome: "refused", reason: `the capture was refused: ${error.refusal}`, orderId: order.id };
    throw error;
  }
};
