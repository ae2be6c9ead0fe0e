import { withDeps } from "#server/lib/with-deps.ts";
import type {
  CheckoutRequest,
  Money,
  PaymentProvider,
  PaymentResult,
  PlanRequest,
  Received,
  SubscriptionState,
} from "../provider";
import type { PayPalClient } from "./client";
import { noticeOf } from "./notices";
import {
  approvalLink,
  TRANSMISSION_HEADERS,
  type CreateOrder,
  type CreatePlan,
  type CreateSubscription,
  type Money as PayPalMoney,
  type Order,
} from "./shapes";

const paypalMoney = (m: Money): PayPalMoney => ({ currency_code: m.currency, value: m.value });
const ourMoney = (m: PayPalMoney): Money => ({ currency: m.currency_code, value: m.value });

const PAYMENT_STATUS: Record<string, PaymentResult["status"]> = {
  COMPLETED: "completed",
  PENDING: "pending",
  DECLINED: "denied",
  DENIED: "denied",
  FAILED: "denied",
  // Taken, then (partly) given back: the payment happened; its refunds and reversal arrive as notices of their own.
  PARTIALLY_REFUNDED: "completed",
  REFUNDED: "completed",
  REVERSED: "completed",
};
const CHECKOUT_STATUS: Record<string, "created" | "approved" | "captured" | "void"> = {
  CREATED: "created",
  SAVED: "created",
  PAYER_ACTION_REQUIRED: "created",
  APPROVED: "approved",
  COMPLETED: "captured",
  VOIDED: "void",
};
const SUBSCRIPTION_STATUS: Record<string, SubscriptionState["status"]> = {
  APPROVAL_PENDING: "pending",
  APPROVED: "pending",
  ACTIVE: "active",
  SUSPENDED: "suspended",
  CANCELLED: "cancelled",
  EXPIRED: "expired",
};

export interface PayPalProviderDeps {
  client: PayPalClient;
  /** PAYPAL_WEBHOOK_ID, or the one registered at the start; null until known (notifications are then refused). */
  webhookId: () => string | null;
  brandName: string;
}

function paymentOf(order: Order): PaymentResult {
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  if (!capture) throw new Error(`PayPal order ${order.id} has no capture`);
  return {
    status: PAYMENT_STATUS[capture.status] ?? "denied",
    paymentId: capture.id,
    amount: ourMoney(capture.amount),
    orderId: capture.custom_id ?? unit?.custom_id ?? null,
    reason: capture.status_details?.reason ?? null,
  };
}

/** The PayPal order a checkout creates: the amount to capture, named by our order, paid on PayPal's page. */
const checkoutOrder = (request: CheckoutRequest, brandName: string): CreateOrder => ({
  intent: "CAPTURE",
  purchase_units: [
    {
      reference_id: request.orderId,
      custom_id: request.orderId,
      invoice_id: request.orderNumber,
      description: request.description.slice(0, 127),
      amount: paypalMoney(request.amount),
    },
  ],
  payment_source: {
    paypal: {
      experience_context: {
        brand_name: brandName.slice(0, 127),
        return_url: request.returnUrl,
        cancel_url: request.cancelUrl,
        shipping_preference: "NO_SHIPPING",
        user_action: "PAY_NOW",
      },
    },
  },
});

/** A billing plan of the product: a first period at its own price when asked, then the regular one without end. */
function billingPlan(request: PlanRequest, productId: string): CreatePlan {
  const frequency = { interval_unit: request.period.unit, interval_count: request.period.count };
  return {
    product_id: productId,
    name: request.name.slice(0, 127),
    status: "ACTIVE",
    billing_cycles: [
      ...(request.firstPayment
        ? [
            {
              frequency,
              tenure_type: "TRIAL" as const,
              sequence: 1,
              total_cycles: 1,
              pricing_scheme: { fixed_price: paypalMoney(request.firstPayment) },
            },
          ]
        : []),
      {
        frequency,
        tenure_type: "REGULAR" as const,
        sequence: request.firstPayment ? 2 : 1,
        total_cycles: 0,
        pricing_scheme: { fixed_price: paypalMoney(request.amount) },
      },
    ],
    payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 3 },
  };
}

/** A subscription to a plan, named by our order, approved on PayPal's page. */
const subscriptionRequest = (
  request: Parameters<PaymentProvider["startSubscription"]>[0],
  brandName: string,
): CreateSubscription => ({
  plan_id: request.planId,
  custom_id: request.orderId,
  application_context: {
    brand_name: brandName.slice(0, 127),
    return_url: request.returnUrl,
    cancel_url: request.cancelUrl,
    shipping_preference: "NO_SHIPPING",
    user_action: "SUBSCRIBE_NOW",
  },
});

/** A webhook as it came: signed, JSON, a notice we know, and verified by PayPal against our webhook id. */
async function receive(
  { client, webhookId: configured }: PayPalProviderDeps,
  { headers, rawBody }: Parameters<PaymentProvider["receive"]>[0],
): Promise<Received> {
  const missing = Object.values(TRANSMISSION_HEADERS).filter((h) => !headers[h]);
  if (missing.length) return { verdict: "unsigned", reason: `no ${missing.join(", ")} header` };
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { verdict: "malformed", reason: "the body is not JSON" };
  }
  const parsed = noticeOf(body);
  if (parsed.kind === "malformed") return { verdict: "malformed", reason: parsed.reason };
  const webhookId = configured();
  if (!webhookId) return { verdict: "forged", reason: "no webhook id is configured to verify against" };
  // PayPal's own check (errors reach the controller: a 5xx, so PayPal sends the notification again).
  const verdict = await client.webhooks.verifySignature({
    headers,
    webhookId,
    event: body as Record<string, unknown>,
  });
  if (verdict !== "SUCCESS") return { verdict: "forged", reason: "PayPal's verify-webhook-signature: FAILURE" };
  return parsed.kind === "ignored"
    ? { verdict: "ignored", eventId: parsed.event.id, eventType: parsed.event.event_type }
    : { verdict: "accepted", notice: parsed.notice };
}

/**
 * PayPal Checkout (Orders v2), Payments v2 refunds and the Subscriptions API as a payment provider (decision 065).
 * Its webhooks are verified with PayPal's verify-webhook-signature against the configured webhook id.
 */
export function createPayPalProvider(deps: PayPalProviderDeps): PaymentProvider {
  const { client } = deps;

  return {
    name: "paypal",

    async createCheckout(request) {
      const order = await client.orders.create(checkoutOrder(request, deps.brandName), request.requestId);
      const approveUrl = approvalLink(order.links);
      if (!approveUrl) throw new Error(`PayPal order ${order.id} came without an approval link`);
      return { checkoutId: order.id, approveUrl };
    },

    async readCheckout(checkoutId) {
      const order = await client.orders.get(checkoutId);
      const status = CHECKOUT_STATUS[order.status] ?? "void";
      return { status, payment: status === "captured" ? paymentOf(order) : null };
    },

    async capture(checkoutId, requestId) {
      return paymentOf(await client.orders.capture(checkoutId, requestId));
    },

    async refund(paymentId, request) {
      const refund = await client.captures.refund(
        paymentId,
        {
          ...(request.amount ? { amount: paypalMoney(request.amount) } : {}),
          ...(request.noteToPayer ? { noteToPayer: request.noteToPayer } : {}),
          ...(request.invoiceId ? { invoiceId: request.invoiceId } : {}),
        },
        request.requestId,
      );
      return {
        refundId: refund.id,
        status: refund.status === "COMPLETED" ? "completed" : refund.status === "PENDING" ? "pending" : "failed",
        amount: refund.amount ? ourMoney(refund.amount) : (request.amount ?? { currency: "", value: "" }),
      };
    },

    async createPlan(request) {
      const product = await client.products.create(
        { name: request.name.slice(0, 127), type: "SERVICE" },
        `${request.requestId}-product`,
      );
      const plan = await client.plans.create(billingPlan(request, product.id), `${request.requestId}-plan`);
      return { planId: plan.id, productId: product.id };
    },

    async startSubscription(request) {
      const subscription = await client.subscriptions.create(
        subscriptionRequest(request, deps.brandName),
        request.requestId,
      );
      const approveUrl = approvalLink(subscription.links);
      if (!approveUrl) throw new Error(`PayPal subscription ${subscription.id} came without an approval link`);
      return { subscriptionId: subscription.id, approveUrl };
    },

    async readSubscription(subscriptionId) {
      const s = await client.subscriptions.get(subscriptionId);
      const last = s.billing_info?.last_payment;
      return {
        status: SUBSCRIPTION_STATUS[s.status] ?? "pending",
        nextBillingAt: s.billing_info?.next_billing_time ?? null,
        failedPayments: s.billing_info?.failed_payments_count ?? 0,
        lastPayment: last ? { amount: ourMoney(last.amount), at: last.time } : null,
      };
    },

    async cancelSubscription(subscriptionId, reason) {
      // The request id is the subscription's (it is cancelled once): a retried cancel is answered as the first was.
      await client.subscriptions.cancel(subscriptionId, reason.slice(0, 128), `cancel-${subscriptionId}`);
    },

    receive: withDeps(deps, receive),
  };
}
