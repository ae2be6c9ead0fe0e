import { and, asc, eq, inArray } from "drizzle-orm";
import { centsValue, refundDeadline, tallyRefunds } from "#domain/refunds.ts";
import { orders, paymentCheckouts, paymentNotices, paymentRefunds, subscriptions } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import { counting, type PaymentRail, type RefundLine, type RefundsServiceDeps } from "./model";

export async function orderOf({ db }: RefundsServiceDeps, orderId: string) {
  if (!isId(orderId)) throw notFound("Order not found");
  const [o] = await db
    .select({
      id: orders.id,
      price: orders.packagePrice,
      currency: orders.currency,
      paymentStatus: orders.paymentStatus,
      paymentMethod: orders.paymentMethod,
      txnId: orders.txnId,
      paidAt: orders.paidAt,
      subscrId: orders.subscrId,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!o) throw notFound("Order not found");
  return o;
}

/**
 * Which rail paid the order: Checkout when a checkout of ours was made for it (new payments never use Standard) or a
 * REST notice paid it, or when it is a later payment of a subscription on the Subscriptions API (PayPal refunds its
 * sale as a capture); otherwise an IPN did (Payments Standard).
 */
export async function railOf(
  { db, provider }: RefundsServiceDeps,
  o: {
    id: string;
    txnId: string | null;
    paymentMethod: string | null;
    subscrId: string | null;
  },
): Promise<PaymentRail> {
  if (!o.txnId || o.paymentMethod !== "PayPal") return "none";
  if (o.subscrId) {
    const [renewed] = await db
      .select({ rail: subscriptions.rail })
      .from(subscriptions)
      .where(eq(subscriptions.subscrId, o.subscrId));
    return renewed?.rail === "api" ? "checkout" : "standard";
  }
  const [checkout] = await db
    .select({ id: paymentCheckouts.id })
    .from(paymentCheckouts)
    .where(eq(paymentCheckouts.orderId, o.id))
    .limit(1);
  if (checkout) return "checkout";
  const [notice] = await db
    .select({ id: paymentNotices.id })
    .from(paymentNotices)
    .where(
      and(
        eq(paymentNotices.orderId, o.id),
        // The REST rail's notices: IPN messages share the store (decision 069) under a provider of their own.
        eq(paymentNotices.provider, provider.name),
        eq(paymentNotices.outcome, "applied"),
        inArray(paymentNotices.noticeType, ["checkout.approved", "payment.completed", "subscription.payment"]),
      ),
    )
    .limit(1);
  return notice ? "checkout" : "standard";
}

async function linesOf({ db }: RefundsServiceDeps, orderId: string) {
  return db
    .select()
    .from(paymentRefunds)
    .where(eq(paymentRefunds.orderId, orderId))
    .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
}

/**
 * The order screen's refund panel: how it was paid, the refunds so far, what is left, PayPal's last day, whether
 * the button is there, and `seen` (the refunds shown, sent back with the form).
 */
export async function panel(deps: RefundsServiceDeps, orderId: string) {
  const o = await orderOf(deps, orderId);
  const rows = await linesOf(deps, o.id);
  const counted = rows.filter((r) => (counting as readonly string[]).includes(r.status)).map((r) => r.amountCents);
  const tally = tallyRefunds(o.price, counted);
  const deadline = o.paidAt ? refundDeadline(o.paidAt) : null;
  const rail = await railOf(deps, o);
  const paid = o.paymentStatus === "Paid" || o.paymentStatus === "Refunded";
  return {
    rail: paid ? rail : ("none" as PaymentRail),
    refunds: rows.map((r): RefundLine => ({
      id: r.id,
      amount: centsValue(r.amountCents),
      at: r.createdAt.toISOString(),
      by: r.byEmail,
      status: r.status,
      reason: r.reason,
      note: r.note,
    })),
    /** The order's currency (issue 35): every amount of the panel is in it. */
    currency: o.currency,
    refunded: centsValue(tally.refundedCents),
    remaining: centsValue(tally.remainingCents),
    kind: tally.kind,
    deadline: deadline?.toISOString() ?? null,
    /**
     * What the panel shows where the button would be: `open` (the button: paid on Checkout, something left, within
     * PayPal's days), `refunded` (nothing left), `not-paid` (the order is not Paid now, e.g. set Refunded by hand),
     * `too-late` (past PayPal's 180 days), `dashboard` (a Standard payment), `none` (no PayPal payment).
     */
    state: ((): "open" | "refunded" | "not-paid" | "too-late" | "dashboard" | "none" => {
      if (!paid || rail === "none") return "none";
      if (rail === "standard") return "dashboard";
      if (tally.remainingCents <= 0) return "refunded";
      if (o.paymentStatus !== "Paid") return "not-paid";
      if (!deadline || deps.now() > deadline) return "too-late";
      return "open";
    })(),
    seen: rows.length,
  };
}
