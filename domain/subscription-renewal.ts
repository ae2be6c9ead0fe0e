/**
 * What a customer is told about their PayPal subscriptions (issue 27, part 4; decision 046): whether their membership
 * renews by itself and when, the words for a subscription's status, and where they cancel one. Pure, shared by the
 * dashboard, /account/subscriptions and the reminders.
 */
import type { SubscriptionStatus } from "./subscription";

/** A subscription as these rules read it (SubscriptionView's fields). */
export interface RenewingSubscription {
  status: SubscriptionStatus;
  /** When PayPal takes the next payment (null unless active and paid once). */
  nextPaymentAt: Date | null;
  /** What PayPal takes then (null when nothing is due). */
  nextAmount: number | null;
}

/** The next automatic renewal: when and how much. */
export interface Renewal {
  at: Date;
  amount: number;
}

/**
 * The renewal that carries a membership on: the earliest next payment among the active subscriptions, or null when
 * none will renew it (none, all cancelled or ended, or none paid yet). A cancelled subscription's paid time remains,
 * but nothing renews it: its membership ends.
 */
export function renewalOf(subscriptions: readonly RenewingSubscription[]): Renewal | null {
  let best: Renewal | null = null;
  for (const s of subscriptions) {
    if (s.status !== "active" || !s.nextPaymentAt || s.nextAmount === null) continue;
    if (!best || s.nextPaymentAt.getTime() < best.at.getTime()) best = { at: s.nextPaymentAt, amount: s.nextAmount };
  }
  return best;
}

/** A subscription's status in the customer's words. */
export const SUBSCRIPTION_STATUS_WORDS: Record<SubscriptionStatus, string> = {
  active: "Renews automatically",
  cancelled: "Cancelled",
  ended: "Ended",
};

export type PayPalMode = "live" | "sandbox" | "simulator";

/** PayPal's page of a customer's automatic payments, where a subscription is cancelled. */
export const PAYPAL_AUTOPAY = {
  live: "https://www.paypal.com/myaccount/autopay/",
  sandbox: "https://www.sandbox.paypal.com/myaccount/autopay/",
} as const;

/** Where a customer cancels a subscription, in one sentence and a link: PayPal's page, or the simulator's locally. */
export function cancelPlace(mode: PayPalMode): { href: string; label: string; sentence: string; external: boolean } {
  if (mode === "simulator")
    return {
      href: "/paypal-simulator",
      label: "Open the PayPal simulator",
      sentence: "Test mode: cancel a subscription on the built-in PayPal simulator's page.",
      external: false,
    };
  return {
    href: PAYPAL_AUTOPAY[mode],
    label: "Open automatic payments on PayPal",
    sentence:
      "To cancel, sign in to PayPal, open your automatic payments, choose ours and cancel it. The time you have paid for stays yours.",
    external: true,
  };
}
