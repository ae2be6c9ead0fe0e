import { eq } from "drizzle-orm";
import { dayKey } from "#domain/dates.ts";
import { centsOf } from "#domain/currency.ts";
import { renewalTax } from "#domain/order-price.ts";
import { renewalPrice } from "#domain/subscription-price.ts";
import { orders } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import { audited } from "../activity";
import { orderData } from "../webhooks/payloads";
import { queueMails } from "./apply";
import {
  auditCreated,
  insertOrderTx,
  lockCustomer,
  PAYPAL_ACTOR,
  reportTx,
  runningEndTx,
  withWindow,
  type Changed,
  type OrderCommandsDeps,
} from "./context";
import { customerFieldsOf } from "./customer-fields";

/**
 * A later period's payment of a PayPal subscription (decision 046): a new order, Paid by PayPal (its transaction id,
 * unique, so a retried notification cannot add a second), copying the subscribed order's package and customer, with
 * its number and invoice, laid after the current window by the timeline. Delivered at once when the subscribed
 * order was (or when payments activate automatically); else it waits for the studio like any paid order.
 */
export async function renew(
  deps: OrderCommandsDeps,
  firstId: string,
  txnId: string,
  subscrId: string,
): Promise<Changed> {
  if (!isId(firstId)) throw notFound("Order not found");
  const [first] = await deps.db.select().from(orders).where(eq(orders.id, firstId));
  if (!first) throw notFound("Order not found");
  return audited(deps.db, PAYPAL_ACTOR, "order", async (tx, audit) => {
    await lockCustomer(tx, first.userId);
    const t = deps.now();
    const deliver = first.orderStatus === "Delivered" || Boolean(await deps.settings?.readTx(tx, "autoActivate"));
    // What this payment costs (domain/subscription-price.ts): the price before a first-period code, or the order's
    // price with an every-period code carried (no new use of it: one subscription, one use).
    const price = renewalPrice(first);
    const endBefore = await runningEndTx(deps, tx, first.userId, t);
    const row = await insertOrderTx(deps, tx, t, {
      userId: first.userId,
      packageId: first.packageId,
      packageName: first.packageName,
      packagePrice: price.packagePrice,
      ...(price.carriesDiscount
        ? {
            priceBefore: price.priceBefore,
            discountAmount: price.discountAmount,
            discountCode: first.discountCode,
            discountCodeId: first.discountCodeId,
            discountPeriod: first.discountPeriod,
          }
        : {}),
      packageValidity: first.packageValidity,
      customer: customerFieldsOf(first),
      // The same sale each period: the first order's currency and treatment; the VAT within the same gross at the
      // rate of the payment's day (decision 072).
      currency: first.currency,
      ...renewalTax(first, centsOf(price.packagePrice), dayKey(t, deps.timeZone)),
      taxCountry: first.taxCountry,
      taxTreatment: first.taxTreatment,
      taxNote: first.taxNote,
      paymentStatus: "Paid",
      orderStatus: deliver ? "Delivered" : "Pending",
      paidAt: t,
      deliveredAt: deliver ? t : null,
      txnId,
      paymentMethod: "PayPal",
      subscrId,
      invoiced: price.packagePrice > 0,
    });
    const { windows, order } = await withWindow(tx, row);
    await auditCreated(audit, order, {
      ...(price.carriesDiscount ? { discountCode: order.discountCode, discountAmount: order.discountAmount } : {}),
      renewalOf: first.number,
    });
    await queueMails(deps, tx, { type: "pay", at: t, txnId }, order, order, windows);
    // A renewal is a payment of a new order, and the subscription's renewal.
    await reportTx(deps, tx, "order.paid", order, endBefore, windows, t);
    await deps.webhooks?.emitTx(tx, "subscription.renewed", {
      subscription: { subscrId, firstOrderId: first.id, firstOrderNumber: first.number },
      ...orderData(order),
    });
    return { changed: true, order };
  });
}
