import { and, eq, sql } from "drizzle-orm";
import { nextSubscriptionStatus, type SubscriptionNotice } from "#domain/subscription.ts";
import { orders, paymentCheckouts, subscriptions } from "#server/db/schema.ts";
import { AppError, isId, notFound } from "#server/lib/errors.ts";
import { changedColumns } from "#server/lib/row-changes.ts";
import { audited, type Actor } from "../activity";
import { jobKey, type Tx } from "../jobs";
import { orderData } from "../webhooks/payloads";
import { audit_, type SubscribedOrder, type SubscriptionRow, type SubscriptionsDeps } from "./model";

/** A subscription event's data: the subscription as staff see it, and its first order. */
async function reportTx(
  { webhooks }: SubscriptionsDeps,
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
async function queueCancelledTx(
  { now, mails }: SubscriptionsDeps,
  tx: Tx,
  subscription: Pick<SubscriptionRow, "id" | "orderId">,
) {
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

/**
 * The subscription `subscrId`, made for `order` if it is new, read under lock; one that belongs to another order is
 * refused (409).
 */
async function lockedTx(tx: Tx, subscrId: string, order: SubscribedOrder, t: Date): Promise<SubscriptionRow> {
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
  const [before] = await tx.select().from(subscriptions).where(eq(subscriptions.subscrId, subscrId)).for("update");
  if (!before || before.orderId !== order.id) throw new AppError(409, "This subscription belongs to another order.");
  return before;
}

/** A failed payment's mails, to the customer and to every admin, once per notification (`noticeKey`). */
async function queueFailedTx({ mails }: SubscriptionsDeps, tx: Tx, order: SubscribedOrder, noticeKey: string) {
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

/**
 * Applies one verified notice to the subscription `subscrId` of `order` (made if PayPal's notices come before the
 * sign-up): the status by nextSubscriptionStatus, the notice's moment. A subscription that belongs to another order
 * is refused (409) and nothing changes. `noticeKey` makes a failure's mails once per notification.
 */
export async function note(
  deps: SubscriptionsDeps,
  notice: SubscriptionNotice,
  subscrId: string,
  order: SubscribedOrder,
  actor: Actor,
  noticeKey: string,
): Promise<{ subscription: SubscriptionRow; changed: boolean }> {
  return audited(deps.db, actor, "subscription", async (tx, audit) => {
    const t = deps.now();
    const before = await lockedTx(tx, subscrId, order, t);
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
    if (notice === "signup" && !before.signedUpAt) await reportTx(deps, tx, "subscription.started", after!);
    if (status === "cancelled" && before.status !== "cancelled") {
      await queueCancelledTx(deps, tx, after!);
      await reportTx(deps, tx, "subscription.cancelled", after!);
    }
    if (notice === "failed") await reportTx(deps, tx, "subscription.payment_failed", after!);
    if (notice === "failed") await queueFailedTx(deps, tx, order, noticeKey);
    return { subscription: after!, changed: true };
  });
}

/**
 * A subscription recorded cancelled by `actor`: staff (the customer asked by phone), or the customer or staff after
 * the provider cancelled it (payments/subscribe.ts, decision 070). No more renewals are applied here; the time paid
 * for remains; the cancellation mail goes once (an active subscription only, its job keyed by the subscription). A
 * Payments Standard one must be stopped in PayPal too (the screen says so).
 */
export async function markCancelled(deps: SubscriptionsDeps, id: string, actor: Actor): Promise<{ modified: boolean }> {
  if (!isId(id)) throw notFound("Subscription not found");
  return audited(deps.db, actor, "subscription", async (tx, audit) => {
    const [before] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for("update");
    if (!before) throw notFound("Subscription not found");
    if (before.status !== "active") return { modified: false };
    const t = deps.now();
    const [after] = await tx
      .update(subscriptions)
      .set({ status: "cancelled", cancelledAt: t, cancelledBy: actor.email, updatedAt: t })
      .where(eq(subscriptions.id, id))
      .returning();
    await audit.updated(id, audit_(before), audit_(after!));
    await queueCancelledTx(deps, tx, after!);
    await reportTx(deps, tx, "subscription.cancelled", after!);
    return { modified: true };
  });
}
