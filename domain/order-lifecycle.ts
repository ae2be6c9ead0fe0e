/**
 * What may happen to an order, as one pure function of its state and an event. The order commands
 * (server/services/orders/commands.ts) apply it before they write, and the membership property tests replay it, so a
 * rule about an order's statuses lives here and nowhere else.
 */
import type { OrderStatus, PaymentMethod, PaymentStatus } from "./vocabulary";

/** The part of an order its events change. */
export interface OrderState {
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  /** When it last became Paid (null while it is not, and after it is set back to UnPaid). */
  paidAt: Date | null;
  /** When it was last set Delivered (null while Pending). */
  deliveredAt: Date | null;
  /** PayPal's transaction id of the payment, once verified. */
  txnId: string | null;
}

export type OrderEvent =
  /** A payment: PayPal verified it (txnId), or the studio marked it Paid by hand. `deliver`: activate it at once. */
  | {
      type: "pay";
      at: Date;
      txnId?: string;
      deliver?: boolean;
      /** How it was paid (stored on the order): PayPal with a txnId, else By hand unless said (a Bank transfer). */
      method?: PaymentMethod;
      /** The bank transfer's reference. */
      reference?: string;
    }
  /** The studio sets the order Delivered: its membership starts (if it is paid). */
  | { type: "deliver"; at: Date }
  /** The studio sets a delivered order back to Pending. */
  | { type: "undeliver"; at: Date }
  /** The customer cancels an unpaid order (PayPal's cancel page, or My Orders). */
  | { type: "cancel"; at: Date }
  /** A refund: the studio sets Refunded, or PayPal reports the payment refunded. */
  | {
      type: "refund";
      at: Date;
      /** The studio's note to the customer, for the refund mail (a refund made from the order screen). */
      note?: string | null;
    }
  /** PayPal reports the payment reversed (a chargeback): the same as a refund for the membership. */
  | { type: "reverse"; at: Date }
  /** The studio sets the order back to UnPaid. */
  | { type: "unpay"; at: Date };

export type EventType = OrderEvent["type"];

export type Transition =
  | { kind: "unchanged"; state: OrderState }
  | { kind: "changed"; state: OrderState }
  | { kind: "refused"; reason: string };

const changed = (state: OrderState): Transition => ({ kind: "changed", state });
const unchanged = (state: OrderState): Transition => ({ kind: "unchanged", state });

/**
 * The order after the event. An event that changes nothing (a second payment of a Paid order, a second refund) is
 * "unchanged", so a replay is harmless; one the order cannot take (cancelling what was paid) is "refused" with the
 * sentence the customer or the studio reads.
 */
export function applyOrderEvent(state: OrderState, event: OrderEvent): Transition {
  switch (event.type) {
    case "pay": {
      const deliver = event.deliver && state.orderStatus === "Pending";
      if (state.paymentStatus === "Paid") return unchanged(state);
      return changed({
        ...state,
        paymentStatus: "Paid",
        paidAt: event.at,
        txnId: event.txnId ?? state.txnId,
        ...(deliver ? { orderStatus: "Delivered" as const, deliveredAt: event.at } : {}),
      });
    }
    case "deliver":
      if (state.orderStatus === "Delivered") return unchanged(state);
      return changed({ ...state, orderStatus: "Delivered", deliveredAt: event.at });
    case "undeliver":
      if (state.orderStatus === "Pending") return unchanged(state);
      return changed({ ...state, orderStatus: "Pending", deliveredAt: null });
    case "cancel":
      if (state.paymentStatus === "Cancelled") return unchanged(state);
      if (state.paymentStatus !== "UnPaid")
        return { kind: "refused", reason: `This order is ${state.paymentStatus} and can no longer be cancelled.` };
      return changed({ ...state, paymentStatus: "Cancelled" });
    case "refund":
    case "reverse":
      if (state.paymentStatus === "Refunded") return unchanged(state);
      return changed({ ...state, paymentStatus: "Refunded" });
    case "unpay":
      if (state.paymentStatus === "UnPaid") return unchanged(state);
      return changed({ ...state, paymentStatus: "UnPaid", paidAt: null });
  }
}

/** The event an administrator's payment status stands for (the order screen offers Paid, UnPaid and Refunded). */
export function paymentStatusEvent(status: PaymentStatus, at: Date): OrderEvent {
  switch (status) {
    case "Paid":
      return { type: "pay", at };
    case "UnPaid":
      return { type: "unpay", at };
    case "Refunded":
      return { type: "refund", at };
    case "Cancelled":
      return { type: "cancel", at };
  }
}

/** The event an administrator's order status stands for. */
export const orderStatusEvent = (status: OrderStatus, at: Date): OrderEvent =>
  status === "Delivered" ? { type: "deliver", at } : { type: "undeliver", at };
