import { and, eq, sql } from "drizzle-orm";
import { moneyCents } from "#domain/payment-check.ts";
import { tallyRefunds, type RefundKind, type RefundTally } from "#domain/refunds.ts";
import { orders, paymentRefunds } from "#server/db/schema.ts";
import { notFound } from "#server/lib/errors.ts";
import { jobKey, type Tx } from "#server/services/jobs.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { lockOrder, type RefundRecord, type RefundsDeps } from "./model";

/** The refund's row written, or completed with what a second report adds (who, why, the note); its fields after. */
async function upsertTx(tx: Tx, input: RefundRecord, cents: number, t: Date) {
  const [written] = await tx
    .insert(paymentRefunds)
    .values({
      provider: input.provider,
      refundId: input.refundId,
      orderId: input.orderId,
      paymentId: input.paymentId,
      amountCents: cents,
      currency: input.amount.currency,
      status: input.status,
      reason: input.reason || null,
      note: input.note || null,
      byUserId: input.by?.id ?? null,
      byEmail: input.by?.email ?? null,
      createdAt: t,
      updatedAt: t,
    })
    .onConflictDoUpdate({
      target: [paymentRefunds.provider, paymentRefunds.refundId],
      set: {
        status: sql`excluded.status`,
        reason: sql`coalesce(${paymentRefunds.reason}, excluded.reason)`,
        note: sql`coalesce(${paymentRefunds.note}, excluded.note)`,
        byUserId: sql`coalesce(${paymentRefunds.byUserId}, excluded.by_user_id)`,
        byEmail: sql`coalesce(${paymentRefunds.byEmail}, excluded.by_email)`,
        updatedAt: t,
      },
    })
    .returning({
      id: paymentRefunds.id,
      status: paymentRefunds.status,
      appliedAt: paymentRefunds.appliedAt,
      note: paymentRefunds.note,
      byUserId: paymentRefunds.byUserId,
      byEmail: paymentRefunds.byEmail,
      amountCents: paymentRefunds.amountCents,
      reason: paymentRefunds.reason,
      created: sql<boolean>`xmax = 0`,
    });
  return written!;
}
type Written = Awaited<ReturnType<typeof upsertTx>>;

/** The order as the part-refund mail names it. */
async function orderTx(tx: Tx, orderId: string) {
  const [o] = await tx
    .select({
      id: orders.id,
      number: orders.number,
      price: orders.packagePrice,
      currency: orders.currency,
      packageName: orders.packageName,
      customerName: orders.customerName,
      customerEmail: orders.customerEmail,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!o) throw notFound("Order not found");
  return o;
}
type RefundedOrder = Awaited<ReturnType<typeof orderTx>>;

/** Under the order's refund lock: the row written, its credit note, the order's completed refunds tallied. */
async function writeTx(deps: RefundsDeps, tx: Tx, input: RefundRecord, cents: number, t: Date) {
  await lockOrder(tx, input.orderId);
  const written = await upsertTx(tx, input, cents, t);
  // A completed refund is credited here, once per refund row (a resent webhook finds its credit note issued).
  if (written.status === "completed")
    await deps.creditNotes.issueTx(tx, {
      orderId: input.orderId,
      refundId: written.id,
      refundCents: written.amountCents,
      reason: written.reason,
      at: t,
    });
  const done = await tx
    .select({ cents: paymentRefunds.amountCents })
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.orderId, input.orderId), eq(paymentRefunds.status, "completed")));
  const o = await orderTx(tx, input.orderId);
  return {
    row: written,
    created: Boolean(written.created),
    tally: tallyRefunds(
      o.price,
      done.map((d) => d.cents),
    ),
    order: o,
  };
}

/** The refund's effect marked applied; a part's mail queued with it (one per refund: its job key is the refund's). */
async function markAppliedTx(
  deps: RefundsDeps,
  tx: Tx,
  applied: "whole" | "part",
  refund: { row: Written; order: RefundedOrder; tally: RefundTally; cents: number },
) {
  const { row, order, tally, cents } = refund;
  if (applied === "part")
    await deps.mails.queue(
      tx,
      "paymentPartlyRefunded",
      {
        orderId: order.id,
        orderNumber: order.number,
        currency: order.currency,
        customerName: order.customerName,
        packageName: order.packageName,
        amount: cents / 100,
        refundedSoFar: tally.refundedCents / 100,
        price: order.price,
        note: row.note,
        creditNoteNumber: await deps.creditNotes.numberOfRefundTx(tx, row.id),
      },
      order.customerEmail,
      jobKey("refund", row.id, "mail"),
    );
  await tx.update(paymentRefunds).set({ appliedAt: deps.now() }).where(eq(paymentRefunds.id, row.id));
}

/**
 * The one writer of payment_refunds (decision 067): a refund recorded once by the provider's refund id, whichever
 * came first, our call's answer or the provider's webhook (the second only adds what it knows: who, why, the note).
 * Its effect is applied once: a refund that brings the completed refunds to the price makes the order Refunded
 * through the order command (the days removed, the refund mail); a part keeps the order Paid and its days, and the
 * customer gets the part-refund mail (one per refund: its job key is the refund's).
 */
export async function recordRefund(
  deps: RefundsDeps,
  input: RefundRecord,
): Promise<{ created: boolean; applied: "whole" | "part" | "no"; kind: RefundKind }> {
  const cents = moneyCents(input.amount.value);
  if (cents === null) throw new Error(`refund ${input.refundId}: amount ${input.amount.value} is not money`);
  const t = deps.now();
  const { row, created, tally, order } = await deps.db.transaction((tx) => writeTx(deps, tx, input, cents, t));
  if (row.appliedAt || row.status !== "completed") return { created, applied: "no", kind: tally.kind };
  const actor = row.byUserId && row.byEmail ? { id: row.byUserId, email: row.byEmail } : PAYPAL_ACTOR;
  const applied = tally.kind === "whole" ? "whole" : "part";
  if (applied === "whole") await deps.orders.refund(order.id, actor, "refund", row.note);
  await deps.db.transaction((tx) => markAppliedTx(deps, tx, applied, { row, order, tally, cents }));
  return { created, applied, kind: tally.kind };
}
