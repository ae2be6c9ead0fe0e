/**
 * Refunds of an order's payment (issue 34 part 3, decision 067): how much of the price went back, whether that is the
 * whole payment or a part, and whether a refund asked for from the order screen may be made. Pure: the refunds
 * service (server/services/payments/refunds.ts) and the order screen call these, so the rule lives here alone.
 * Money is whole cents; a typed amount is read exactly (moneyCents), never through a float.
 */
import { moneyCents } from "./payment-check";

/** PayPal refuses to refund a payment more than this many days after it was taken. */
export const REFUND_WINDOW_DAYS = 180;
const DAY_MS = 86_400_000;

/** Where the order screen's refund button would be, for a Payments Standard payment (the REST API cannot refund it). */
export const REFUND_IN_DASHBOARD =
  "Refund this payment in PayPal's dashboard: it was taken through PayPal Payments Standard, which this site cannot refund. PayPal then tells this site, and the order follows.";

/** An order's price (a stored decimal) as whole cents. */
export const priceCents = (price: number): number => Math.round(price * 100);

/** Whole cents as PayPal's decimal string: 1234 → "12.34". */
export const centsValue = (cents: number): string =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export type RefundKind = "none" | "part" | "whole";

export interface RefundTally {
  /** What went back so far, in cents (every refund that counts). */
  refundedCents: number;
  /** What may still be refunded, in cents (never below zero). */
  remainingCents: number;
  /** None yet; a part (the order stays paid and keeps its days); the whole price (the order is Refunded). */
  kind: RefundKind;
}

/** The refunds of one payment, whatever their order: what went back, what is left, and whether it is the whole. */
export function tallyRefunds(price: number, refunds: readonly number[]): RefundTally {
  const due = priceCents(price);
  const refundedCents = refunds.reduce((sum, cents) => sum + cents, 0);
  const remainingCents = Math.max(0, due - refundedCents);
  const kind: RefundKind = refundedCents <= 0 ? "none" : refundedCents >= due ? "whole" : "part";
  return { refundedCents, remainingCents, kind };
}

/** The last moment PayPal still refunds a payment taken at `paidAt`. */
export const refundDeadline = (paidAt: Date): Date => new Date(paidAt.getTime() + REFUND_WINDOW_DAYS * DAY_MS);

export interface RefundRequest {
  /** The order's price (its stored decimal) and when it was paid. */
  price: number;
  paidAt: Date;
  /** The refunds that count so far, in cents. */
  refunds: readonly number[];
  /** What the staff member typed: blank means everything that is left. */
  amount: string;
  now: Date;
}

export type RefundDecision =
  { ok: true; cents: number; whole: boolean } | { ok: false; field: "amount" | null; message: string };

/**
 * Whether a refund of `amount` may be asked of PayPal now: more than zero, at most two decimals, at most what is left,
 * within PayPal's 180 days. `whole`: this refund brings the refunds to the price.
 */
export function decideRefund(request: RefundRequest): RefundDecision {
  const { remainingCents } = tallyRefunds(request.price, request.refunds);
  if (remainingCents <= 0)
    return { ok: false, field: null, message: "This payment has been refunded in full already." };
  if (request.now.getTime() > refundDeadline(request.paidAt).getTime())
    return {
      ok: false,
      field: null,
      message: `PayPal refunds a payment only within ${REFUND_WINDOW_DAYS} days: this one can no longer be refunded through PayPal.`,
    };
  const typed = request.amount.trim().replace(/^\$\s*/, "");
  let cents = remainingCents;
  if (typed !== "") {
    if (!/^\d+(\.\d+)?$/.test(typed))
      return { ok: false, field: "amount", message: "Enter the amount in dollars, such as 25 or 25.50." };
    if (!/^\d+(\.\d{1,2})?$/.test(typed))
      return { ok: false, field: "amount", message: "Enter the amount with at most two decimals, such as 25.50." };
    const parsed = moneyCents(typed);
    if (parsed === null)
      return { ok: false, field: "amount", message: "Enter the amount in dollars, such as 25 or 25.50." };
    cents = parsed;
  }
  if (cents <= 0) return { ok: false, field: "amount", message: "Enter an amount greater than zero." };
  if (cents > remainingCents)
    return {
      ok: false,
      field: "amount",
      message: `At most $${centsValue(remainingCents)} is left to refund on this payment.`,
    };
  return { ok: true, cents, whole: cents === remainingCents };
}
