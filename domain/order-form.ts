import { z } from "zod";
import { choice, requiredText } from "./fields";
import { ADMIN_PAYMENT_STATUSES, orderStatuses } from "./vocabulary";
import { orderCodeSchema } from "./discounts";

/** The order page's fields (spec 1: full name, address and country required); the rest comes from the package. */
export const orderFormSchema = z.object({
  customerName: requiredText("Full name", 120),
  customerAddress: requiredText("Address", 300),
  customerCountry: requiredText("Country", 80),
  /**
   * Optional (issue 35): a business's VAT number, checked for its country's form when the order is placed (the country
   * is known only then); blank for a consumer.
   */
  customerVatNumber: z.preprocess(
    // Blank or null (a form's value parsed once already) is no number.
    (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
    z
      .string({ error: "VAT number must be text" })
      .trim()
      .max(20, { error: "VAT number must be at most 20 characters" })
      .optional()
      .transform((v) => v ?? null),
  ),
  /** Optional (decision 049): the price is then computed on the server, or the field says why the code does not apply. */
  discountCode: orderCodeSchema,
});
export type OrderForm = z.infer<typeof orderFormSchema>;

/** What the administrator's order screen sets: a payment status it offers, an order status. */
export const paymentStatusSchema = z.object({
  paymentStatus: choice(ADMIN_PAYMENT_STATUSES),
});
export const orderStatusSchema = z.object({
  orderStatus: choice(orderStatuses.values),
});
