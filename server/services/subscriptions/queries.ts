import { and, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { shownEmail } from "#domain/customers.ts";
import { nextPaymentDate } from "#domain/subscription.ts";
import { paymentDue, subscriptionTerms } from "#domain/subscription-price.ts";
import { orders, subscriptions } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import type {
  OrderSubscription,
  SubscriptionOrderKind,
  SubscriptionRow,
  SubscriptionsDeps,
  SubscriptionView,
} from "./model";

/** The subscription of PayPal's id, or undefined. */
export async function bySubscrId({ db }: SubscriptionsDeps, subscrId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.subscrId, subscrId));
  return row;
}

/** The subscriptions a condition picks, newest first (at most 50), with their payments so far: two reads. */
export async function views({ db }: SubscriptionsDeps, where: SQL, limit = 50): Promise<SubscriptionView[]> {
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

/** A customer's subscriptions, newest first (at most 50), with their payments so far. */
export const forUser = (deps: SubscriptionsDeps, userId: string) => views(deps, eq(subscriptions.userId, userId));

/**
 * The active subscriptions of a list of customers (the reminders' batch), with their next payment: two reads for
 * the whole list, by subscriptions_user_idx, never one per customer.
 */
export const activeOf = (deps: SubscriptionsDeps, userIds: string[]) =>
  userIds.length
    ? views(deps, and(inArray(subscriptions.userId, userIds), eq(subscriptions.status, "active"))!, 10 * userIds.length)
    : Promise.resolve([] as SubscriptionView[]);

/** One subscription (the staff's cancel page), or a 404. */
export async function get(deps: SubscriptionsDeps, id: string): Promise<SubscriptionView> {
  if (!isId(id)) throw notFound("Subscription not found");
  const [view] = await views(deps, eq(subscriptions.id, id));
  if (!view) throw notFound("Subscription not found");
  return view;
}

/**
 * The subscription an order started or renewed (the order screen), with which of the two, or null: one read, by
 * subscriptions_order_idx and the subscr_id key.
 */
export async function ofOrder(
  deps: SubscriptionsDeps,
  orderId: string,
): Promise<(SubscriptionView & { kind: SubscriptionOrderKind }) | null> {
  if (!isId(orderId)) return null;
  const [view] = await views(
    deps,
    sql`(${subscriptions.orderId} = ${orderId} or ${subscriptions.subscrId} =
          (select ${orders.subscrId} from ${orders} where ${orders.id} = ${orderId}))`,
  );
  return view ? { ...view, kind: view.orderId === orderId ? "started" : "renewal" } : null;
}

/**
 * For a page of orders (the orders desk), which of them started a subscription or renewed one, and that
 * subscription's view (status, payments so far, next payment): three reads for the whole page (the orders' primary
 * key, subscriptions_order_idx and the subscr_id key, then the page's subscriptions' views), never one per row.
 */
export async function kindsOf(deps: SubscriptionsDeps, orderIds: string[]): Promise<Map<string, OrderSubscription>> {
  const ids = orderIds.filter(isId);
  if (!ids.length) return new Map();
  const rows = await deps.db
    .select({ orderId: orders.id, startedBy: subscriptions.orderId, id: subscriptions.id })
    .from(orders)
    .innerJoin(subscriptions, or(eq(subscriptions.orderId, orders.id), eq(subscriptions.subscrId, orders.subscrId)))
    .where(inArray(orders.id, ids));
  if (!rows.length) return new Map();
  const subscriptionIds = [...new Set(rows.map((r) => r.id))];
  const byId = new Map(
    (await views(deps, inArray(subscriptions.id, subscriptionIds), subscriptionIds.length)).map((v) => [v.id, v]),
  );
  return new Map(
    rows.flatMap((r) => {
      const view = byId.get(r.id);
      if (!view) return [];
      const kind = r.startedBy === r.orderId ? ("started" as const) : ("renewal" as const);
      return [[r.orderId, { kind, status: view.status, view }] as const];
    }),
  );
}
