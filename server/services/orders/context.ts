import { and, eq, isNotNull, or, sql } from "drizzle-orm";
import { usDate } from "#domain/dates.ts";
import { membershipTimeline, type MembershipWindow } from "#domain/membership.ts";
import { formatInvoiceNumber, invoiceNumberScope } from "#domain/invoice-number.ts";
import { formatOrderNumber, orderNumberScope } from "#domain/order-number.ts";
import { centsToDecimal } from "#domain/currency.ts";
import type { OrderState } from "#domain/order-lifecycle.ts";
import type { Tax } from "#domain/tax.ts";
import type { Db } from "#server/db/client.ts";
import { orders } from "#server/db/schema.ts";
import { badRequest } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { Actor, Audit } from "../activity";
import type { ContentService } from "../content";
import type { Tx } from "../jobs";
import { nextNumberTx } from "../number-sequences";
import type { CreditNotesService } from "../credit-notes";
import type { MailsService } from "../mails";
import type { SettingsService } from "../settings";
import type { DiscountsService } from "../discounts";
import type { WebhookEmitter } from "../webhooks";
import { customerOf, orderData } from "../webhooks/payloads";
import type { CustomerColumn, CustomerFields } from "./customer-fields";
import type { OrderRow } from "./record";

/** The package name of days given to a customer who never had a membership (an extension keeps its package's). */
export const GIFT_PACKAGE = "Membership given by the studio";

/** Who changes an order when PayPal's verified notification does (the activity log's "who"). */
export const PAYPAL_ACTOR: Actor = { id: "paypal", email: "PayPal" };

/** The most characters of an idempotency key (a UUID is 36). */
export const IDEMPOTENCY_KEY_MAX = 200;

export interface OrderCommandsDeps {
  db: Db;
  content: Pick<ContentService, "get" | "list">;
  logger: Logger;
  now: () => Date;
  timeZone: string;
  /** For the automatic activation of a verified payment (an admin setting). */
  settings?: Pick<SettingsService, "readTx">;
  /** The mails, queued in the transaction of the change that causes each (one per order and event). */
  mails: Pick<MailsService, "queue" | "queueToAdmins">;
  /** An order placed with a discount code takes its price from here, under the code's lock (decision 049). */
  discounts?: Pick<DiscountsService, "priceTx" | "payTx">;
  /** A payment set to Refunded is credited, in its transaction, for what no credit note covers yet (decision 073). */
  creditNotes?: Pick<CreditNotesService, "issueTx" | "lastNumberTx">;
  /** Outgoing webhooks (docs/decisions/078): each change's events, written in its transaction. */
  webhooks?: WebhookEmitter;
}

/** What a command did to its order. */
export interface Changed {
  changed: boolean;
  order: OrderRow;
}

const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

export const stateOf = (o: OrderRow): OrderState => ({
  paymentStatus: o.paymentStatus,
  orderStatus: o.orderStatus,
  paidAt: o.paidAt,
  deliveredAt: o.deliveredAt,
  txnId: o.txnId,
});

/** The fields of an order its activity entries show. */
export const auditedFields = (
  o: Pick<OrderRow, "paymentStatus" | "orderStatus" | "membershipValid" | "invoiceNumber">,
) => ({
  paymentStatus: o.paymentStatus,
  orderStatus: o.orderStatus,
  membershipValid: o.membershipValid?.toISOString() ?? null,
  invoiceNumber: o.invoiceNumber,
});

/**
 * The one activity entry of a new order: its number, package and price, what the command adds (`extra`: a discount,
 * the tax, a gift's reason, the renewed order) and the fields every order's entries show.
 */
export const auditCreated = (audit: Audit, order: OrderRow, extra: Record<string, unknown>) =>
  audit.created(order.id, {
    number: order.number,
    packageName: order.packageName,
    packagePrice: order.packagePrice,
    ...extra,
    ...auditedFields(order),
  });

/** A decimal amount of the orders table from whole cents (numeric(10, 2): exact for two decimals). */
export const toAmount = (cents: number) => Number(centsToDecimal(cents));

/** The tax columns of an order, from `taxFor`'s answer. */
export const taxColumns = (tax: Tax) => ({
  currency: tax.currency,
  taxCents: tax.taxCents,
  taxRate: tax.rateBasisPoints,
  taxCountry: tax.rateCountry,
  taxTreatment: tax.treatment,
  taxNote: tax.note,
});

/** Serialises every change to one customer's orders (held to the end of the transaction). */
export const lockCustomer = (tx: Tx, userId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"membership:" + userId}))`);

/**
 * The next number of the year (in the site's zone) from one of the counters (orders, invoices), taken in this
 * transaction: a rollback gives it back, so a year's numbers have no gap.
 */
export const nextNumber = (
  { timeZone }: Pick<OrderCommandsDeps, "timeZone">,
  tx: Tx,
  at: Date,
  scope: (year: number) => string,
  format: (year: number, sequence: number) => string,
): Promise<string> => nextNumberTx(tx, at, timeZone, scope, format);

/** The invoice of an order paid for money at `at`: the year's next invoice number, taken in this transaction. */
export const invoiceOf = async (deps: Pick<OrderCommandsDeps, "timeZone">, tx: Tx, at: Date) => ({
  invoiceNumber: await nextNumber(deps, tx, at, invoiceNumberScope, formatInvoiceNumber),
  invoicedAt: at,
});

/** What a new order is given by its command: everything but its number, date and times, and the customer as a whole. */
export type NewOrder = Omit<
  typeof orders.$inferInsert,
  "id" | "number" | "orderDate" | "createdAt" | "updatedAt" | "invoiceNumber" | "invoicedAt" | CustomerColumn
> & {
  /** Who placed it: every customer's field, by customerFieldsOf or unknownCustomer (customer-fields.ts). */
  customer: CustomerFields;
  /** It is paid for money now: its invoice is numbered with it, after its own number. */
  invoiced?: boolean;
};

/**
 * The one insert of a new order (place, sell, grant, renew): the year's next number, the date of `at` in the site's
 * zone, the customer's fields as given, and its invoice when `invoiced`.
 */
export async function insertOrderTx(
  deps: Pick<OrderCommandsDeps, "timeZone">,
  tx: Tx,
  at: Date,
  { customer, invoiced, ...order }: NewOrder,
): Promise<OrderRow> {
  const number = await nextNumber(deps, tx, at, orderNumberScope, formatOrderNumber);
  const invoice = invoiced ? await invoiceOf(deps, tx, at) : {};
  const [row] = await tx
    .insert(orders)
    .values({
      ...order,
      ...customer,
      ...invoice,
      number,
      orderDate: usDate(at, deps.timeZone),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return row!;
}

/**
 * Recomputes the customer's membership windows from all their orders and stores those that moved (one statement).
 * Returns each counting order's window and how many orders changed.
 */
export async function recomputeTx(
  tx: Tx,
  userId: string,
): Promise<{ windows: Map<string, MembershipWindow>; moved: number }> {
  const rows = await tx
    .select({
      id: orders.id,
      paymentStatus: orders.paymentStatus,
      orderStatus: orders.orderStatus,
      packageValidity: orders.packageValidity,
      paidAt: orders.paidAt,
      deliveredAt: orders.deliveredAt,
      createdAt: orders.createdAt,
      membershipStarts: orders.membershipStarts,
      membershipValid: orders.membershipValid,
    })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        or(
          and(eq(orders.paymentStatus, "Paid"), eq(orders.orderStatus, "Delivered")),
          isNotNull(orders.membershipValid),
          isNotNull(orders.membershipStarts),
        ),
      ),
    );
  const windows = new Map(membershipTimeline(rows).map((w) => [w.orderId, w]));
  const moved = rows.filter((r) => {
    const w = windows.get(r.id);
    return !same(r.membershipStarts, w?.starts ?? null) || !same(r.membershipValid, w?.ends ?? null);
  });
  if (moved.length) {
    const values = moved.map((r) => ({
      id: r.id,
      starts: windows.get(r.id)?.starts.toISOString() ?? null,
      ends: windows.get(r.id)?.ends.toISOString() ?? null,
    }));
    await tx.execute(sql`
      update ${orders} set membership_starts = v.starts, membership_valid = v.ends
      from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id uuid, starts timestamptz, ends timestamptz)
      where ${orders.id} = v.id`);
  }
  return { windows, moved: moved.length };
}

/** An order just written, as stored: its customer's windows recomputed, and its own window read back into it. */
export async function withWindow(
  tx: Tx,
  row: OrderRow,
): Promise<{ windows: Map<string, MembershipWindow>; order: OrderRow }> {
  const { windows } = await recomputeTx(tx, row.userId);
  const window = windows.get(row.id);
  return {
    windows,
    order: { ...row, membershipStarts: window?.starts ?? null, membershipValid: window?.ends ?? null },
  };
}

/** The end of the customer's membership after a change: the latest end of a window still running, or null. */
export const membershipEnd = (windows: Map<string, MembershipWindow>, at: Date): Date | null => {
  let end: Date | null = null;
  for (const w of windows.values()) if (w.ends > at && (!end || w.ends > end)) end = w.ends;
  return end;
};

/**
 * The end of the customer's running membership as stored before a change (under their lock): what the membership
 * events compare the end after it with. Not read when no webhook is wired.
 */
export async function runningEndTx(
  { webhooks }: Pick<OrderCommandsDeps, "webhooks">,
  tx: Tx,
  userId: string,
  at: Date,
): Promise<Date | null> {
  if (!webhooks) return null;
  const [row] = await tx
    .select({ ends: sql<string | null>`max(${orders.membershipValid})` })
    .from(orders)
    .where(and(eq(orders.userId, userId), sql`${orders.membershipValid} > ${at.toISOString()}::timestamptz`));
  return row?.ends ? new Date(row.ends) : null;
}

/**
 * The webhook events of one change, in its transaction (docs/decisions/078): the order's own (`orderEvent`, if
 * any) and the membership's, from its end before and after.
 */
export async function reportTx(
  { webhooks }: Pick<OrderCommandsDeps, "webhooks">,
  tx: Tx,
  orderEvent: "order.placed" | "order.paid" | "order.refunded" | "order.cancelled" | null,
  order: OrderRow,
  endBefore: Date | null,
  windows: Map<string, MembershipWindow> | null,
  at: Date,
) {
  if (!webhooks) return;
  if (orderEvent) await webhooks.emitTx(tx, orderEvent, orderData(order));
  if (windows)
    await webhooks.membershipChangedTx(tx, customerOf(order), endBefore, membershipEnd(windows, at), {
      id: order.id,
      number: order.number,
    });
}

/** The order a one-time key already made for this customer, if any (read under the customer's lock). */
export async function keyedOrderTx(tx: Tx, userId: string, key: string | null): Promise<OrderRow | undefined> {
  if (!key) return undefined;
  const [existing] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return existing;
}

/** An idempotency key as sent: absent, or 1 to 200 visible characters. */
export function idempotencyKeyOf(key: unknown): string | null {
  if (key === undefined || key === null || key === "") return null;
  if (typeof key !== "string" || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key))
    throw badRequest([
      {
        field: "idempotencyKey",
        message: `The idempotency key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible characters (a UUID, for example)`,
      },
    ]);
  return key;
}
