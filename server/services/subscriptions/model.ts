import type { Currency } from "#domain/currency.ts";
import type { SubscriptionStatus } from "#domain/subscription.ts";
import type { Db } from "#server/db/client.ts";
import type { subscriptions } from "#server/db/schema.ts";
import type { MailsService } from "../mails";
import type { WebhookEmitter } from "../webhooks";

/** What the subscriptions service is made of (its factory's argument). */
export interface SubscriptionsDeps {
  db: Db;
  now: () => Date;
  mails: Pick<MailsService, "queue" | "queueToAdmins">;
  /** subscription.started, payment_failed and cancelled, in the notice's transaction (docs/decisions/078). */
  webhooks?: Pick<WebhookEmitter, "emitTx">;
}

export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** What an order is to a subscription: the order that started it, or a period's payment (a renewal). */
export type SubscriptionOrderKind = "started" | "renewal";

/** What an order of the desk's page is to a subscription, and that subscription's view. */
export interface OrderSubscription {
  kind: SubscriptionOrderKind;
  status: SubscriptionStatus;
  view: SubscriptionView;
}

/** What a subscription's notice needs of the order that started it. */
export interface SubscribedOrder {
  id: string;
  userId: string;
  number: string;
  customerName: string;
  customerEmail: string;
  packageName: string;
  packagePrice: number;
  /** The order's currency (issue 35): the failure mails print its amount in it. */
  currency: Currency;
}

/** A subscription as the customer's and the studio's screens show it. */
export interface SubscriptionView {
  id: string;
  subscrId: string;
  orderId: string;
  orderNumber: string;
  userId: string;
  /** The customer as the subscribed order names them. */
  customerName: string;
  customerEmail: string;
  packageName: string;
  amount: number;
  periodDays: number;
  status: SubscriptionStatus;
  /** Payments Standard's Subscribe button (reached only in PayPal) or the Subscriptions API (cancelled from here). */
  rail: SubscriptionRow["rail"];
  signedUpAt: Date | null;
  cancelledAt: Date | null;
  cancelledBy: string | null;
  endedAt: Date | null;
  lastFailedAt: Date | null;
  /** Payments so far: the subscribed order's (once paid) and each renewal's. */
  payments: number;
  /** When PayPal takes the next payment (domain nextPaymentDate), while the subscription is active and was paid once. */
  nextPaymentAt: Date | null;
  /** What PayPal takes each period after an introductory first one (domain/subscription-price.ts: a3). */
  regularAmount: number;
  /** What PayPal takes at nextPaymentAt (paymentDue of the next payment), or null when none is due. */
  nextAmount: number | null;
}

export const audit_ = (
  s: Pick<SubscriptionRow, "status" | "signedUpAt" | "cancelledAt" | "endedAt" | "lastFailedAt">,
) => ({
  status: s.status,
  signedUpAt: s.signedUpAt?.toISOString() ?? null,
  cancelledAt: s.cancelledAt?.toISOString() ?? null,
  endedAt: s.endedAt?.toISOString() ?? null,
  lastFailedAt: s.lastFailedAt?.toISOString() ?? null,
});
