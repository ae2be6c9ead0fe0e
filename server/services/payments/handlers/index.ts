import type { Notice, NoticeType } from "../provider";
import { checkoutApproved } from "./checkout-approved";
import type { Handled, Handler, HandlerContext } from "./context";
import { paymentCompleted } from "./payment-completed";
import { paymentDenied } from "./payment-denied";
import { paymentPending } from "./payment-pending";
import { paymentRefunded, paymentReversed } from "./payment-refunded";
import {
  subscriptionActivated,
  subscriptionCancelled,
  subscriptionExpired,
  subscriptionPayment,
  subscriptionPaymentFailed,
  subscriptionSuspended,
} from "./subscription";

export type { Handled, HandlerContext, NoticeOutcome } from "./context";

/** One handler per notice type (a missing one is a compile error): the controller dispatches here, with no chain. */
export const HANDLERS: { [T in NoticeType]: Handler<T> } = {
  "checkout.approved": checkoutApproved,
  "payment.completed": paymentCompleted,
  "payment.pending": paymentPending,
  "payment.denied": paymentDenied,
  "payment.refunded": paymentRefunded,
  "payment.reversed": paymentReversed,
  "subscription.activated": subscriptionActivated,
  "subscription.payment": subscriptionPayment,
  "subscription.payment-failed": subscriptionPaymentFailed,
  "subscription.cancelled": subscriptionCancelled,
  "subscription.suspended": subscriptionSuspended,
  "subscription.expired": subscriptionExpired,
};

/** A notice handed to its type's handler. */
export const handle = (notice: Notice, ctx: HandlerContext): Promise<Handled> =>
  (HANDLERS[notice.type] as Handler)(notice, ctx);
