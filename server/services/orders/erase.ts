import { eq, inArray, sql } from "drizzle-orm";
import { withoutPerson } from "#domain/privacy.ts";
import { applyOrderEvent } from "#domain/order-lifecycle.ts";
import type { Db } from "#server/db/client.ts";
import { orders } from "#server/db/schema.ts";
import { audited, type Actor } from "../activity";
import type { Tx } from "../jobs";
import { lockCustomer, recomputeTx, stateOf, type OrderCommandsDeps } from "./context";
import { erasedCustomerFields } from "./customer-fields";
import type { OrderRow } from "./record";

/** A payment's reference (a bank transfer's) is kept for matching the bank statement, without their name or email. */
async function eraseReferencesTx(tx: Tx, rows: OrderRow[], person: { name: string; email: string }) {
  const references = rows.flatMap((r) => {
    const kept = r.paymentReference && withoutPerson(r.paymentReference, person);
    return kept !== r.paymentReference ? [{ id: r.id, reference: kept }] : [];
  });
  if (references.length)
    await tx.execute(sql`
      update ${orders} set payment_reference = v.reference
      from jsonb_to_recordset(${JSON.stringify(references)}::jsonb) as v(id uuid, reference text)
      where ${orders.id} = v.id`);
}

/**
 * An erased customer's orders (decision 045), in the erasure's transaction `tx`, under the customer's lock: each keeps
 * what the accounts need (number, package, amount, dates, statuses, PayPal's transaction id, country) and loses who
 * placed it (the customer's fields customer-fields.ts does not keep, the form's one-time key). An order still unpaid
 * is cancelled: nobody is left to pay it. No mail goes out. Each order has its activity entry, which names no erased
 * value.
 */
export async function anonymiseTx(
  deps: Pick<OrderCommandsDeps, "now">,
  tx: Tx,
  userId: string,
  actor: Actor,
  person: { name: string; email: string },
): Promise<{ orders: number }> {
  await lockCustomer(tx, userId);
  const rows = await tx.select().from(orders).where(eq(orders.userId, userId)).for("update");
  if (!rows.length) return { orders: 0 };
  const t = deps.now();
  const unpaid = rows.filter((r) => applyOrderEvent(stateOf(r), { type: "cancel", at: t }).kind === "changed");
  await eraseReferencesTx(tx, rows, person);
  await tx
    .update(orders)
    .set({ ...erasedCustomerFields(userId), idempotencyKey: null, updatedAt: t })
    .where(eq(orders.userId, userId));
  if (unpaid.length)
    await tx
      .update(orders)
      .set({ paymentStatus: "Cancelled" })
      .where(
        inArray(
          orders.id,
          unpaid.map((r) => r.id),
        ),
      );
  // Unpaid orders give no day, so no window moves; recomputed all the same, as after every change.
  await recomputeTx(tx, userId);
  // The log's own writer, in a savepoint of this transaction.
  await audited(tx as unknown as Db, actor, "order", async (_tx, audit) => {
    for (const r of rows) {
      const cancels = unpaid.includes(r);
      await audit.updated(
        r.id,
        { customerDetails: "Kept", ...(cancels ? { paymentStatus: r.paymentStatus } : {}) },
        { customerDetails: "Erased", ...(cancels ? { paymentStatus: "Cancelled" } : {}) },
      );
    }
  });
  return { orders: rows.length };
}
