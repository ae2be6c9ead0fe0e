/**
 * What an order costs, with its VAT (issue 35, decision 072): the package's price as entered (net or gross, as the
 * money settings say), less a discount code's part, taxed by `taxFor`. The order stores the gross as its price (what
 * PayPal is charged, what the invoice totals) and the VAT within it; a discount is kept on the same footing, so the
 * price before it less the discount is the price. The order form's summary, the server placing the order and a
 * subscription's later payments all price through here.
 */
import { centsOf, type Currency } from "./currency";
import { taxFor, type Tax, type TaxBuyer, type TaxSeller } from "./tax";
import { standardRate } from "./vat-rates";

export interface OrderPriceInput {
  seller: TaxSeller;
  currency: Currency;
  buyer: TaxBuyer;
  /** The package's price as entered (a decimal, as the catalogue stores it). */
  listPrice: number | string;
  /** The price after a discount code, on the same footing; null without one. */
  discountedPrice: number | string | null;
  /** The day of the sale, "YYYY-MM-DD" in the site's time zone. */
  day: string;
}

export interface OrderPrice {
  tax: Tax;
  /** What the order costs, VAT included: the order's price. */
  grossCents: number;
  /** With a code: the gross before it and what it took off (both VAT included when VAT is charged). */
  grossBeforeCents: number | null;
  discountCents: number;
}

export function orderPrice(input: OrderPriceInput): OrderPrice {
  const at = (price: number | string) =>
    taxFor({
      seller: input.seller,
      buyer: input.buyer,
      price: { cents: centsOf(price), currency: input.currency },
      date: input.day,
    });
  const tax = at(input.discountedPrice ?? input.listPrice);
  if (input.discountedPrice === null)
    return { tax, grossCents: tax.grossCents, grossBeforeCents: null, discountCents: 0 };
  const before = at(input.listPrice).grossCents;
  return { tax, grossCents: tax.grossCents, grossBeforeCents: before, discountCents: before - tax.grossCents };
}

/** What a later payment of a subscription reads of the order it renews. */
export interface RenewedTax {
  taxRate: number;
  taxCountry: string | null;
}

/**
 * The VAT within a subscription's later payment: PayPal charges the same gross each period, so the VAT is that gross's
 * part at the rate in force on the payment's day in the first order's country (a rate that changed meanwhile changes
 * the split, not the price). An untaxed first order (no rate) keeps none.
 */
export function renewalTax(first: RenewedTax, grossCents: number, day: string): { taxCents: number; taxRate: number } {
  if (first.taxRate === 0 || !first.taxCountry) return { taxCents: 0, taxRate: 0 };
  const rate = standardRate(first.taxCountry, day).basisPoints;
  const r = BigInt(rate);
  const gross = BigInt(grossCents);
  return { taxCents: Number((2n * gross * r + (10000n + r)) / (2n * (10000n + r))), taxRate: rate };
}
