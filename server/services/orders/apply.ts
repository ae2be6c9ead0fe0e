import { eq } from "drizzle-orm";
import type { MembershipWindow } from "#domain/membership.ts";
import { applyOrderEvent, type OrderEvent } from "#domain/order-lifecycle.ts";
import { takesInvoiceNumber } from "#domain/invoice-number.ts";
import type { ParseResult } from "#domain/validation.ts";
import { orders } from "#server/db/schema.ts";
import { AppError, badRequest, isId, notFound } from "#server/lib/errors.ts";
import { audited, type Actor, type Audit } from "../activity";
import { jobKey, type Tx } from "../jobs";
import {
  auditedFields,
  invoiceOf,
  lockCustomer,
  membershipEnd,
  reportTx,
  runningEndTx,
  stateOf,
  withWindow,
  type Changed,
  type OrderCommandsDeps,
} from "./context";
import type { OrderRow } from "./record";

/** What a payment event stores of how it was paid (an order set back to UnPaid forgets it). */
const paymentOf = (event: OrderEvent) =>
  event.type === "pay"
    ? {
        providerStatus: null,
        paymentMethod: event.method ?? (event.txnId ? ("PayPal" as const) : ("By hand" as const)),
        paymentReference: event.reference ?? null,
      }
    : event.type === "unpay"
      ? { paymentMethod: null, paymentReference: null }
      : {};

/** The webhook event of an order's own that an event on it reports, if any. */
const orderEventOf = (event: OrderEvent, before: OrderRow) =>
  event.type === "pay"
    ? "order.paid"
    : (event.type === "refund" || event.type === "reverse") && before.paymentStatus === "Paid"
      ? "order.refunded"
      : event.type === "cancel"
        ? "order.cancelled"
        : null;

/**
 * A paid order now Refunded (by hand, PayPal's refund or reversal): the money not yet credited by a refund's own
 * credit note is, in this transaction (decision 073); the refund mail names the order's latest credit note.
 */
async function creditTx(
  { creditNotes }: OrderCommandsDeps,
  tx: Tx,
  event: OrderEvent,
  before: OrderRow,
): Promise<string | null> {
  if ((event.type !== "refund" && event.type !== "reverse") || before.paymentStatus !== "Paid" || !creditNotes)
    return null;
  await creditNotes.issueTx(tx, { orderId: before.id, refundId: null, refundCents: null, reason: null, at: event.at });
  return creditNotes.lastNumberTx(tx, before.id);
}

/**
 * One event applied to one order, with everything that goes with it, in `tx`: the customer's lock, the row written,
 * the timeline recomputed, the activity entry, the mails. A refused event is a 409 with its sentence.
 */
export async function applyTx(
  deps: OrderCommandsDeps,
  tx: Tx,
  audit: Audit,
  order: OrderRow,
  event: OrderEvent,
): Promise<Changed> {
  await lockCustomer(tx, order.userId);
  const [before] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
  if (!before) throw notFound("Order not found");
  const t = event.at;
  const result = applyOrderEvent(stateOf(before), event);
  if (result.kind === "refused") throw new AppError(409, result.reason);
  if (result.kind === "unchanged") return { changed: false, order: before };
  const endBefore = await runningEndTx(deps, tx, before.userId, t);
  // A payment takes its code's use only if the code still has room for it (decision 060): a kept pay form paid
  // after the order was cancelled, or after its hold ran out, may find the code used up by others meanwhile.
  if (event.type === "pay" && before.discountCodeId && !before.subscrId && deps.discounts) {
    const refusal = await deps.discounts.payTx(tx, before.discountCodeId, before);
    if (refusal) throw new AppError(409, refusal);
  }
  const next = result.state;
  // The first payment for money issues the order's invoice, numbered in this transaction (decision 038).
  const invoice = takesInvoiceNumber(before, event.type) ? await invoiceOf(deps, tx, t) : {};
  await tx
    .update(orders)
    .set({ ...next, ...invoice, ...paymentOf(event), updatedAt: t })
    .where(eq(orders.id, before.id));
  const { windows, order: after } = await withWindow(tx, { ...before, ...next, ...invoice, updatedAt: t });
  await audit.updated(before.id, auditedFields(before), auditedFields(after));
  const creditNote = await creditTx(deps, tx, event, before);
  await queueMails(deps, tx, event, before, after, windows, creditNote);
  await reportTx(deps, tx, orderEventOf(event, before), after, endBefore, windows, t);
  if (event.type === "pay" && after.orderStatus === "Delivered" && before.orderStatus === "Pending")
    deps.logger.info({ orderId: before.id }, "verified payment: membership activated automatically");
  return { changed: true, order: after };
}

/** What every mail about an order names. */
const mailBase = (order: OrderRow) => ({
  orderId: order.id,
  orderNumber: order.number,
  currency: order.currency,
  customerName: order.customerName,
  packageName: order.packageName,
});

/** The membership mail of an order whose window has started (once per order). */
const queueActive = ({ mails }: OrderCommandsDeps, tx: Tx, order: OrderRow) =>
  mails.queue(
    tx,
    "membershipActive",
    { ...mailBase(order), expiresAt: order.membershipValid! },
    order.customerEmail,
    jobKey("order", order.id, "active"),
  );

/** A payment's mails: the receipt, the membership started, or every admin told a verified payment waits for them. */
async function queuePaidMails(deps: OrderCommandsDeps, tx: Tx, event: OrderEvent & { type: "pay" }, after: OrderRow) {
  const base = mailBase(after);
  const to = after.customerEmail;
  const started = after.membershipValid && after.membershipValid > event.at;
  await deps.mails.queue(
    tx,
    "paymentReceived",
    {
      ...base,
      amount: after.packagePrice,
      paidAt: event.at,
      txnId: event.txnId ?? null,
      activated: after.orderStatus === "Delivered",
      invoiceNumber: after.invoiceNumber,
    },
    to,
    jobKey("order", after.id, "paid"),
  );
  if (after.orderStatus === "Delivered" && started) await queueActive(deps, tx, after);
  // A verified payment that waits for delivery: every admin hears it, once per order.
  if (event.txnId && after.orderStatus === "Pending")
    await deps.mails.queueToAdmins(
      tx,
      "adminPaymentWaiting",
      { ...base, customerEmail: to, amount: after.packagePrice, txnId: event.txnId },
      jobKey("order", after.id, "waiting"),
    );
}

/** The mails an event sends, each once per order (their job keys). */
export async function queueMails(
  deps: OrderCommandsDeps,
  tx: Tx,
  event: OrderEvent,
  before: OrderRow,
  after: OrderRow,
  windows: Map<string, MembershipWindow>,
  creditNote: string | null = null,
) {
  const to = after.customerEmail;
  switch (event.type) {
    case "pay":
      return queuePaidMails(deps, tx, event, after);
    case "deliver":
      // Delivering a paid order starts its membership: the customer hears it (once per order).
      if (after.paymentStatus === "Paid" && after.membershipValid && after.membershipValid > event.at)
        await queueActive(deps, tx, after);
      return;
    case "cancel":
      await deps.mails.queue(
        tx,
        "orderCancelled",
        { ...mailBase(after), amount: after.packagePrice },
        to,
        jobKey("order", after.id, "cancelled"),
      );
      return;
    case "refund":
    case "reverse":
      if (before.paymentStatus === "Paid")
        await deps.mails.queue(
          tx,
          "paymentRefunded",
          {
            ...mailBase(after),
            amount: after.packagePrice,
            membershipEnds: membershipEnd(windows, event.at),
            note: event.type === "refund" ? (event.note ?? null) : null,
            creditNoteNumber: creditNote,
          },
          to,
          jobKey("order", after.id, "refunded"),
        );
      return;
    case "undeliver":
    case "unpay":
      return;
  }
}

/** An audited transaction around one event on the order `id` (a 404 for an id that is no order). */
export async function change(deps: OrderCommandsDeps, id: string, event: OrderEvent, actor: Actor): Promise<Changed> {
  if (!isId(id)) throw notFound("Order not found");
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, id));
  if (!order) throw notFound("Order not found");
  return audited(deps.db, actor, "order", async (tx, audit) => {
    if (event.type !== "pay" || !event.txnId || order.orderStatus !== "Pending")
      return applyTx(deps, tx, audit, order, event);
    // A payment PayPal verified also activates the membership when the admin chose so (in one UPDATE).
    const deliver = Boolean(await deps.settings?.readTx(tx, "autoActivate"));
    return applyTx(deps, tx, audit, order, { ...event, deliver });
  });
}

/** An admin's status form or call: its parsed value as an event, with the order's window after it. */
export async function adminChange<V>(
  deps: OrderCommandsDeps,
  id: string,
  actor: Actor,
  parsed: ParseResult<V>,
  event: (value: V) => OrderEvent,
): Promise<{ modified: boolean; membershipValid: string | null }> {
  if (!parsed.ok) throw badRequest(parsed.errors);
  const r = await change(deps, id, event(parsed.data), actor);
  return { modified: r.changed, membershipValid: r.order.membershipValid?.toISOString() ?? null };
}
