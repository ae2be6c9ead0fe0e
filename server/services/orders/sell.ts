import { eq } from "drizzle-orm";
import { dayKey } from "#domain/dates.ts";
import { centsOf } from "#domain/currency.ts";
import { DEFAULT_MONEY_SETTINGS } from "#domain/money-settings.ts";
import { priceReasonProblem, salePayment, saleSchema } from "#domain/sales.ts";
import { parseWith } from "#domain/validation.ts";
import { user } from "#server/db/schema.ts";
import { AppError, badRequest, notFound } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { jobKey, type Tx } from "../jobs";
import { applyTx } from "./apply";
import {
  auditCreated,
  idempotencyKeyOf,
  insertOrderTx,
  keyedOrderTx,
  lockCustomer,
  reportTx,
  taxColumns,
  toAmount,
  type OrderCommandsDeps,
} from "./context";
import { typedCustomer } from "./place";
import { priceOf } from "./price";
import type { OrderRow } from "./record";

/** A sale's form and key parsed, its package read and its price checked against the reason (before any transaction). */
async function saleOf({ content }: OrderCommandsDeps, input: unknown, idempotencyKey: unknown) {
  const parsed = parseWith(saleSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { packageId, price: typedPrice, reason, ...rest } = parsed.data;
  const key = idempotencyKeyOf(idempotencyKey);
  const pkg = await content.get("pricing", packageId).catch(() => {
    throw badRequest([
      { field: "packageId", message: "This package does not exist (any more): choose one of the list" },
    ]);
  });
  const listPrice = String(pkg.packagePrice);
  const price = typedPrice ?? listPrice;
  const problem = priceReasonProblem(centsOf(listPrice), centsOf(price), reason);
  if (problem) throw badRequest([{ field: "reason", message: problem }]);
  return { key, pkg, listPrice, typedPrice, price, reason, ...rest };
}

/** The link to pay a sale left unpaid, mailed once per order. */
const queuePayLink = ({ mails }: OrderCommandsDeps, tx: Tx, order: OrderRow) =>
  mails.queue(
    tx,
    "payLink",
    {
      orderId: order.id,
      orderNumber: order.number,
      customerName: order.customerName,
      packageName: order.packageName,
      amount: order.packagePrice,
      currency: order.currency,
    },
    order.customerEmail,
    jobKey("order", order.id, "pay-link"),
  );

/**
 * A sale made by hand (issue 35, part 7): staff make an order for the customer `userId` from their record, for a
 * package at its price or at another price with the reason why (kept in the order's activity for the staff), priced and
 * taxed by the path of the customer's own orders (`priceOf`: the typed price stands where the package's would). The
 * order is UnPaid and Pending, numbered, placed for the customer with the staff member as the actor; then, in the same
 * transaction, either its payment is recorded by the event every payment goes through (`applyTx`: Paid, the invoice
 * numbered, the receipt mailed; Delivered too with `activate`), or the customer is mailed the link to pay it, once per
 * order. With a one-time key the same key gives one order, however often it is sent.
 */
export async function sell(
  deps: OrderCommandsDeps,
  actor: Actor,
  userId: string,
  input: unknown,
  idempotencyKey?: unknown,
): Promise<{ order: OrderRow; created: boolean }> {
  const sale = await saleOf(deps, input, idempotencyKey);
  const { key, pkg, listPrice, typedPrice, price, reason, settle, reference, activate, ...fields } = sale;
  return audited(deps.db, actor, "order", async (tx, audit) => {
    await lockCustomer(tx, userId);
    const [customer] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    if (!customer) throw notFound("Customer not found");
    const existing = await keyedOrderTx(tx, userId, key);
    if (existing) {
      if (existing.packageId !== pkg._id)
        throw new AppError(409, "This idempotency key already made an order for another package.", [
          { field: "idempotencyKey", message: "Already used for another order" },
        ]);
      return { order: existing, created: false };
    }
    const t = deps.now();
    const money = (await deps.settings?.readTx(tx, "money")) ?? DEFAULT_MONEY_SETTINGS;
    const priced = priceOf(money, fields, price, null, dayKey(t, deps.timeZone));
    const order = await insertOrderTx(deps, tx, t, {
      userId,
      packageId: pkg._id,
      packageName: String(pkg.packageName),
      packagePrice: toAmount(priced.price.grossCents),
      packageValidity: Number(pkg.packageValidity),
      customer: typedCustomer(customer.email, fields, priced),
      ...taxColumns(priced.price.tax),
      paymentStatus: "UnPaid",
      orderStatus: "Pending",
      idempotencyKey: key,
    });
    await auditCreated(audit, order, {
      ...(typedPrice !== null && centsOf(typedPrice) !== centsOf(listPrice)
        ? { listPrice: Number(listPrice), salePrice: Number(typedPrice), priceReason: reason }
        : {}),
      ...(order.taxCents ? { currency: order.currency, taxCents: order.taxCents, taxRate: order.taxRate } : {}),
    });
    await reportTx(deps, tx, "order.placed", order, null, null, t);
    const payment = salePayment(settle, reference);
    if (payment) {
      const paid = await applyTx(deps, tx, audit, order, { type: "pay", at: t, ...payment, deliver: activate });
      return { order: paid.order, created: true };
    }
    await queuePayLink(deps, tx, order);
    return { order, created: true };
  });
}
