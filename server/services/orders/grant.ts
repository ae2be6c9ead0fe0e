import { desc, eq, sql } from "drizzle-orm";
import { DAY_MS } from "#domain/membership.ts";
import { grantSchema } from "#domain/customers.ts";
import { DEFAULT_MONEY_SETTINGS } from "#domain/money-settings.ts";
import { parseWith } from "#domain/validation.ts";
import { orders, user } from "#server/db/schema.ts";
import { AppError, badRequest, notFound } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { jobKey, type Tx } from "../jobs";
import {
  auditCreated,
  GIFT_PACKAGE,
  idempotencyKeyOf,
  insertOrderTx,
  keyedOrderTx,
  lockCustomer,
  membershipEnd,
  recomputeTx,
  reportTx,
  runningEndTx,
  withWindow,
  type OrderCommandsDeps,
} from "./context";
import { customerFieldsOf, unknownCustomer } from "./customer-fields";
import type { OrderRow } from "./record";

/** A member brought from another site (decision 079): when their membership ends, and their package's name there. */
export interface Imported {
  endsAt: Date;
  packageName: string | null;
}

/**
 * The latest order, which says how the customer is addressed (its customer's fields) and, when it counts, the
 * package a membership extended keeps.
 */
async function latestOrderTx(tx: Tx, userId: string) {
  const [latest] = await tx
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(sql`${orders.membershipValid} desc nulls last`, desc(orders.createdAt))
    .limit(1);
  const counted = latest?.paymentStatus === "Paid" && latest.orderStatus === "Delivered" ? latest : undefined;
  return { latest, counted };
}

/** The order a key already gave, if it gave these days (else a 409), with the customer's membership end. */
async function grantedTx(tx: Tx, existing: OrderRow, days: number, imported: Imported | undefined, t: Date) {
  if (existing.paymentMethod !== "Gift" || (!imported && existing.packageValidity !== days))
    throw new AppError(409, "This idempotency key was already used for another order.", [
      { field: "idempotencyKey", message: "Already used for another order" },
    ]);
  const { windows } = await recomputeTx(tx, existing.userId);
  return { order: existing, created: false, membershipEnds: membershipEnd(windows, t) };
}

/**
 * Days given by the agency (a gift, a fix): a zero-price order, Paid and Delivered at once (payment method Gift, the
 * reason as its reference), laid after the customer's current window like any paid order. With a one-time key (the
 * form's, or the API's Idempotency-Key) the same key gives one order, however often it is sent. The customer hears
 * their membership's new end, once.
 *
 * `imported` (a member brought from another site, decision 079): the window is laid back from `endsAt` (activated
 * `days` before it, within the last day), so that it ends exactly then for a customer with no other membership; the
 * package keeps the file's name; no mail is sent; a key already used answers its order whatever its days.
 */
export async function grant(
  deps: OrderCommandsDeps,
  userId: string,
  input: unknown,
  actor: Actor,
  idempotencyKey?: unknown,
  imported?: Imported,
): Promise<{ order: OrderRow; created: boolean; membershipEnds: Date | null }> {
  const parsed = parseWith(grantSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const key = idempotencyKeyOf(idempotencyKey);
  const { days, reason } = parsed.data;
  return audited(deps.db, actor, "order", async (tx, audit) => {
    await lockCustomer(tx, userId);
    const [customer] = await tx.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, userId));
    if (!customer) throw notFound("Customer not found");
    const t = deps.now();
    const existing = await keyedOrderTx(tx, userId, key);
    if (existing) return grantedTx(tx, existing, days, imported, t);
    const { latest, counted } = await latestOrderTx(tx, userId);
    const endBefore = await runningEndTx(deps, tx, userId, t);
    const activatedAt = imported ? new Date(imported.endsAt.getTime() - days * DAY_MS) : t;
    const money = (await deps.settings?.readTx(tx, "money")) ?? DEFAULT_MONEY_SETTINGS;
    const row = await insertOrderTx(deps, tx, t, {
      userId,
      packageId: imported?.packageName ? null : (counted?.packageId ?? null),
      packageName: imported?.packageName || (counted?.packageName ?? GIFT_PACKAGE),
      packagePrice: 0,
      currency: money.currency,
      packageValidity: days,
      // Addressed as on their latest order, at their account's email.
      customer: {
        ...(latest ? customerFieldsOf(latest) : unknownCustomer({ customerName: customer.name })),
        customerEmail: customer.email,
      },
      paymentStatus: "Paid",
      orderStatus: "Delivered",
      paidAt: activatedAt,
      deliveredAt: activatedAt,
      paymentMethod: "Gift",
      paymentReference: reason,
      idempotencyKey: key,
    });
    const { windows, order } = await withWindow(tx, row);
    await auditCreated(audit, order, { paymentMethod: "Gift", reason, days });
    const membershipEnds = membershipEnd(windows, t);
    // Days given are no payment: no order.paid, only the membership's events.
    await reportTx(deps, tx, null, order, endBefore, windows, t);
    if (membershipEnds && !imported)
      await deps.mails.queue(
        tx,
        "membershipGiven",
        {
          orderId: order.id,
          orderNumber: order.number,
          customerName: order.customerName,
          days,
          expiresAt: membershipEnds,
        },
        customer.email,
        jobKey("order", order.id, "given"),
      );
    return { order, created: true, membershipEnds };
  });
}
