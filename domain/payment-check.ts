/**
 * The one money check (issue 34, decision 065): whether a provider's payment may pay an order. Called by the return
 * capture, every payment notice's handler and the reconciliation job, so a rule about whose money counts lives here.
 */
import type { PaymentStatus } from "./vocabulary";

/** The currency of an order placed before orders kept their own (issue 35): US dollars, the spec's. */
export const ORDER_CURRENCY = "USD";

export interface PaymentCheckInput {
  /** The order the payment names (our id as the provider's custom_id), as stored; null when there is none. */
  order: {
    id: string;
    packagePrice: number;
    paymentStatus: PaymentStatus;
    txnId: string | null;
    /** The currency the order was placed in (decision 072). */
    currency: string;
  } | null;
  /** The order id the notice itself carries, when it carries one. */
  noticeOrderId: string | null;
  paymentId: string;
  amount: { currency: string; value: string };
  /** Our merchant account, and the one the payment went to when the provider names it. */
  receiver: { expected: string | null; actual: string | null };
  /** Whether this payment id already paid an order (a notice applied, or an order holding it). */
  appliedBefore: boolean;
  /**
   * A subscription's payment (decision 069): what its first payment and each later one are due (domain/subscription-
   * price.ts paymentDue of 1 and 2). The first pays the order while it is unpaid; on a Paid order the payment is a
   * renewal at the later price, not a second payment. Absent for a one-time payment (the order's price).
   */
  subscription?: { first: number; later: number } | null;
}

export type PaymentCheck =
  | { kind: "ok"; orderId: string }
  | { kind: "duplicate"; reason: string }
  /** `flag`: shown to staff (money arrived that does not match its order), not only stored. */
  | { kind: "refused"; reason: string; flag: boolean };

/** A provider's decimal amount as whole cents, exactly ("49", "49.5", "49.00"); null for anything else. */
export function moneyCents(value: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

const show = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export function checkPayment(input: PaymentCheckInput): PaymentCheck {
  const { order, amount } = input;
  if (!order) return { kind: "refused", reason: "the payment names no order of ours", flag: false };
  if (input.noticeOrderId !== null && input.noticeOrderId !== order.id)
    return { kind: "refused", reason: `the payment is for order ${input.noticeOrderId}, not ${order.id}`, flag: false };
  if (input.appliedBefore || order.txnId === input.paymentId)
    return { kind: "duplicate", reason: `payment ${input.paymentId} was applied before` };
  const refuse = (reason: string): PaymentCheck => ({ kind: "refused", reason, flag: true });
  const renewal = Boolean(input.subscription) && order.paymentStatus === "Paid";
  // A second payment for a paid (or refunded) order is money to give back, not a second membership; a subscription's
  // later payment on its paid order is a renewal.
  if ((order.paymentStatus === "Paid" && !renewal) || order.paymentStatus === "Refunded")
    return refuse(`the order is ${order.paymentStatus} already${order.txnId ? ` (payment ${order.txnId})` : ""}`);
  const { expected, actual } = input.receiver;
  if (expected !== null && actual !== null && actual !== expected)
    return refuse(`the payment went to ${actual}, not to our account ${expected}`);
  const { currency } = order;
  if (amount.currency !== currency) return refuse(`the payment is in ${amount.currency}, the order in ${currency}`);
  const paid = moneyCents(amount.value);
  const { subscription } = input;
  const due = Math.round(
    (subscription ? (renewal ? subscription.later : subscription.first) : order.packagePrice) * 100,
  );
  const what = subscription ? `this ${renewal ? "renewal" : "first"} payment's` : "the order's price";
  if (paid !== due)
    return refuse(
      `the payment is ${paid === null ? amount.value : show(paid)} ${currency}, ${what} ${show(due)} ${currency}`,
    );
  return { kind: "ok", orderId: order.id };
}
