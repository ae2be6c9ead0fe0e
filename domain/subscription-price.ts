/**
 * What a PayPal subscription takes, payment by payment (issue 27, part 6; decisions 046 and 049). One rule, read by the
 * subscribe form (what PayPal is told), the listener (what each payment must be), the renewal order (what it costs)
 * and the simulator (what it takes):
 *
 * - no code, or a code on every period: each payment is the order's price (the discounted one for a code);
 * - a code on the first period only: PayPal's introductory period (a1, one period of the package's length) is the
 *   order's discounted price, then each regular payment (a3) is the package's price when the order was placed
 *   (`priceBefore`), without the discount.
 */
import { toCents, type DiscountPeriod } from "./discounts";

/** What PayPal is told to take: an introductory first payment (a1, or null for none), then every regular one (a3). */
export interface SubscriptionTerms {
  intro: number | null;
  regular: number;
}

/** An order as the rule reads it (orders' columns; decision 049). */
export interface PricedOrder {
  /** What the order costs: after its code, when it has one. */
  packagePrice: number;
  /** The package's price before the code; null without a code. */
  priceBefore: number | null;
  discountAmount: number;
  /** The code's period as it was when the order was placed; null without a code. */
  discountPeriod: DiscountPeriod | null;
}

const dollars = (cents: number) => cents / 100;

/** PayPal's terms for a subscription started by `order`. */
export function subscriptionTerms(order: PricedOrder): SubscriptionTerms {
  const price = dollars(toCents(order.packagePrice));
  if (order.discountPeriod === "first" && order.priceBefore !== null && toCents(order.discountAmount) > 0)
    return { intro: price, regular: dollars(toCents(order.priceBefore)) };
  return { intro: null, regular: price };
}

/** What PayPal should take for payment `n` of the subscription (1 is the first): a1 for the first when there is one, else a3. */
export function paymentDue(terms: SubscriptionTerms, n: number): number {
  return n <= 1 && terms.intro !== null ? terms.intro : terms.regular;
}

/**
 * The price columns of a renewal (payment 2 onwards) of a subscription started by `order`: its price is paymentDue of a
 * later payment; a code on every period is carried (price before, discount, code: the renewal is no new use of it);
 * a code on the first period only is not (the full price, no code).
 */
export function renewalPrice(order: PricedOrder): {
  packagePrice: number;
  carriesDiscount: boolean;
  priceBefore: number | null;
  discountAmount: number;
} {
  const terms = subscriptionTerms(order);
  const packagePrice = paymentDue(terms, 2);
  const carriesDiscount = order.discountPeriod === "every" && order.priceBefore !== null;
  return carriesDiscount
    ? { packagePrice, carriesDiscount, priceBefore: order.priceBefore, discountAmount: order.discountAmount }
    : { packagePrice, carriesDiscount, priceBefore: null, discountAmount: 0 };
}

/** PayPal's form fields for the terms: a1/p1/t1 (when there is an introductory payment) and a3/p3/t3. */
export function subscriptionFields(
  terms: SubscriptionTerms,
  period: { p3: number; t3: string },
): Record<string, string> {
  return {
    ...(terms.intro !== null ? { a1: terms.intro.toFixed(2), p1: String(period.p3), t1: period.t3 } : {}),
    a3: terms.regular.toFixed(2),
    p3: String(period.p3),
    t3: period.t3,
  };
}

/** The terms a subscribe form asked PayPal for (the simulator reads them back): null when a3 is not an amount. */
export function termsOfFields(fields: Record<string, string | undefined>): SubscriptionTerms | null {
  const amount = (v: string | undefined) => (v && /^\d+(\.\d{1,2})?$/.test(v) ? dollars(toCents(Number(v))) : null);
  const regular = amount(fields.a3);
  const intro = fields.a1 === undefined ? null : amount(fields.a1);
  if (regular === null || (fields.a1 !== undefined && intro === null)) return null;
  return { intro, regular };
}
