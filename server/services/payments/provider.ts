/**
 * What the payments module asks of a payment provider (decision 065). PayPal Checkout is the one provider for new
 * payments (payments/paypal/provider.ts); a second (Stripe) is a folder beside it implementing this interface. Amounts
 * are decimal strings in the currency's unit ("10.00"), as providers send them; no float ever holds money.
 */

/**
 * The provider answered and refused (a refund after its time limit, an amount over what is left …). Each provider's
 * client throws its own subclass; the shared services (checkout, refunds, subscribe) catch this one.
 */
export abstract class ProviderRefusedError extends Error {
  /** The provider's HTTP status: 4xx, it will refuse again; 5xx, it may not. */
  abstract readonly status: number;
  /** The provider's own words for why, as people are shown them. */
  abstract readonly refusal: string;
}

/** The provider could not be reached, or kept failing after the client's retries: nothing was done there. */
export class ProviderUnavailableError extends Error {}

/** The provider failed (refused, or could not be reached), as opposed to a failure of ours. */
export const providerFailed = (error: unknown): error is ProviderRefusedError | ProviderUnavailableError =>
  error instanceof ProviderRefusedError || error instanceof ProviderUnavailableError;

export interface Money {
  currency: string;
  value: string;
}

/** Every notice carries the provider's event id (stored once: a resent event is the same notice) and its time. */
interface NoticeBase {
  eventId: string;
  occurredAt: string;
  /** Our order's id, as we gave it to the provider (custom_id), when the event carries it. */
  orderId: string | null;
}

/** A provider's notification, parsed: one type per thing that happened, one handler per type. */
export type Notice =
  | (NoticeBase & { type: "checkout.approved"; checkoutId: string; amount: Money | null })
  | (NoticeBase & { type: "payment.completed"; paymentId: string; checkoutId: string | null; amount: Money })
  | (NoticeBase & {
      type: "payment.pending";
      paymentId: string;
      checkoutId: string | null;
      amount: Money;
      reason: string | null;
    })
  | (NoticeBase & { type: "payment.denied"; paymentId: string; checkoutId: string | null; amount: Money })
  | (NoticeBase & {
      type: "payment.refunded";
      refundId: string;
      paymentId: string | null;
      amount: Money;
      /** The note to the payer the refund carries (ours from the order screen, or typed in PayPal's dashboard). */
      note?: string | null;
    })
  | (NoticeBase & { type: "payment.reversed"; refundId: string; paymentId: string | null; amount: Money })
  | (NoticeBase & { type: "subscription.activated"; subscriptionId: string })
  | (NoticeBase & {
      type: "subscription.payment";
      subscriptionId: string;
      paymentId: string;
      amount: Money;
      /** A payment that waits (an eCheck: Payments Standard's Pending); absent or completed: the money arrived. */
      status?: "completed" | "pending";
      reason?: string | null;
    })
  | (NoticeBase & { type: "subscription.payment-failed"; subscriptionId: string })
  | (NoticeBase & { type: "subscription.cancelled"; subscriptionId: string })
  | (NoticeBase & { type: "subscription.suspended"; subscriptionId: string })
  | (NoticeBase & { type: "subscription.expired"; subscriptionId: string });
export type NoticeType = Notice["type"];

/**
 * What a received notification turned out to be, for the webhook controller: `unsigned` → 400, `forged` → 401,
 * `malformed` → 400, `accepted` → dispatched to its notice's handler (200, or 5xx when we fail so the provider sends it
 * again); `ignored` (an event type we do not act on) → 200 and stored with that outcome.
 */
export type Received =
  | { verdict: "unsigned"; reason: string }
  | { verdict: "forged"; reason: string }
  | { verdict: "malformed"; reason: string }
  | { verdict: "ignored"; eventId: string; eventType: string }
  | { verdict: "accepted"; notice: Notice };

export interface CheckoutRequest {
  /** Our order's id (custom_id) and number (invoice_id, shown to the buyer). */
  orderId: string;
  orderNumber: string;
  description: string;
  amount: Money;
  returnUrl: string;
  cancelUrl: string;
  /** The same on a retry of the same attempt (the order's id and attempt), so one checkout is made. */
  requestId: string;
}

export interface PaymentResult {
  status: "completed" | "pending" | "denied";
  paymentId: string;
  amount: Money;
  orderId: string | null;
  /** The provider's reason for a pending payment (PENDING_REVIEW, ECHECK …). */
  reason: string | null;
}

export interface PlanRequest {
  /** Names the product and plan at the provider (the package's name). */
  name: string;
  period: { unit: "DAY" | "WEEK" | "MONTH" | "YEAR"; count: number };
  amount: Money;
  /** A first-payment discount: one trial cycle at this price. */
  firstPayment: Money | null;
  requestId: string;
}

export interface SubscriptionState {
  status: "pending" | "active" | "suspended" | "cancelled" | "expired";
  nextBillingAt: string | null;
  failedPayments: number;
  lastPayment: { amount: Money; at: string } | null;
}

export interface PaymentProvider {
  readonly name: string;
  /** Makes the provider's checkout for an order at the server's price; the buyer goes to `approveUrl`. */
  createCheckout(request: CheckoutRequest): Promise<{ checkoutId: string; approveUrl: string }>;
  /**
   * Where a checkout stands (the reconciliation job): made and not approved, approved and not captured, or captured
   * (its payment, as a capture answers it).
   */
  readCheckout(
    checkoutId: string,
  ): Promise<{ status: "created" | "approved" | "captured" | "void"; payment: PaymentResult | null }>;
  /** Takes the approved checkout's money; the same `requestId` (or a second capture) never takes it twice. */
  capture(checkoutId: string, requestId: string): Promise<PaymentResult>;
  /** Refunds all of a payment (no amount) or a part; PayPal refuses after 180 days (ProviderRefusedError). */
  refund(
    paymentId: string,
    request: { amount: Money | null; noteToPayer: string | null; invoiceId: string | null; requestId: string },
  ): Promise<{ refundId: string; status: "completed" | "pending" | "failed"; amount: Money }>;
  /** A product and a plan for a price and period (the caller keeps its id and reuses it). */
  createPlan(request: PlanRequest): Promise<{ planId: string; productId: string }>;
  startSubscription(request: {
    planId: string;
    orderId: string;
    returnUrl: string;
    cancelUrl: string;
    requestId: string;
  }): Promise<{ subscriptionId: string; approveUrl: string }>;
  readSubscription(subscriptionId: string): Promise<SubscriptionState>;
  /** Stops renewals at the provider; the time already paid stays. */
  cancelSubscription(subscriptionId: string, reason: string): Promise<void>;
  /** Verifies a received notification (its headers and raw body) and parses it into a typed notice. */
  receive(request: { headers: Record<string, string | undefined>; rawBody: string }): Promise<Received>;
}
