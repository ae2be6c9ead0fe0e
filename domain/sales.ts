/**
 * Sales made by hand (issue 35, part 7): staff make an order for a customer from their record, at a package's price or
 * at another price with the reason why, then record how it was paid (a bank transfer, cash, a PayPal payment taken
 * elsewhere) or send the customer the link to pay it. The form's and the REST call's schema, and how each way of being
 * paid is stored on the order (domain/vocabulary.ts paymentMethods). Pure: shared by the page, the API and the tests.
 */
import { z } from "zod";
import { centsOf } from "./currency";
import { requiredText, text } from "./fields";
import { orderFormSchema } from "./order-form";
import { sentence, type PaymentMethod } from "./vocabulary";
import { SALE_REASON_MAX, SALE_REFERENCE_MAX, SALE_SETTLEMENTS, type SaleSettlement } from "./sale-choices";

// The choices and bounds live apart from the schema (the page's browser code needs them, not zod).
export * from "./sale-choices";

/** What each settlement needs as its reference: required for a transfer and a PayPal payment, a note for cash. */
const REFERENCE_MISSING: Partial<Record<SaleSettlement, string>> = {
  "bank-transfer": "Enter the transfer's reference, as the bank statement shows it",
  paypal: "Enter PayPal's transaction id of the payment",
};

/** Absent, null or blank: none (null), so that the schema's own output parses again (a form's value, re-checked). */
const noneIfNull = (v: unknown) => (v === null ? undefined : v);
const optionalText = (label: string, max: number) =>
  z.preprocess(
    noneIfNull,
    text(label, max)
      .optional()
      .transform((v) => v || null),
  );

/** A price typed by staff: blank for the package's own; else an amount with at most two decimals, more than 0. */
const salePrice = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : noneIfNull(v)),
  text("Price", 20)
    .optional()
    .transform((v) => v || null)
    .superRefine((v, ctx) => {
      if (v === null) return;
      let cents: number;
      try {
        cents = centsOf(v);
      } catch {
        ctx.addIssue({ code: "custom", message: "Enter the price as an amount, such as 49 or 49.50" });
        return;
      }
      if (cents === 0)
        ctx.addIssue({
          code: "custom",
          message: "The price must be more than 0 (to give days free of charge, use Give days)",
        });
    }),
);

/** "on", "true" or true (a ticked box, the API's true); anything else absent or false. */
const tick = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], {
    error: "Must be true or false",
  })
  .optional()
  .transform((v) => v === true || v === "on" || v === "true");

/**
 * A sale made by hand, as the customer's record and `POST /api/customers/:id/orders` send it. The customer's name,
 * address, country and VAT number are the order form's fields (the page fills them in from their latest order); the
 * reason is required when the price differs from the package's, which only the server knows (`priceReasonProblem`).
 */
export const saleSchema = z
  .object({
    packageId: requiredText("Package", 100, "Choose a package"),
    price: salePrice,
    reason: optionalText("Reason", SALE_REASON_MAX),
    customerName: orderFormSchema.shape.customerName,
    customerAddress: orderFormSchema.shape.customerAddress,
    customerCountry: orderFormSchema.shape.customerCountry,
    customerVatNumber: z.preprocess(noneIfNull, orderFormSchema.shape.customerVatNumber),
    settle: z
      .string({ error: "Choose how it was paid" })
      .trim()
      .min(1, { error: "Choose how it was paid", abort: true })
      .pipe(z.enum(SALE_SETTLEMENTS, { error: `Choose ${sentence(SALE_SETTLEMENTS)}` })),
    reference: optionalText("Reference", SALE_REFERENCE_MAX),
    /** Start the membership at once when it is paid (a form's checkbox: absent is no). */
    activate: tick,
  })
  .superRefine((v, ctx) => {
    const missing = REFERENCE_MISSING[v.settle];
    if (missing && !v.reference) ctx.addIssue({ code: "custom", path: ["reference"], message: missing });
  });
export type SaleInput = z.infer<typeof saleSchema>;

/**
 * Why a sale's price is refused, or null: another price than the package's needs its reason (kept in the order's
 * activity for the staff). Amounts in whole cents, on the same footing (both as entered: net or gross as the money
 * settings say).
 */
export function priceReasonProblem(listCents: number, priceCents: number, reason: string | null): string | null {
  return priceCents !== listCents && !reason?.trim()
    ? "Say why the price differs from the package's (the staff see it in the order's activity)"
    : null;
}

/**
 * How a sale paid already is stored (issue 35, part 7): a bank transfer as a Bank transfer with its reference; cash as a
 * payment the studio received (By hand: no method of its own, so no migration of the orders' CHECK) whose reference
 * says "Cash" and the receipt's note if one was typed; a PayPal payment taken elsewhere as PayPal with its transaction
 * id as the reference, not as the order's PayPal transaction (no payment of this site's checkout to refund through
 * the API, which a txn_id would make the refund panel look for). A sale sent with the pay link is not paid: null.
 */
export function salePayment(
  settle: SaleSettlement,
  reference: string | null,
): { method: PaymentMethod; reference: string } | null {
  switch (settle) {
    case "bank-transfer":
      return { method: "Bank transfer", reference: reference ?? "" };
    case "cash":
      return { method: "By hand", reference: reference ? `Cash: ${reference}` : "Cash" };
    case "paypal":
      return { method: "PayPal", reference: reference ?? "" };
    case "pay-link":
      return null;
  }
}
