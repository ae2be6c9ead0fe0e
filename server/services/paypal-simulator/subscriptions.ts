import { desc, eq, inArray } from "drizzle-orm";
import { simulatorSubscriptions } from "#server/db/schema.ts";
import { AppError, isId } from "#server/lib/errors.ts";
import { describe } from "./checkout";
import { send, type SimulatorContext } from "./context";
import { subscriptionIpn } from "./ipn";

/** The subscriptions it signed up for an order's customer (its page's controls), newest first. */
export async function subscriptionsOf(ctx: SimulatorContext, orderIds: string[]) {
  const ids = orderIds.filter(isId);
  if (ctx.mode !== "simulator" || !ids.length) return [];
  // Only the customer's orders' rows, not the whole table filtered here.
  const rows = await ctx.deps.db
    .select()
    .from(simulatorSubscriptions)
    .where(inArray(simulatorSubscriptions.orderId, ids))
    .orderBy(desc(simulatorSubscriptions.createdAt));
  return rows.map((r) => ({
    subscrId: r.subscrId,
    orderId: r.orderId,
    status: r.status,
    itemName: r.fields.item_name ?? "",
    amount: r.fields.a3 ?? "",
  }));
}

/**
 * What PayPal does to a subscription it holds later on: the next period's payment, a failed payment, the
 * customer's cancellation, the end of term. Sends the notification (signed by the simulator) and returns its txn_id
 * for a payment. After a cancellation or the end, PayPal sends nothing more: neither does the simulator.
 */
export async function subscriptionEvent(
  ctx: SimulatorContext,
  subscrId: string,
  what: "payment" | "failed" | "cancel" | "end",
): Promise<{ sent: boolean; txnId?: string; raw?: string }> {
  const { db } = ctx.deps;
  if (ctx.mode !== "simulator") throw new AppError(404, "The PayPal simulator is off (PAYPAL_MODE is not simulator).");
  const [sub] = await db.select().from(simulatorSubscriptions).where(eq(simulatorSubscriptions.subscrId, subscrId));
  if (!sub) throw new AppError(404, "This subscription is not one the simulator made.");
  if (sub.status !== "active") return { sent: false };
  const info = await describe(ctx, sub.fields);
  const type = { payment: "subscr_payment", failed: "subscr_failed", cancel: "subscr_cancel", end: "subscr_eot" }[what];
  if (!info.terms) throw new AppError(400, "This subscription's form is not one of this site's.");
  // Every payment after the one taken at sign-up is a later period's: a3, after an introductory a1.
  const ipn = subscriptionIpn(sub.fields, info, info.terms, subscrId, type);
  if (what === "cancel" || what === "end")
    await db
      .update(simulatorSubscriptions)
      .set({ status: what === "cancel" ? "cancelled" : "ended" })
      .where(eq(simulatorSubscriptions.subscrId, subscrId));
  await send(ctx, sub.fields, ipn);
  return { sent: true, txnId: new URLSearchParams(ipn).get("txn_id") ?? undefined, raw: ipn };
}

/** Sends again a notification it sent before (PayPal's retry): the same message, still VERIFIED. */
export async function resend(ctx: SimulatorContext, fields: Record<string, string>, raw: string): Promise<void> {
  await send(ctx, fields, raw);
}
