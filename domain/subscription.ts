/**
 * PayPal subscriptions (decision 046): which package validities PayPal can bill as a period, and the words shown
 * about a subscription. Pure, shared by the pricing form, the pay page, the listener and the simulator.
 */
import { z } from "zod";

/** PayPal's billing period: p3 units of t3 (D days 1–90, W weeks 1–52, M months 1–24, Y years 1–5). */
export interface PayPalPeriod {
  p3: number;
  t3: "D" | "W" | "M" | "Y";
}

/** What the pricing screen says when a package that renews automatically has a validity PayPal cannot bill. */
export const AUTO_RENEW_REFUSED =
  "PayPal can renew a validity of up to 90 days, or whole weeks (up to 52), months (30 days each, up to 12) or one year (365 days): change the validity or turn automatic renewal off";

/**
 * The PayPal period of a package's validity in days, or null when PayPal cannot express it: up to 90 days as days;
 * beyond, a multiple of 365 as years, of 30 as months, of 7 as weeks. Each payment gives exactly the validity's days
 * (the timeline's rule), so a month is 30 days and a year 365: decision 046 says what that means for the calendar.
 */
export function paypalPeriod(validityDays: number): PayPalPeriod | null {
  if (!Number.isInteger(validityDays) || validityDays < 1) return null;
  if (validityDays <= 90) return { p3: validityDays, t3: "D" };
  if (validityDays % 365 === 0 && validityDays / 365 <= 5) return { p3: validityDays / 365, t3: "Y" };
  if (validityDays % 30 === 0 && validityDays / 30 <= 24) return { p3: validityDays / 30, t3: "M" };
  if (validityDays % 7 === 0 && validityDays / 7 <= 52) return { p3: validityDays / 7, t3: "W" };
  return null;
}

const UNIT_DAYS = { D: 1, W: 7, M: 30, Y: 365 } as const;

/** The days one PayPal period stands for (the inverse of paypalPeriod), or null for a period PayPal never sends. */
export function periodDays(period: string | null | undefined): number | null {
  const m = /^\s*(\d{1,3})\s+([DWMY])\s*$/.exec(period ?? "");
  if (!m) return null;
  return Number(m[1]) * UNIT_DAYS[m[2] as keyof typeof UNIT_DAYS];
}

const UNIT_WORDS = { D: "day", W: "week", M: "month", Y: "year" } as const;

/**
 * A PayPal period as a person reads it after "every": "30 D" is "30 days", "1 M" is "month", "2 Y" is "2 years";
 * anything else is returned as it came.
 */
export function periodWords(period: string): string {
  const m = /^\s*(\d{1,3})\s+([DWMY])\s*$/.exec(period);
  if (!m) return period.trim();
  const n = Number(m[1]);
  const unit = UNIT_WORDS[m[2] as keyof typeof UNIT_WORDS];
  return n === 1 ? unit : `${n} ${unit}s`;
}

/**
 * When PayPal takes the payment after `payments` of them (PayPal's own schedule: the first payment's moment plus that
 * many periods, months and years on the calendar, a day that month lacks clamped to its last). Null before the first
 * payment, or for a period PayPal cannot bill.
 */
export function nextPaymentDate(firstPaidAt: Date | null, validityDays: number, payments: number): Date | null {
  const period = paypalPeriod(validityDays);
  if (!firstPaidAt || !period || payments < 1) return null;
  const n = period.p3 * payments;
  if (period.t3 === "D" || period.t3 === "W") {
    return new Date(firstPaidAt.getTime() + n * (period.t3 === "D" ? 1 : 7) * 86_400_000);
  }
  const months = period.t3 === "M" ? n : n * 12;
  const d = new Date(firstPaidAt.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The subscription a cancel form names (its id in our table). */
export const subscriptionIdSchema = z.object({
  subscriptionId: z.uuid({ message: "Choose a subscription to cancel." }),
});

/** The statuses of a subscription: it renews, it was cancelled (the time paid for remains), or PayPal ended it. */
export const SUBSCRIPTION_STATUSES = ["active", "cancelled", "ended"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The PayPal notifications (txn_type) about subscriptions, by what they do. */
export const SUBSCRIPTION_TXN_TYPES = {
  signup: ["subscr_signup"],
  payment: ["subscr_payment", "recurring_payment"],
  cancel: ["subscr_cancel", "recurring_payment_profile_cancel"],
  failed: ["subscr_failed", "recurring_payment_failed", "recurring_payment_skipped"],
  end: ["subscr_eot", "recurring_payment_expired"],
} as const;
export type SubscriptionNotice = keyof typeof SUBSCRIPTION_TXN_TYPES;

/** What a txn_type is about, or null when it is no subscription notification. */
export function subscriptionNotice(txnType: string | null): SubscriptionNotice | null {
  if (!txnType) return null;
  for (const [kind, types] of Object.entries(SUBSCRIPTION_TXN_TYPES) as [SubscriptionNotice, readonly string[]][])
    if (types.includes(txnType)) return kind;
  return null;
}

/**
 * A subscription's status after a notice (the one rule the subscriptions service applies): a cancellation stops an
 * active one (and is kept when it comes before the sign-up); the end of term ends any; a sign-up, a payment or a failure
 * never brings a cancelled or ended one back.
 */
export function nextSubscriptionStatus(
  current: SubscriptionStatus | null,
  notice: SubscriptionNotice,
): SubscriptionStatus {
  if (notice === "end") return "ended";
  if (notice === "cancel") return current === "ended" ? "ended" : "cancelled";
  return current ?? "active";
}

/** PayPal's subscription id of a notification: subscr_id (Website Payments Standard) or recurring_payment_id. */
export const subscrIdOf = (params: URLSearchParams): string | null =>
  params.get("subscr_id") || params.get("recurring_payment_id") || null;

/** What the listener does with a verified, checked subscription payment (amount, currency and receiver already ours). */
export type PaymentDecision =
  /** The first payment: the order the customer placed becomes Paid. */
  | { kind: "pay-order" }
  /** A later period's payment: a new paid order, laid after the current window. */
  | { kind: "renew" }
  | { kind: "duplicate"; reason: string }
  | { kind: "refuse"; reason: string };

/**
 * The one rule for a subscription payment: a transaction id applies once; a subscription belongs to the order that
 * started it; nothing renews after a cancellation or the end of term; the first payment pays the order, each later one
 * renews it. A payment that comes before its sign-up is fine (no subscription yet).
 */
export function decideSubscriptionPayment(input: {
  subscription: { orderId: string; status: SubscriptionStatus } | null;
  order: { id: string; paymentStatus: string };
  /** Whether this transaction id already paid or renewed an order. */
  txnApplied: boolean;
  /** Whether the listener refused this subscription's sign-up (terms we did not ask for): none of its money applies. */
  signupRefused?: boolean;
}): PaymentDecision {
  const { subscription, order, txnApplied } = input;
  if (txnApplied) return { kind: "duplicate", reason: "this transaction was already applied" };
  if (input.signupRefused)
    return {
      kind: "refuse",
      reason:
        "the subscription's sign-up was refused (terms the order did not ask for): nothing paid (refund it on PayPal)",
    };
  if (subscription && subscription.orderId !== order.id)
    return { kind: "refuse", reason: "the subscription belongs to another order" };
  if (subscription && subscription.status !== "active")
    return {
      kind: "refuse",
      reason: `a payment on a subscription ${subscription.status}: nothing renewed (refund it on PayPal)`,
    };
  if (order.paymentStatus === "UnPaid") return { kind: "pay-order" };
  if (order.paymentStatus === "Paid") return { kind: "renew" };
  return { kind: "refuse", reason: `the subscription's order is ${order.paymentStatus}: nothing renewed` };
}

/** A subscription's payments so far, as the back office words them ("1 payment so far", "3 payments so far"). */
export const paymentsSoFar = (n: number): string => `${n === 1 ? "1 payment" : `${n} payments`} so far`;

/** A subscription's status as the back office shows it. */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: "Renews automatically",
  cancelled: "Cancelled",
  ended: "Ended",
};
