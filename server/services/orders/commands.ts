import { orderStatusEvent, paymentStatusEvent } from "#domain/order-lifecycle.ts";
import { orderStatusSchema, paymentStatusSchema } from "#domain/order-form.ts";
import { parseWith } from "#domain/validation.ts";
import { orders } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import { eq } from "drizzle-orm";
import type { Viewer } from "../accounts";
import type { Actor } from "../activity";
import { adminChange, change } from "./apply";
import type { OrderCommandsDeps } from "./context";
import { anonymiseTx } from "./erase";
import { grant } from "./grant";
import { flagPayment, noteDenied, notePending, paymentNotApplied, recomputeQueued } from "./notes";
import { place } from "./place";
import { renew } from "./renew";
import { sell } from "./sell";

export { GIFT_PACKAGE, IDEMPOTENCY_KEY_MAX, PAYPAL_ACTOR, type Changed, type OrderCommandsDeps } from "./context";

/** The customer cancels on PayPal's page (or My Orders): only their own order, only while it is unpaid. */
async function cancel(deps: OrderCommandsDeps, viewer: Viewer, id: string): Promise<{ modified: boolean }> {
  if (!isId(id)) throw notFound("Order not found");
  const [row] = await deps.db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, id));
  if (!row || (row.userId !== viewer.id && !viewer.isAdmin)) throw notFound("Order not found");
  const r = await change(deps, id, { type: "cancel", at: deps.now() }, { id: viewer.id, email: viewer.email });
  return { modified: r.changed };
}

/**
 * The only writer of the orders table: one function per transition, each a file of its own over the same
 * dependencies (place.ts, sell.ts, grant.ts, renew.ts, apply.ts for the events on an order, erase.ts, notes.ts). Each
 * runs in one transaction that takes the customer's lock (two changes to one customer's orders never interleave),
 * applies the event by the rules of domain/order-lifecycle.ts, recomputes and stores the customer's membership
 * timeline (domain/membership.ts), writes its activity entry and queues its mails, once. A new order is written by
 * one insert (context.ts `insertOrderTx`) with the customer's fields copied by one typed list (customer-fields.ts).
 */
export function createOrderCommands(deps: OrderCommandsDeps) {
  const { now } = deps;
  return {
    place: withDeps(deps, place),

    /** A payment: PayPal's verified one (txnId, actor PAYPAL_ACTOR) or one the studio marks by hand. */
    pay: (id: string, actor: Actor, txnId?: string) => change(deps, id, { type: "pay", at: now(), txnId }, actor),

    /**
     * A payment received outside PayPal (a bank transfer), recorded by the studio with its reference: the order is Paid
     * (and Delivered too with `activate`), as with any payment.
     */
    payOutside: (id: string, actor: Actor, reference: string, activate: boolean) =>
      change(deps, id, { type: "pay", at: now(), method: "Bank transfer", reference, deliver: activate }, actor),

    grant: withDeps(deps, grant),
    sell: withDeps(deps, sell),
    renew: withDeps(deps, renew),
    paymentNotApplied: withDeps(deps, paymentNotApplied),

    /**
     * PayPal reports the payment refunded or reversed, or a refund from the order screen reached the price: the order is
     * Refunded and gives no day. `note`: the studio's words to the customer, in the refund mail.
     */
    refund: (id: string, actor: Actor, how: "refund" | "reverse" = "refund", note: string | null = null) =>
      change(deps, id, how === "refund" ? { type: how, at: now(), note } : { type: how, at: now() }, actor),

    cancel: withDeps(deps, cancel),

    /** An admin sets the payment status (Paid, UnPaid, Refunded); the membership timeline follows. */
    setPaymentStatus: (id: string, input: unknown, actor: Actor) =>
      adminChange(deps, id, actor, parseWith(paymentStatusSchema, input ?? {}), (v) =>
        paymentStatusEvent(v.paymentStatus, now()),
      ),

    /** An admin sets the order status: Delivered starts a paid order's membership, Pending stops it. */
    setOrderStatus: (id: string, input: unknown, actor: Actor) =>
      adminChange(deps, id, actor, parseWith(orderStatusSchema, input ?? {}), (v) =>
        orderStatusEvent(v.orderStatus, now()),
      ),

    notePending: withDeps(deps, notePending),
    noteDenied: withDeps(deps, noteDenied),
    flagPayment: withDeps(deps, flagPayment),
    anonymiseTx: withDeps(deps, anonymiseTx),
    recomputeQueued: withDeps(deps, recomputeQueued),
  };
}

export type OrderCommands = ReturnType<typeof createOrderCommands>;
