import { z } from "zod";

/** The order page's fields (spec 1: full name, address and country required); the rest comes from the package. */
const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required` })
    .max(max, { error: `${label} must be at most ${max} characters` });

export const orderFormSchema = z.object({
  customerName: required("Full name", 120),
  customerAddress: required("Address", 300),
  customerCountry: required("Country", 80),
});
export type OrderForm = z.infer<typeof orderFormSchema>;

export const paymentStatusSchema = z.object({
  paymentStatus: z.enum(["Paid", "UnPaid", "Refunded"], { error: "Choose Paid, UnPaid or Refunded" }),
});
export const orderStatusSchema = z.object({
  orderStatus: z.enum(["Pending", "Delivered"], { error: "Choose Pending or Delivered" }),
});
