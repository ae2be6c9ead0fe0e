/**
 * The billing plan a subscription on PayPal's Subscriptions API is made on (issue 34 part 4, decision 070): a package's
 * period, its regular price, and a first-payment discount as one trial cycle. One rule, read by the pay screen (whether
 * a package can be subscribed to, and its terms) and the plans service (the plan it makes or reuses). Money is in
 * cents and decimal strings; the prices themselves come from subscriptionTerms (decision 049), the rule the Standard
 * listener and the renewal orders read too.
 */
import type { Currency } from "./currency";
import { toCents } from "./discounts";
import { paypalPeriod } from "./subscription";
import { paymentDue, subscriptionTerms, type PricedOrder } from "./subscription-price";

export type PlanUnit = "DAY" | "WEEK" | "MONTH" | "YEAR";

/** The most of each unit one billing cycle of the Subscriptions API may span (PayPal's `frequency.interval_count`). */
export const PLAN_UNIT_MAX: Record<PlanUnit, number> = { DAY: 365, WEEK: 52, MONTH: 12, YEAR: 1 };

const UNIT_OF = { D: "DAY", W: "WEEK", M: "MONTH", Y: "YEAR" } as const;

/** What makes two plans different: period, currency, each regular payment, the first payment (a trial cycle). */
export interface PlanTerms {
  period: { unit: PlanUnit; count: number };
  /** The order's currency (decision 072): a plan is in one currency. */
  currency: Currency;
  /** Each regular period's price, "25.00". */
  amount: string;
  /** The first period's price when a code discounts the first payment only (one TRIAL cycle), else null. */
  firstPayment: string | null;
}

/** Cents as PayPal's decimal string: 1250 → "12.50". */
export const centsToValue = (cents: number): string => {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
};

/**
 * The period of one billing cycle for a package's validity, as decision 046 reads it (days up to 90, else whole weeks,
 * months of 30 days or years of 365), or null when the Subscriptions API cannot bill it: it takes at most 12 months or
 * one year a cycle, where Payments Standard took 24 months or 5 years.
 */
export function planPeriod(validityDays: number): PlanTerms["period"] | null {
  const period = paypalPeriod(validityDays);
  if (!period) return null;
  const unit = UNIT_OF[period.t3];
  return period.p3 <= PLAN_UNIT_MAX[unit] ? { unit, count: period.p3 } : null;
}

/**
 * The plan terms of a subscription started by `order` (its price columns as placed, and the package's validity), or
 * null when it cannot renew on the Subscriptions API: a period PayPal cannot bill, or nothing to pay.
 */
export function planTerms(order: PricedOrder & { packageValidity: number; currency?: Currency }): PlanTerms | null {
  const period = planPeriod(order.packageValidity);
  if (!period || toCents(order.packagePrice) <= 0) return null;
  const terms = subscriptionTerms(order);
  const first = toCents(paymentDue(terms, 1));
  const regular = toCents(paymentDue(terms, 2));
  return {
    period,
    currency: order.currency ?? "USD",
    amount: centsToValue(regular),
    firstPayment: terms.intro !== null && first !== regular ? centsToValue(first) : null,
  };
}

/** The terms as one key (the plan's PayPal-Request-Id is made from it, with the package): equal terms, equal keys. */
export const planKey = (packageId: string, t: PlanTerms): string =>
  [packageId, `${t.period.count}${t.period.unit}`, t.currency, t.amount, t.firstPayment ?? "-"].join("|");
