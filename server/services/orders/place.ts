import { dayKey } from "#domain/dates.ts";
import { orderFormSchema } from "#domain/order-form.ts";
import { DEFAULT_MONEY_SETTINGS } from "#domain/money-settings.ts";
import { parseWith } from "#domain/validation.ts";
import { AppError, badRequest } from "#server/lib/errors.ts";
import type { Viewer } from "../accounts";
import { audited } from "../activity";
import { jobKey } from "../jobs";
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
import { customerFieldsOf, type CustomerFields } from "./customer-fields";
import { priceOf } from "./price";
import { toOrderRecord, type OrderRecord } from "./record";

/**
 * The customer's fields of a new order from its form (the customer's own, or a sale's by hand): the account's email,
 * the country and VAT number as `priceOf` checked them, every other field as typed (a new one comes with the form).
 */
export const typedCustomer = (
  email: string,
  form: Omit<CustomerFields, "customerEmail" | "customerCountry" | "customerCountryCode" | "customerVatNumber">,
  priced: { country: string; code: string | null; vatNumber: string | null },
) =>
  customerFieldsOf({
    ...form,
    customerEmail: email,
    customerCountry: priced.country,
    customerCountryCode: priced.code,
    customerVatNumber: priced.vatNumber,
  });

/**
 * The package an order is for: by packageId (our pages send it), or by the spec's packageName when no id is given.
 * Name, price and validity are then copied from that record; what the request says about them is ignored.
 */
async function orderedPackage({ content }: OrderCommandsDeps, packageId: unknown, packageName: unknown) {
  const unknownPackage = (field: string) =>
    new AppError(404, "This package does not exist (any more). Please choose one on the pricing page.", [
      { field, message: "Unknown package" },
    ]);
  if (typeof packageId === "string" && packageId !== "") {
    return content.get("pricing", packageId).catch(() => {
      throw unknownPackage("packageId");
    });
  }
  if (typeof packageName !== "string" || packageName.trim() === "")
    throw badRequest([{ field: "packageId", message: "Choose a package" }]);
  const named = (await content.list("pricing")).filter((p) => p.packageName === packageName.trim());
  if (named.length === 0) throw unknownPackage("packageName");
  if (named.length > 1)
    throw badRequest([
      { field: "packageId", message: `Several packages are called ${packageName.trim()}: send packageId` },
    ]);
  return named[0]!;
}

/**
 * Places an order for a package as the signed-in customer: UnPaid, Pending, today's date, the year's next number.
 * With a one-time key (the order form's, or the API's Idempotency-Key), the same key gives the same order: the
 * second call finds the first's order (`created` false), however close together they come.
 */
export async function place(
  deps: OrderCommandsDeps,
  viewer: Viewer,
  packageId: unknown,
  input: unknown,
  idempotencyKey?: unknown,
): Promise<{ order: OrderRecord; created: boolean }> {
  const parsed = parseWith(orderFormSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { discountCode: typedCode, ...fields } = parsed.data;
  const key = idempotencyKeyOf(idempotencyKey);
  const pkg = await orderedPackage(deps, packageId, (input as { packageName?: unknown } | null)?.packageName);
  const { discounts, settings, timeZone, mails } = deps;
  return audited(deps.db, { id: viewer.id, email: viewer.email }, "order", async (tx, audit) => {
    await lockCustomer(tx, viewer.id);
    const existing = await keyedOrderTx(tx, viewer.id, key);
    if (existing) {
      if (existing.packageId !== pkg._id)
        throw new AppError(409, "This idempotency key already placed an order for another package.", [
          { field: "idempotencyKey", message: "Already used for another order" },
        ]);
      return { order: toOrderRecord(existing), created: false };
    }
    const t = deps.now();
    // A discount code: its price, or a 400 saying why it does not apply (decision 049).
    const listPrice = Number(pkg.packagePrice);
    const discount =
      typedCode && discounts
        ? await discounts.priceTx(tx, typedCode, { userId: viewer.id, packageId: pkg._id, price: listPrice })
        : null;
    // The VAT, fixed now (issue 35, decision 072): the order keeps the currency and the tax of this moment.
    const money = (await settings?.readTx(tx, "money")) ?? DEFAULT_MONEY_SETTINGS;
    const priced = priceOf(money, fields, listPrice, discount?.price ?? null, dayKey(t, timeZone));
    const { price } = priced;
    const order = await insertOrderTx(deps, tx, t, {
      userId: viewer.id,
      packageId: pkg._id,
      packageName: String(pkg.packageName),
      packagePrice: toAmount(price.grossCents),
      packageValidity: Number(pkg.packageValidity),
      customer: typedCustomer(viewer.email, fields, priced),
      ...taxColumns(price.tax),
      ...(discount
        ? {
            discountCode: discount.discountCode,
            discountCodeId: discount.discountCodeId,
            discountPeriod: discount.discountPeriod,
            priceBefore: toAmount(price.grossBeforeCents!),
            discountAmount: toAmount(price.discountCents),
          }
        : {}),
      paymentStatus: "UnPaid",
      orderStatus: "Pending",
      idempotencyKey: key,
    });
    await auditCreated(audit, order, {
      ...(discount ? { discountCode: discount.discountCode, discountAmount: order.discountAmount } : {}),
      ...(order.taxCents ? { currency: order.currency, taxCents: order.taxCents, taxRate: order.taxRate } : {}),
    });
    await mails.queue(
      tx,
      "orderPlaced",
      {
        orderId: order.id,
        orderNumber: order.number,
        currency: order.currency,
        customerName: order.customerName,
        packageName: order.packageName,
        amount: order.packagePrice,
      },
      order.customerEmail,
      jobKey("order", order.id, "placed"),
    );
    await reportTx(deps, tx, "order.placed", order, null, null, t);
    return { order: toOrderRecord(order), created: true };
  });
}
