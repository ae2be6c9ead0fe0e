import { z } from "zod";

/**
 * PayPal's REST shapes as its API reference documents them (Orders v2, Payments v2, Catalog Products v1, Subscriptions
 * v1, Webhooks v1), reduced to the fields this product reads. Answers are parsed with these (unknown fields pass
 * through), so a changed answer fails loudly at the edge instead of deep in a handler. The simulator answers in them.
 */

export const money = z.object({ currency_code: z.string().length(3), value: z.string() });
export type Money = z.infer<typeof money>;

export const link = z.object({ href: z.string(), rel: z.string(), method: z.string().optional() });

/** PayPal's error body (`name`, `message`, `debug_id`, `details[]`), e.g. UNPROCESSABLE_ENTITY / REFUND_TIME_LIMIT_EXCEEDED. */
export const errorBody = z.object({
  name: z.string(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z
    .array(
      z.object({
        issue: z.string(),
        description: z.string().optional(),
        field: z.string().optional(),
        value: z.string().optional(),
        location: z.string().optional(),
      }),
    )
    .optional(),
  links: z.array(link).optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** The OAuth2 server's own error shape (RFC 6749), e.g. `invalid_client`. */
export const oauthError = z.object({ error: z.string(), error_description: z.string().optional() });

export const accessToken = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  scope: z.string().optional(),
  app_id: z.string().optional(),
  nonce: z.string().optional(),
});

export const captureStatus = z.enum([
  "COMPLETED",
  "DECLINED",
  "PARTIALLY_REFUNDED",
  "PENDING",
  "REFUNDED",
  "FAILED",
  "REVERSED",
  "DENIED",
]);

export const capture = z.object({
  id: z.string(),
  status: captureStatus,
  status_details: z.object({ reason: z.string() }).optional(),
  amount: money,
  invoice_id: z.string().optional(),
  custom_id: z.string().optional(),
  final_capture: z.boolean().optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
  links: z.array(link).optional(),
});
export type Capture = z.infer<typeof capture>;

export const orderStatus = z.enum(["CREATED", "SAVED", "APPROVED", "VOIDED", "COMPLETED", "PAYER_ACTION_REQUIRED"]);

export const order = z.object({
  id: z.string(),
  status: orderStatus,
  intent: z.enum(["CAPTURE", "AUTHORIZE"]).optional(),
  purchase_units: z
    .array(
      z.object({
        reference_id: z.string().optional(),
        amount: money.optional(),
        invoice_id: z.string().optional(),
        custom_id: z.string().optional(),
        payments: z.object({ captures: z.array(capture).optional() }).optional(),
      }),
    )
    .optional(),
  payment_source: z.record(z.string(), z.unknown()).optional(),
  links: z.array(link).optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
});
export type Order = z.infer<typeof order>;

/** What we ask of Orders v2's create (intent CAPTURE, one purchase unit, the buyer's way back). */
export interface CreateOrder {
  intent: "CAPTURE";
  purchase_units: {
    reference_id?: string;
    description?: string;
    invoice_id?: string;
    custom_id?: string;
    amount: Money;
  }[];
  payment_source?: {
    paypal: {
      experience_context: {
        return_url: string;
        cancel_url: string;
        brand_name?: string;
        shipping_preference?: "NO_SHIPPING" | "GET_FROM_FILE" | "SET_PROVIDED_ADDRESS";
        user_action?: "PAY_NOW" | "CONTINUE";
      };
    };
  };
}

export const refund = z.object({
  id: z.string(),
  status: z.enum(["CANCELLED", "FAILED", "PENDING", "COMPLETED"]),
  amount: money.optional(),
  invoice_id: z.string().optional(),
  note_to_payer: z.string().optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
  links: z.array(link).optional(),
});
export type Refund = z.infer<typeof refund>;

export const product = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  type: z.string().optional(),
  create_time: z.string().optional(),
  links: z.array(link).optional(),
});

export interface CreateProduct {
  name: string;
  description?: string;
  type: "PHYSICAL" | "DIGITAL" | "SERVICE";
  category?: string;
}

export const intervalUnit = z.enum(["DAY", "WEEK", "MONTH", "YEAR"]);
export const billingCycle = z.object({
  frequency: z.object({ interval_unit: intervalUnit, interval_count: z.number().int().positive() }),
  tenure_type: z.enum(["REGULAR", "TRIAL"]),
  sequence: z.number().int().min(1).max(99),
  total_cycles: z.number().int().min(0).max(999),
  pricing_scheme: z.object({ fixed_price: money }).optional(),
});
export type BillingCycle = z.infer<typeof billingCycle>;

export const plan = z.object({
  id: z.string(),
  product_id: z.string(),
  name: z.string(),
  status: z.enum(["CREATED", "INACTIVE", "ACTIVE"]),
  description: z.string().optional(),
  billing_cycles: z.array(billingCycle).optional(),
  create_time: z.string().optional(),
  links: z.array(link).optional(),
});

export interface CreatePlan {
  product_id: string;
  name: string;
  description?: string;
  status?: "CREATED" | "INACTIVE" | "ACTIVE";
  billing_cycles: BillingCycle[];
  payment_preferences: {
    auto_bill_outstanding?: boolean;
    setup_fee_failure_action?: "CONTINUE" | "CANCEL";
    payment_failure_threshold?: number;
  };
}

export const subscriptionStatus = z.enum([
  "APPROVAL_PENDING",
  "APPROVED",
  "ACTIVE",
  "SUSPENDED",
  "CANCELLED",
  "EXPIRED",
]);

export const subscription = z.object({
  id: z.string(),
  status: subscriptionStatus,
  status_update_time: z.string().optional(),
  plan_id: z.string(),
  custom_id: z.string().optional(),
  start_time: z.string().optional(),
  quantity: z.string().optional(),
  billing_info: z
    .object({
      outstanding_balance: money.optional(),
      cycle_executions: z
        .array(
          z.object({
            tenure_type: z.enum(["REGULAR", "TRIAL"]),
            sequence: z.number(),
            cycles_completed: z.number(),
            cycles_remaining: z.number().optional(),
            total_cycles: z.number().optional(),
          }),
        )
        .optional(),
      last_payment: z.object({ amount: money, time: z.string() }).optional(),
      next_billing_time: z.string().optional(),
      failed_payments_count: z.number(),
    })
    .optional(),
  create_time: z.string().optional(),
  update_time: z.string().optional(),
  links: z.array(link).optional(),
});
export type Subscription = z.infer<typeof subscription>;

export interface CreateSubscription {
  plan_id: string;
  custom_id?: string;
  start_time?: string;
  application_context?: {
    brand_name?: string;
    return_url: string;
    cancel_url: string;
    shipping_preference?: "NO_SHIPPING" | "GET_FROM_FILE" | "SET_PROVIDED_ADDRESS";
    user_action?: "SUBSCRIBE_NOW" | "CONTINUE";
  };
}

export const webhook = z.object({
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.object({ name: z.string(), description: z.string().optional() })),
  links: z.array(link).optional(),
});
export type Webhook = z.infer<typeof webhook>;
export const webhookList = z.object({ webhooks: z.array(webhook) });

/** PayPal's webhook event envelope. */
export const webhookEvent = z.object({
  id: z.string(),
  event_version: z.string().optional(),
  create_time: z.string(),
  resource_type: z.string(),
  resource_version: z.string().optional(),
  event_type: z.string(),
  summary: z.string().optional(),
  resource: z.record(z.string(), z.unknown()),
  links: z.array(link).optional(),
});
export type WebhookEvent = z.infer<typeof webhookEvent>;

export const verification = z.object({ verification_status: z.enum(["SUCCESS", "FAILURE"]) });

/** The transmission headers PayPal sends with every webhook (lower-cased, as Node gives them). */
export const TRANSMISSION_HEADERS = {
  id: "paypal-transmission-id",
  time: "paypal-transmission-time",
  sig: "paypal-transmission-sig",
  certUrl: "paypal-cert-url",
  authAlgo: "paypal-auth-algo",
} as const;

/** The approval link of an order or subscription: `payer-action` (payment_source given) or `approve`. */
export const approvalLink = (links: { rel: string; href: string }[] | undefined) =>
  links?.find((l) => l.rel === "payer-action" || l.rel === "approve")?.href;
