/**
 * The choices of a sale made by hand (issue 35, part 7) as the page shows them: zod-free, for the browser's code (the
 * schema is domain/sales.ts).
 */

/** How a sale made by hand is settled: paid already (three ways), or a mail with the link to pay it. */
export const SALE_SETTLEMENTS = ["bank-transfer", "cash", "paypal", "pay-link"] as const;
export type SaleSettlement = (typeof SALE_SETTLEMENTS)[number];

/** The choices as staff read them. */
export const SALE_SETTLEMENT_LABELS: Record<SaleSettlement, string> = {
  "bank-transfer": "Paid by bank transfer",
  cash: "Paid in cash",
  paypal: "Paid by PayPal outside this site",
  "pay-link": "Not paid yet: email them the link to pay",
};

/** The most characters of a payment's reference (a bank transfer's, PayPal's transaction id, a cash receipt). */
export const SALE_REFERENCE_MAX = 120;
/** The most characters of the reason for another price. */
export const SALE_REASON_MAX = 200;

/** Why an erased customer cannot be sold to. */
export const ERASED_NO_SALE = "This customer's data has been erased: there is nobody to sell to.";
