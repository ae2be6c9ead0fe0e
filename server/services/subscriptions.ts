import type { Currency } from "#domain/currency.ts";
import { and, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import {
  nextPaymentDate,
  nextSubscriptionStatus,
  type SubscriptionNotice,
  type SubscriptionStatus,
} from "#domain/subscription.ts";
import { paymentDue, subscriptionTerms } from "#domain/subscription-price.ts";
import type { Db } from "../db/client";
import { orders, paymentCheckouts, subscriptions } from "../db/schema";
import { AppError, isId, notFound } from "../lib/errors";
import { changedColumns } from "../lib/row-changes";
import { audited, type Actor } from "./activity";
import { jobKey, type Tx } from "./jobs";
import type { MailsService } from "./mails";
import type { WebhookEmitter } from "./webhooks";
import { orderData } from "./webhooks/payloads";
import { shownEmail } from "#domain/customers.ts";

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

const audit_ = (s: Pick<SubscriptionRow, "status" | "signedUpAt" | "cancelledAt" | "endedAt" | "lastFailedAt">) => ({
  status: s.status,
  signedUpAt: s.signedUpAt?.toISOString() ?? null,
  cancelledAt: s.cancelledAt?.toISOString() ?? null,
  endedAt: s.endedAt?.toISOString() ?? null,
  lastFailedAt: s.lastFailedAt?.toISOString() ?? null,
});

/**
 * PayPal subscriptions (decision 046): the only writer of the subscriptions table. The PayPal listener reports each
 * verified notice (sign-up, payment, cancellation, failure, end of term); staff may mark one cancelled. Each change is
 * in the activity log in its transaction; a failed payment mails the customer and every admin, once per notice.
 */
export function createSubscriptionsService(deps: {
  db: Db;
  now: () => Date;
  mails: Pick<MailsService, "queue" | "queueToAdmins">;
  /** subscription.started, payment_failed and cancelled, in the notice's transaction (docs/decisions/078). */
  webhooks?: Pick<WebhookEmitter, "emitTx">;
}) {
  const { db, now, mails, webhooks } = deps;

  /** A subscription event's data: the subscription as staff see it, and its first order. */
  async function reportTx(
    tx: Tx,
    type: "subscription.started" | "subscription.payment_failed" | "subscription.cancelled",
    s: SubscriptionRow,
  ) {
    if (!webhooks) return;
    const [order] = await tx.select().from(orders).where(eq(orders.id, s.orderId));
    await webhooks.emitTx(tx, type, {
      subscription: {
        id: s.id,
        subscrId: s.subscrId,
        status: s.status,
        rail: s.rail,
        signedUpAt: s.signedUpAt?.toISOString() ?? null,
        cancelledAt: s.cancelledAt?.toISOString() ?? null,
        cancelledBy: s.cancelledBy,
        lastFailedAt: s.lastFailedAt?.toISOString() ?? null,
      },
      ...(order ? orderData(order) : {}),
    });
  }

  /**
   * The customer hears that their automatic renewal stopped (once per subscription): no more payments, and until when
   * their membership runs now. In the cancelling transaction.
   */
  async function queueCancelledTx(tx: Tx, subscription: Pick<SubscriptionRow, "id" | "orderId">) {
    const t = now();
    const [order] = await tx.select().from(orders).where(eq(orders.id, subscription.orderId));
    if (!order) return;
    const [{ ends } = { ends: null }] = await tx
      .select({ ends: sql<Date | null>`max(${orders.membershipValid})`.mapWith((v) => (v ? new Date(v) : null)) })
      .from(orders)
      .where(and(eq(orders.userId, order.userId), sql`${orders.membershipValid} > ${t.toISOString()}::timestamptz`));
    await mails.queue(
      tx,
      "subscriptionCancelled",
      {
        orderId: order.id,
        orderNumber: order.number,
        customerName: order.customerName,
        packageName: order.packageName,
        membershipEnds: ends,
      },
      order.customerEmail,
      jobKey("subscription", subscription.id, "cancelled"),
    );
  }

  /** The subscription of PayPal's id, or undefined. */
  async function bySubscrId(subscrId: string): Promise<SubscriptionRow | undefined> {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.subscrId, subscrId));
    return row;
  }

  /** The subscriptions a condition picks, newest first (at most 50), with their payments so far: two reads. */
  async function views(where: SQL, limit = 50): Promise<SubscriptionView[]> {
    const rows = await db
      .select({
        s: subscriptions,
        orderNumber: orders.number,
        packageName: orders.packageName,
        amount: orders.packagePrice,
        periodDays: orders.packageValidity,
        customerName: orders.customerName,
        customerEmail: orders.customerEmail,
        firstPaid: sql<boolean>`${orders.paymentStatus} in ('Paid', 'Refunded')`,
        firstPaidAt: orders.paidAt,
        priceBefore: orders.priceBefore,
        discountAmount: orders.discountAmount,
        discountPeriod: orders.discountPeriod,
      })
      .from(subscriptions)
      .innerJoin(orders, eq(orders.id, subscriptions.orderId))
      .where(where)
      .orderBy(desc(subscriptions.createdAt))
      .limit(limit);
    if (!rows.length) return [];
    const renewals = await db
      .select({ subscrId: orders.subscrId, n: sql<number>`count(*)::int` })
      .from(orders)
      .where(
        and(
          inArray(
            orders.subscrId,
            rows.map((r) => r.s.subscrId),
          ),
          inArray(orders.paymentStatus, ["Paid", "Refunded"]),
        ),
      )
      .groupBy(orders.subscrId);
    const count = new Map(renewals.map((r) => [r.subscrId, r.n]));
    return rows.map((r) => {
      const payments = (r.firstPaid ? 1 : 0) + (count.get(r.s.subscrId) ?? 0);
      const nextPaymentAt = r.s.status === "active" ? nextPaymentDate(r.firstPaidAt, r.periodDays, payments) : null;
      const terms = subscriptionTerms({ ...r, packagePrice: r.amount });
      return {
        id: r.s.id,
        subscrId: r.s.subscrId,
        orderId: r.s.orderId,
        orderNumber: r.orderNumber,
        userId: r.s.userId,
        customerName: r.customerName,
        // An erased customer's placeholder is no address (decision 063).
        customerEmail: shownEmail(r.customerEmail) ?? "",
        packageName: r.packageName,
        amount: r.amount,
        periodDays: r.periodDays,
        status: r.s.status,
        rail: r.s.rail,
        signedUpAt: r.s.signedUpAt,
        cancelledAt: r.s.cancelledAt,
        cancelledBy: r.s.cancelledBy,
        endedAt: r.s.endedAt,
        lastFailedAt: r.s.lastFailedAt,
        payments,
        nextPaymentAt,
        regularAmount: terms.regular,
        nextAmount: nextPaymentAt ? paymentDue(terms, payments + 1) : null,
      };
    });
  }

  return {
    bySubscrId,

    /**
     * Applies one verified notice to the subscription `subscrId` of `order` (made if PayPal's notices come before the
     * sign-up): the status by nextSubscriptionStatus, the notice's moment. A subscription that belongs to another order
     * is refused (409) and nothing changes. `noticeKey` makes a failure's mails once per notification.
     */
    async note(
      notice: SubscriptionNotice,
      subscrId: string,
      order: SubscribedOrder,
      actor: Actor,
      noticeKey: string,
    ): Promise<{ subscription: SubscriptionRow; changed: boolean }> {
      return audited(db, actor, "subscription", async (tx, audit) => {
        const t = now();
        // Its rail (decision 070): the Subscriptions API when our Subscribe button started it, else Payments Standard.
        await tx
          .insert(subscriptions)
          .values({
            subscrId,
            orderId: order.id,
            userId: order.userId,
            rail: sql`case when exists (select 1 from ${paymentCheckouts} where ${paymentCheckouts.id} = ${subscrId}
                        and ${paymentCheckouts.kind} = 'subscription') then 'api' else 'standard' end`,
            createdAt: t,
            updatedAt: t,
          })
          .onConflictDoNothing({ target: subscriptions.subscrId });
        const [before] = await tx
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.subscrId, subscrId))
          .for("update");
        if (!before || before.orderId !== order.id)
          throw new AppError(409, "This subscription belongs to another order.");
        const status = nextSubscriptionStatus(before.status, notice);
        const next = {
          status,
          signedUpAt: notice === "signup" ? (before.signedUpAt ?? t) : before.signedUpAt,
          cancelledAt: status === "cancelled" && before.status !== "cancelled" ? t : before.cancelledAt,
          cancelledBy: status === "cancelled" && before.status !== "cancelled" ? actor.email : before.cancelledBy,
          endedAt: status === "ended" && before.status !== "ended" ? t : before.endedAt,
          lastFailedAt: notice === "failed" ? t : before.lastFailedAt,
        };
        // The row is written when its stored values change (a failure always: its moment is new); the activity entry
        // when what it shows changed, or for a failure, as before (decision 085).
        const changed = changedColumns(before, next).length > 0 || notice === "failed";
        if (!changed) return { subscription: before, changed: false };
        const [after] = await tx
          .update(subscriptions)
          .set({ ...next, updatedAt: t })
          .where(eq(subscriptions.id, before.id))
          .returning();
        if (JSON.stringify(audit_(before)) !== JSON.stringify(audit_(after!)) || notice === "failed")
          await audit.updated(before.id, audit_(before), audit_(after!));
        // Started: its sign-up heard for the first time (a payment notice may have made the row before it).
        if (notice === "signup" && !before.signedUpAt) await reportTx(tx, "subscription.started", after!);
        if (status === "cancelled" && before.status !== "cancelled") {
          await queueCancelledTx(tx, after!);
          await reportTx(tx, "subscription.cancelled", after!);
        }
        if (notice === "failed") await reportTx(tx, "subscription.payment_failed", after!);
        if (notice === "failed") {
          const data = {
            orderId: order.id,
            orderNumber: order.number,
            currency: order.currency,
            customerName: order.customerName,
            customerEmail: order.customerEmail,
            packageName: order.packageName,
            amount: order.packagePrice,
          };
          await mails.queue(
            tx,
            "subscriptionPaymentFailed",
            data,
            order.customerEmail,
            jobKey("subscription", noticeKey, "failed"),
          );
          await mails.queueToAdmins(
            tx,
            "adminSubscriptionPaymentFailed",
            data,
            jobKey("subscription", noticeKey, "failed-admins"),
          );
        }
        return { subscription: after!, changed: true };
      });
    },

    /**
     * A subscription recorded cancelled by `actor`: staff (the customer asked by phone), or the customer or staff after
     * the provider cancelled it (payments/subscribe.ts, decision 070). No more renewals are applied here; the time paid
     * for remains; the cancellation mail goes once (an active subscription only, its job keyed by the subscription). A
     * Payments Standard one must be stopped in PayPal too (the screen says so).
     */
    async markCancelled(id: string, actor: Actor): Promise<{ modified: boolean }> {
      if (!isId(id)) throw notFound("Subscription not found");
      return audited(db, actor, "subscription", async (tx, audit) => {
        const [before] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for("update");
        if (!before) throw notFound("Subscription not found");
        if (before.status !== "active") return { modified: false };
        const t = now();
        const [after] = await tx
          .update(subscriptions)
          .set({ status: "cancelled", cancelledAt: t, cancelledBy: actor.email, updatedAt: t })
          .where(eq(subscriptions.id, id))
          .returning();
        await audit.updated(id, audit_(before), audit_(after!));
        await queueCancelledTx(tx, after!);
        await reportTx(tx, "subscription.cancelled", after!);
        return { modified: true };
      });
    },

    /** A customer's subscriptions, newest first (at most 50), with their payments so far. */
    forUser: (userId: string) => views(eq(subscriptions.userId, userId)),

    /**
     * The active subscriptions of a list of customers (the reminders' batch), with their next payment: two reads for
     * the whole list, by subscriptions_user_idx, never one per customer.
     */
    activeOf: (userIds: string[]) =>
      userIds.length
        ? views(and(inArray(subscriptions.userId, userIds), eq(subscriptions.status, "active"))!, 10 * userIds.length)
        : Promise.resolve([] as SubscriptionView[]),

    /** One subscription (the staff's cancel page), or a 404. */
    async get(id: string): Promise<SubscriptionView> {
      if (!isId(id)) throw notFound("Subscription not found");
      const [view] = await views(eq(subscriptions.id, id));
      if (!view) throw notFound("Subscription not found");
      return view;
    },

    /**
     * The subscription an order started or renewed (the order screen), with which of the two, or null: one read, by
     * subscriptions_order_idx and the subscr_id key.
     */
    async ofOrder(orderId: string): Promise<(SubscriptionView & { kind: SubscriptionOrderKind }) | null> {
      if (!isId(orderId)) return null;
      const [view] = await views(
        sql`(${subscriptions.orderId} = ${orderId} or ${subscriptions.subscrId} =
              (select ${orders.subscrId} from ${orders} where ${orders.id} = ${orderId}))`,
      );
      return view ? { ...view, kind: view.orderId === orderId ? "started" : "renewal" } : null;
    },

    /**
     * For a page of orders (the orders desk), which of them started a subscription or renewed one, and that
     * subscription's view (status, payments so far, next payment): three reads for the whole page (the orders' primary
     * key, subscriptions_order_idx and the subscr_id key, then the page's subscriptions' views), never one per row.
     */
    async kindsOf(orderIds: string[]): Promise<Map<string, OrderSubscription>> {
      const ids = orderIds.filter(isId);
      if (!ids.length) return new Map();
      const rows = await db
        .select({ orderId: orders.id, startedBy: subscriptions.orderId, id: subscriptions.id })
        .from(orders)
        .innerJoin(subscriptions, or(eq(subscriptions.orderId, orders.id), eq(subscriptions.subscrId, orders.subscrId)))
        .where(inArray(orders.id, ids));
      if (!rows.length) return new Map();
      const subscriptionIds = [...new Set(rows.map((r) => r.id))];
      const byId = new Map(
        (await views(inArray(subscriptions.id, subscriptionIds), subscriptionIds.length)).map((v) => [v.id, v]),
      );
      return new Map(
        rows.flatMap((r) => {
          const view = byId.get(r.id);
          if (!view) return [];
          const kind = r.startedBy === r.orderId ? ("started" as const) : ("renewal" as const);
          return [[r.orderId, { kind, status: view.status, view }] as const];
        }),
      );
    },
  };
}

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
