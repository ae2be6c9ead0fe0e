import { z } from "zod";
import { billingCycle, money } from "../shapes";

// ── Request bodies the simulator accepts (PayPal's documented required fields) ───────────────────────────────────────
const experience = z.object({
  return_url: z.url(),
  cancel_url: z.url(),
  brand_name: z.string().max(127).optional(),
  shipping_preference: z.enum(["NO_SHIPPING", "GET_FROM_FILE", "SET_PROVIDED_ADDRESS"]).optional(),
  user_action: z.string().optional(),
});
const moneyIn = money.extend({ value: z.string().regex(/^\d{1,10}(\.\d{1,2})?$/, "must be an amount such as 10.00") });
export const createOrderBody = z.object({
  intent: z.enum(["CAPTURE", "AUTHORIZE"]),
  purchase_units: z
    .array(
      z.object({
        reference_id: z.string().max(256).optional(),
        description: z.string().max(127).optional(),
        invoice_id: z.string().max(127).optional(),
        custom_id: z.string().max(255).optional(),
        amount: moneyIn,
      }),
    )
    .min(1)
    .max(10),
  payment_source: z.object({ paypal: z.object({ experience_context: experience }) }).optional(),
  application_context: experience.optional(),
});
export const refundBody = z.object({
  amount: moneyIn.optional(),
  invoice_id: z.string().max(127).optional(),
  note_to_payer: z.string().max(255).optional(),
});
export const productBody = z.object({
  name: z.string().min(1).max(127),
  type: z.enum(["PHYSICAL", "DIGITAL", "SERVICE"]),
  description: z.string().max(256).optional(),
  category: z.string().optional(),
});
export const planBody = z.object({
  product_id: z.string().min(6).max(50),
  name: z.string().min(1).max(127),
  description: z.string().max(127).optional(),
  status: z.enum(["CREATED", "INACTIVE", "ACTIVE"]).optional(),
  billing_cycles: z.array(billingCycle).min(1).max(12),
  payment_preferences: z.object({
    auto_bill_outstanding: z.boolean().optional(),
    setup_fee_failure_action: z.enum(["CONTINUE", "CANCEL"]).optional(),
    payment_failure_threshold: z.number().int().min(0).max(999).optional(),
  }),
});
export const subscriptionBody = z.object({
  plan_id: z.string().min(3).max(50),
  custom_id: z.string().max(127).optional(),
  start_time: z.string().optional(),
  application_context: experience.optional(),
});
export const cancelBody = z.object({ reason: z.string().min(1).max(128) });
export const webhookBody = z.object({
  url: z.url().max(2048),
  event_types: z.array(z.object({ name: z.string().min(1) })).min(1),
});
export const verifyBody = z.object({
  auth_algo: z.string().min(1).max(100),
  cert_url: z.string().min(1).max(500),
  transmission_id: z.string().min(1).max(50),
  transmission_sig: z.string().min(1).max(500),
  transmission_time: z.string().min(1).max(100),
  webhook_id: z.string().min(1).max(50),
  webhook_event: z.record(z.string(), z.unknown()),
});
