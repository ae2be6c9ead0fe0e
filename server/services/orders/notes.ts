import { and, eq, inArray } from "drizzle-orm";
import { membershipRecompute, orders } from "#server/db/schema.ts";
import { isId } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { jobKey } from "../jobs";
import { lockCustomer, PAYPAL_ACTOR, recomputeTx, type OrderCommandsDeps } from "./context";

/**
 * A payment PayPal took that the order could not take (decision 060: its discount code used up meanwhile): the
 * notification is recorded by the listener; every admin hears it here, once per transaction, to refund it.
 */
export async function paymentNotApplied(
  { db, mails }: OrderCommandsDeps,
  id: string,
  txnId: string,
  amount: number,
  reason: string,
): Promise<void> {
  if (!isId(id)) return;
  const [o] = await db.select().from(orders).where(eq(orders.id, id));
  if (!o) return;
  await db.transaction((tx) =>
    mails.queueToAdmins(
      tx,
      "adminPaymentNotApplied",
      {
        orderId: o.id,
        orderNumber: o.number,
        currency: o.currency,
        customerName: o.customerName,
        customerEmail: o.customerEmail,
        packageName: o.packageName,
        amount,
        txnId,
        reason,
      },
      jobKey("payment", txnId, "not-applied"),
    ),
  );
}

/** PayPal says the payment is pending (an eCheck, a review): shown on the order while it is unpaid. */
export async function notePending({ db }: OrderCommandsDeps, id: string, reason: string | null): Promise<void> {
  await db
    .update(orders)
    .set({ providerStatus: reason ? `Pending (${reason})` : "Pending" })
    .where(and(eq(orders.id, id), eq(orders.paymentStatus, "UnPaid")));
}

/** The provider refused the payment (denied, declined): shown on the order while it is unpaid, so they try again. */
export async function noteDenied({ db }: OrderCommandsDeps, id: string): Promise<void> {
  await db
    .update(orders)
    .set({ providerStatus: "Denied" })
    .where(and(eq(orders.id, id), eq(orders.paymentStatus, "UnPaid")));
}

/**
 * Money arrived that does not match its order (another amount, currency or receiver): refused, and shown to staff
 * in the order's activity (who: PayPal; what: the reason). The order itself does not change.
 */
export async function flagPayment(
  { db, logger }: OrderCommandsDeps,
  id: string,
  reason: string,
  actor: Actor = PAYPAL_ACTOR,
): Promise<void> {
  await audited(db, actor, "order", (_tx, audit) =>
    audit.updated(id, { paymentFlag: null }, { paymentFlag: `Refused payment: ${reason}` }),
  );
  logger.warn({ orderId: id, reason }, "payment refused and flagged to staff");
}

/**
 * Recomputes the timelines of the customers a migration queued (membership_recompute), each in its own transaction
 * under the customer's lock, and says how many orders moved. Several instances starting at once share the work.
 */
export async function recomputeQueued({
  db,
  logger,
}: OrderCommandsDeps): Promise<{ customers: number; moved: number }> {
  let customers = 0;
  let moved = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const queued = await tx
        .select()
        .from(membershipRecompute)
        .orderBy(membershipRecompute.userId)
        .limit(100)
        .for("update", { skipLocked: true });
      for (const { userId } of queued) {
        await lockCustomer(tx, userId);
        moved += (await recomputeTx(tx, userId)).moved;
      }
      if (queued.length)
        await tx.delete(membershipRecompute).where(
          inArray(
            membershipRecompute.userId,
            queued.map((q) => q.userId),
          ),
        );
      return queued.length;
    });
    if (!batch) break;
    customers += batch;
  }
  if (customers) logger.info({ customers, ordersChanged: moved }, "membership timelines recomputed");
  return { customers, moved };
}
