import { z } from "zod";
import type { Money, Notice, NoticeType } from "../provider";
import { link, money, webhookEvent, type WebhookEvent } from "./shapes";

/**
 * PayPal's webhook events as typed notices: one parser per event type PayPal sends for Checkout, Payments and
 * Subscriptions, in one table (no chain of conditions). An event type not in the table is not ours to act on.
 */

const moneyOf = (m: z.infer<typeof money>): Money => ({ currency: m.currency_code, value: m.value });
/** The capture an event's resource belongs to: its `up` link (`…/v2/payments/captures/{id}`). */
const captureIdOf = (links: { rel: string; href: string }[] | undefined) =>
  links
    ?.find((l) => l.rel === "up" && l.href.includes("/v2/payments/captures/"))
    ?.href.split("/")
    .pop() ?? null;

const captureResource = z.object({
  id: z.string(),
  amount: money,
  custom_id: z.string().optional(),
  status_details: z.object({ reason: z.string() }).optional(),
  supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().optional() }) }).optional(),
});
const refundResource = z.object({
  id: z.string(),
  amount: money,
  custom_id: z.string().optional(),
  note_to_payer: z.string().optional(),
  links: z.array(link).optional(),
});
const orderResource = z.object({
  id: z.string(),
  purchase_units: z
    .array(z.object({ custom_id: z.string().optional(), amount: money.optional() }))
    .min(1)
    .optional(),
});
const subscriptionResource = z.object({ id: z.string(), custom_id: z.string().optional() });
const saleResource = z.object({
  id: z.string(),
  billing_agreement_id: z.string(),
  custom: z.string().optional(),
  amount: z.object({ total: z.string(), currency: z.string().length(3) }),
});

type Base = { eventId: string; occurredAt: string };
type Parser = { type: NoticeType; parse: (resource: unknown, base: Base) => Notice };

const capture =
  (type: "payment.completed" | "payment.denied"): Parser["parse"] =>
  (resource, base) => {
    const r = captureResource.parse(resource);
    return {
      ...base,
      type,
      orderId: r.custom_id ?? null,
      paymentId: r.id,
      checkoutId: r.supplementary_data?.related_ids.order_id ?? null,
      amount: moneyOf(r.amount),
    };
  };
const refund =
  (type: "payment.refunded" | "payment.reversed"): Parser["parse"] =>
  (resource, base) => {
    const r = refundResource.parse(resource);
    return {
      ...base,
      type,
      orderId: r.custom_id ?? null,
      refundId: r.id,
      paymentId: captureIdOf(r.links),
      amount: moneyOf(r.amount),
      ...(type === "payment.refunded" ? { note: r.note_to_payer ?? null } : {}),
    };
  };
const subscription =
  (
    type:
      | "subscription.activated"
      | "subscription.payment-failed"
      | "subscription.cancelled"
      | "subscription.suspended"
      | "subscription.expired",
  ): Parser["parse"] =>
  (resource, base) => {
    const r = subscriptionResource.parse(resource);
    return { ...base, type, orderId: r.custom_id ?? null, subscriptionId: r.id };
  };

/** PayPal's event type → our notice. */
export const PAYPAL_NOTICES: Record<string, Parser> = {
  "CHECKOUT.ORDER.APPROVED": {
    type: "checkout.approved",
    parse: (resource, base) => {
      const r = orderResource.parse(resource);
      const unit = r.purchase_units?.[0];
      return {
        ...base,
        type: "checkout.approved",
        orderId: unit?.custom_id ?? null,
        checkoutId: r.id,
        amount: unit?.amount ? moneyOf(unit.amount) : null,
      };
    },
  },
  "PAYMENT.CAPTURE.COMPLETED": { type: "payment.completed", parse: capture("payment.completed") },
  "PAYMENT.CAPTURE.PENDING": {
    type: "payment.pending",
    parse: (resource, base) => {
      const r = captureResource.parse(resource);
      return {
        ...base,
        type: "payment.pending",
        orderId: r.custom_id ?? null,
        paymentId: r.id,
        checkoutId: r.supplementary_data?.related_ids.order_id ?? null,
        amount: moneyOf(r.amount),
        reason: r.status_details?.reason ?? null,
      };
    },
  },
  "PAYMENT.CAPTURE.DENIED": { type: "payment.denied", parse: capture("payment.denied") },
  "PAYMENT.CAPTURE.DECLINED": { type: "payment.denied", parse: capture("payment.denied") },
  "PAYMENT.CAPTURE.REFUNDED": { type: "payment.refunded", parse: refund("payment.refunded") },
  "PAYMENT.CAPTURE.REVERSED": { type: "payment.reversed", parse: refund("payment.reversed") },
  "BILLING.SUBSCRIPTION.ACTIVATED": { type: "subscription.activated", parse: subscription("subscription.activated") },
  "PAYMENT.SALE.COMPLETED": {
    type: "subscription.payment",
    parse: (resource, base) => {
      const r = saleResource.parse(resource);
      return {
        ...base,
        type: "subscription.payment",
        orderId: r.custom ?? null,
        subscriptionId: r.billing_agreement_id,
        paymentId: r.id,
        amount: { currency: r.amount.currency, value: r.amount.total },
      };
    },
  },
  "BILLING.SUBSCRIPTION.PAYMENT.FAILED": {
    type: "subscription.payment-failed",
    parse: subscription("subscription.payment-failed"),
  },
  "BILLING.SUBSCRIPTION.CANCELLED": { type: "subscription.cancelled", parse: subscription("subscription.cancelled") },
  "BILLING.SUBSCRIPTION.SUSPENDED": { type: "subscription.suspended", parse: subscription("subscription.suspended") },
  "BILLING.SUBSCRIPTION.EXPIRED": { type: "subscription.expired", parse: subscription("subscription.expired") },
};

/** The event types the webhook is registered for (all those we act on). */
export const PAYPAL_EVENT_TYPES = Object.keys(PAYPAL_NOTICES);

/**
 * A webhook body as a typed notice: `notice`, or `ignored` for an event type we do not act on, or `malformed` (not
 * PayPal's envelope, or a resource without what its type needs).
 */
export function noticeOf(
  body: unknown,
):
  | { kind: "notice"; notice: Notice; event: WebhookEvent }
  | { kind: "ignored"; event: WebhookEvent }
  | { kind: "malformed"; reason: string } {
  const envelope = webhookEvent.safeParse(body);
  if (!envelope.success) return { kind: "malformed", reason: "not a PayPal webhook event" };
  const event = envelope.data;
  const parser = Object.hasOwn(PAYPAL_NOTICES, event.event_type) ? PAYPAL_NOTICES[event.event_type] : undefined;
  if (!parser) return { kind: "ignored", event };
  try {
    return {
      kind: "notice",
      notice: parser.parse(event.resource, { eventId: event.id, occurredAt: event.create_time }),
      event,
    };
  } catch (error) {
    const reason =
      error instanceof z.ZodError
        ? error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")
        : String(error);
    return { kind: "malformed", reason: `${event.event_type}'s resource: ${reason}` };
  }
}
