import { and, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { dayKey, usDate } from "../../../domain/dates";
import { DAY_MS, membershipTimeline, type MembershipWindow } from "../../../domain/membership";
import { ERASED_NAME, erasedEmail, withoutPerson } from "../../../domain/privacy";
import { orderFormSchema, orderStatusSchema, paymentStatusSchema } from "../../../domain/order-form";
import {
  applyOrderEvent,
  orderStatusEvent,
  paymentStatusEvent,
  type OrderEvent,
  type OrderState,
} from "../../../domain/order-lifecycle";
import { formatOrderNumber, orderNumberScope } from "../../../domain/order-number";
import { renewalPrice } from "../../../domain/subscription-price";
import { centsOf, centsToDecimal } from "../../../domain/currency";
import { DEFAULT_MONEY_SETTINGS } from "../../../domain/money-settings";
import { renewalTax } from "../../../domain/order-price";
import type { Tax } from "../../../domain/tax";
import { priceReasonProblem, salePayment, saleSchema } from "../../../domain/sales";
import { formatInvoiceNumber, invoiceNumberScope, takesInvoiceNumber } from "../../../domain/invoice-number";
import { parseWith, type ParseResult } from "../../../domain/validation";
import type { Db } from "../../db/client";
import { grantSchema } from "../../../domain/customers";
import { membershipRecompute, orders, user } from "../../db/schema";
import { AppError, badRequest, isId, notFound } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { Viewer } from "../accounts";
import { audited, type Actor, type Audit } from "../activity";
import type { ContentService } from "../content";
import { jobKey, type Tx } from "../jobs";
import { nextNumberTx } from "../number-sequences";
import type { CreditNotesService } from "../credit-notes";
import type { MailsService } from "../mails";
import type { SettingsService } from "../settings";
import type { DiscountsService } from "../discounts";
import { priceOf } from "./price";
import { toOrderRecord, type OrderRecord, type OrderRow } from "./record";
import type { WebhookEmitter } from "../webhooks";
import { customerOf, orderData } from "../webhooks/payloads";

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
const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
const stateOf = (o: OrderRow): OrderState => ({
  paymentStatus: o.paymentStatus,
  orderStatus: o.orderStatus,
  paidAt: o.paidAt,
  deliveredAt: o.deliveredAt,
  txnId: o.txnId,
});
/** The fields of an order its activity entries show. */
const audited_ = (o: Pick<OrderRow, "paymentStatus" | "orderStatus" | "membershipValid" | "invoiceNumber">) => ({
  paymentStatus: o.paymentStatus,
  orderStatus: o.orderStatus,
  membershipValid: o.membershipValid?.toISOString() ?? null,
  invoiceNumber: o.invoiceNumber,
});

/**
 * The only writer of the orders table: one function per transition. Each runs in one transaction that takes the
 * customer's lock (two changes to one customer's orders never interleave), applies the event by the rules of
 * domain/order-lifecycle.ts, recomputes and stores the customer's membership timeline (domain/membership.ts), writes
 * its activity entry and queues its mails, once.
 */
/** A decimal amount of the orders table from whole cents (numeric(10, 2): exact for two decimals). */
const toAmount = (cents: number) => Number(centsToDecimal(cents));

/** The tax columns of an order, from `taxFor`'s answer. */
const taxColumns = (tax: Tax) => ({
  currency: tax.currency,
  taxCents: tax.taxCents,
  taxRate: tax.rateBasisPoints,
  taxCountry: tax.rateCountry,
  taxTreatment: tax.treatment,
  taxNote: tax.note,
});

export function createOrderCommands({
  db,
  content,
  logger,
  now,
  timeZone,
  settings,
  mails,
  discounts,
  creditNotes,
  webhooks,
}: OrderCommandsDeps) {
  /** Serialises every change to one customer's orders (held to the end of the transaction). */
  const lockCustomer = (tx: Tx, userId: string) =>
    tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"membership:" + userId}))`);

  /**
   * Recomputes the customer's membership windows from all their orders and stores those that moved (one statement).
   * Returns each counting order's window and how many orders changed.
   */
  async function recomputeTx(
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
  async function withWindow(
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
  const membershipEnd = (windows: Map<string, MembershipWindow>, at: Date): Date | null => {
    let end: Date | null = null;
    for (const w of windows.values()) if (w.ends > at && (!end || w.ends > end)) end = w.ends;
    return end;
  };

  /**
   * The end of the customer's running membership as stored before a change (under their lock): what the membership
   * events compare the end after it with. Not read when no webhook is wired.
   */
  async function runningEndTx(tx: Tx, userId: string, at: Date): Promise<Date | null> {
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
  async function reportTx(
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

  /**
   * The next number of the year (in the site's zone) from one of the counters (orders, invoices), taken in this
   * transaction: a rollback gives it back, so a year's numbers have no gap.
   */
  const nextNumber = (
    tx: Tx,
    at: Date,
    scope: (year: number) => string,
    format: (year: number, sequence: number) => string,
  ): Promise<string> => nextNumberTx(tx, at, timeZone, scope, format);

  /**
   * One event applied to one order, with everything that goes with it, in `tx`: the customer's lock, the row written,
   * the timeline recomputed, the activity entry, the mails. A refused event is a 409 with its sentence.
   */
  async function applyTx(tx: Tx, audit: Audit, order: OrderRow, event: OrderEvent): Promise<Changed> {
    await lockCustomer(tx, order.userId);
    const [before] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
    if (!before) throw notFound("Order not found");
    const t = event.at;
    const result = applyOrderEvent(stateOf(before), event);
    if (result.kind === "refused") throw new AppError(409, result.reason);
    if (result.kind === "unchanged") return { changed: false, order: before };
    const endBefore = await runningEndTx(tx, before.userId, t);
    // A payment takes its code's use only if the code still has room for it (decision 060): a kept pay form paid
    // after the order was cancelled, or after its hold ran out, may find the code used up by others meanwhile.
    if (event.type === "pay" && before.discountCodeId && !before.subscrId && discounts) {
      const refusal = await discounts.payTx(tx, before.discountCodeId, before);
      if (refusal) throw new AppError(409, refusal);
    }
    const next = result.state;
    // The first payment for money issues the order's invoice, numbered in this transaction (decision 038).
    const invoice = takesInvoiceNumber(before, event.type)
      ? { invoiceNumber: await nextNumber(tx, t, invoiceNumberScope, formatInvoiceNumber), invoicedAt: t }
      : {};
    await tx
      .update(orders)
      .set({ ...next, ...invoice, ...paymentOf(event), updatedAt: t })
      .where(eq(orders.id, before.id));
    const { windows, order: after } = await withWindow(tx, { ...before, ...next, ...invoice, updatedAt: t });
    await audit.updated(before.id, audited_(before), audited_(after));
    // A paid order now Refunded (by hand, PayPal's refund or reversal): the money not yet credited by a refund's own
    // credit note is, in this transaction (decision 073); the refund mail names the order's latest credit note.
    let creditNote: string | null = null;
    if ((event.type === "refund" || event.type === "reverse") && before.paymentStatus === "Paid" && creditNotes) {
      await creditNotes.issueTx(tx, { orderId: before.id, refundId: null, refundCents: null, reason: null, at: t });
      creditNote = await creditNotes.lastNumberTx(tx, before.id);
    }
    await queueMails(tx, event, before, after, windows, creditNote);
    const orderEvent =
      event.type === "pay"
        ? "order.paid"
        : (event.type === "refund" || event.type === "reverse") && before.paymentStatus === "Paid"
          ? "order.refunded"
          : event.type === "cancel"
            ? "order.cancelled"
            : null;
    await reportTx(tx, orderEvent, after, endBefore, windows, t);
    if (event.type === "pay" && after.orderStatus === "Delivered" && before.orderStatus === "Pending")
      logger.info({ orderId: before.id }, "verified payment: membership activated automatically");
    return { changed: true, order: after };
  }

  /** The mails an event sends, each once per order (their job keys). */
  async function queueMails(
    tx: Tx,
    event: OrderEvent,
    before: OrderRow,
    after: OrderRow,
    windows: Map<string, MembershipWindow>,
    creditNote: string | null = null,
  ) {
    const base = {
      orderId: after.id,
      orderNumber: after.number,
      currency: after.currency,
      customerName: after.customerName,
      packageName: after.packageName,
    };
    const to = after.customerEmail;
    const started = after.membershipValid && after.membershipValid > event.at;
    switch (event.type) {
      case "pay":
        await mails.queue(
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
        if (after.orderStatus === "Delivered" && started)
          await mails.queue(
            tx,
            "membershipActive",
            { ...base, expiresAt: after.membershipValid! },
            to,
            jobKey("order", after.id, "active"),
          );
        // A verified payment that waits for delivery: every admin hears it, once per order.
        if (event.txnId && after.orderStatus === "Pending")
          await mails.queueToAdmins(
            tx,
            "adminPaymentWaiting",
            { ...base, customerEmail: to, amount: after.packagePrice, txnId: event.txnId },
            jobKey("order", after.id, "waiting"),
          );
        return;
      case "deliver":
        // Delivering a paid order starts its membership: the customer hears it (once per order).
        if (after.paymentStatus === "Paid" && started)
          await mails.queue(
            tx,
            "membershipActive",
            { ...base, expiresAt: after.membershipValid! },
            to,
            jobKey("order", after.id, "active"),
          );
        return;
      case "cancel":
        await mails.queue(
          tx,
          "orderCancelled",
          { ...base, amount: after.packagePrice },
          to,
          jobKey("order", after.id, "cancelled"),
        );
        return;
      case "refund":
      case "reverse":
        if (before.paymentStatus === "Paid")
          await mails.queue(
            tx,
            "paymentRefunded",
            {
              ...base,
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
  async function change(id: string, event: OrderEvent, actor: Actor): Promise<Changed> {
    if (!isId(id)) throw notFound("Order not found");
    const [order] = await db.select().from(orders).where(eq(orders.id, id));
    if (!order) throw notFound("Order not found");
    return audited(db, actor, "order", async (tx, audit) => {
      if (event.type !== "pay" || !event.txnId || order.orderStatus !== "Pending")
        return applyTx(tx, audit, order, event);
      // A payment PayPal verified also activates the membership when the admin chose so (in one UPDATE).
      const deliver = Boolean(await settings?.readTx(tx, "autoActivate"));
      return applyTx(tx, audit, order, { ...event, deliver });
    });
  }

  /** An admin's status form or call: its parsed value as an event, with the order's window after it. */
  async function adminChange<V>(
    id: string,
    actor: Actor,
    parsed: ParseResult<V>,
    event: (value: V) => OrderEvent,
  ): Promise<{ modified: boolean; membershipValid: string | null }> {
    if (!parsed.ok) throw badRequest(parsed.errors);
    const r = await change(id, event(parsed.data), actor);
    return { modified: r.changed, membershipValid: r.order.membershipValid?.toISOString() ?? null };
  }

  /**
   * The package an order is for: by packageId (our pages send it), or by the spec's packageName when no id is given.
   * Name, price and validity are then copied from that record; what the request says about them is ignored.
   */
  async function orderedPackage(packageId: unknown, packageName: unknown) {
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

  /** An idempotency key as sent: absent, or 1 to 200 visible characters. */
  function idempotencyKeyOf(key: unknown): string | null {
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

  return {
    /**
     * Places an order for a package as the signed-in customer: UnPaid, Pending, today's date, the year's next number.
     * With a one-time key (the order form's, or the API's Idempotency-Key), the same key gives the same order: the
     * second call finds the first's order (`created` false), however close together they come.
     */
    async place(
      viewer: Viewer,
      packageId: unknown,
      input: unknown,
      idempotencyKey?: unknown,
    ): Promise<{ order: OrderRecord; created: boolean }> {
      const parsed = parseWith(orderFormSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const { discountCode: typedCode, ...fields } = parsed.data;
      const key = idempotencyKeyOf(idempotencyKey);
      const pkg = await orderedPackage(packageId, (input as { packageName?: unknown } | null)?.packageName);
      return audited(db, { id: viewer.id, email: viewer.email }, "order", async (tx, audit) => {
        await lockCustomer(tx, viewer.id);
        if (key) {
          const [existing] = await tx
            .select()
            .from(orders)
            .where(and(eq(orders.userId, viewer.id), eq(orders.idempotencyKey, key)));
          if (existing) {
            if (existing.packageId !== pkg._id)
              throw new AppError(409, "This idempotency key already placed an order for another package.", [
                { field: "idempotencyKey", message: "Already used for another order" },
              ]);
            return { order: toOrderRecord(existing), created: false };
          }
        }
        const t = now();
        // A discount code: its price, or a 400 saying why it does not apply (decision 049).
        const listPrice = Number(pkg.packagePrice);
        const discount =
          typedCode && discounts
            ? await discounts.priceTx(tx, typedCode, { userId: viewer.id, packageId: pkg._id, price: listPrice })
            : null;
        // The VAT, fixed now (issue 35, decision 072): the order keeps the currency and the tax of this moment.
        const money = (await settings?.readTx(tx, "money")) ?? DEFAULT_MONEY_SETTINGS;
        const { price, vatNumber, country, code } = priceOf(
          money,
          fields,
          listPrice,
          discount?.price ?? null,
          dayKey(t, timeZone),
        );
        const [row] = await tx
          .insert(orders)
          .values({
            number: await nextNumber(tx, t, orderNumberScope, formatOrderNumber),
            userId: viewer.id,
            packageId: pkg._id,
            packageName: String(pkg.packageName),
            packagePrice: toAmount(price.grossCents),
            packageValidity: Number(pkg.packageValidity),
            customerEmail: viewer.email,
            ...fields,
            customerCountry: country,
            customerCountryCode: code,
            ...taxColumns(price.tax),
            customerVatNumber: vatNumber,
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
            orderDate: usDate(t, timeZone),
            idempotencyKey: key,
            createdAt: t,
            updatedAt: t,
          })
          .returning();
        await audit.created(row!.id, {
          number: row!.number,
          packageName: row!.packageName,
          packagePrice: row!.packagePrice,
          ...(discount ? { discountCode: discount.discountCode, discountAmount: row!.discountAmount } : {}),
          ...(row!.taxCents ? { currency: row!.currency, taxCents: row!.taxCents, taxRate: row!.taxRate } : {}),
          ...audited_(row!),
        });
        await mails.queue(
          tx,
          "orderPlaced",
          {
            orderId: row!.id,
            orderNumber: row!.number,
            currency: row!.currency,
            customerName: row!.customerName,
            packageName: row!.packageName,
            amount: row!.packagePrice,
          },
          row!.customerEmail,
          jobKey("order", row!.id, "placed"),
        );
        await reportTx(tx, "order.placed", row!, null, null, t);
        return { order: toOrderRecord(row!), created: true };
      });
    },

    /** A payment: PayPal's verified one (txnId, actor PAYPAL_ACTOR) or one the studio marks by hand. */
    pay: (id: string, actor: Actor, txnId?: string) => change(id, { type: "pay", at: now(), txnId }, actor),

    /**
     * A payment received outside PayPal (a bank transfer), recorded by the studio with its reference: the order is Paid
     * (and Delivered too with `activate`), as with any payment.
     */
    payOutside: (id: string, actor: Actor, reference: string, activate: boolean) =>
      change(id, { type: "pay", at: now(), method: "Bank transfer", reference, deliver: activate }, actor),

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
    async grant(
      userId: string,
      input: unknown,
      actor: Actor,
      idempotencyKey?: unknown,
      imported?: { endsAt: Date; packageName: string | null },
    ): Promise<{ order: OrderRow; created: boolean; membershipEnds: Date | null }> {
      const parsed = parseWith(grantSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const key = idempotencyKeyOf(idempotencyKey);
      const { days, reason } = parsed.data;
      return audited(db, actor, "order", async (tx, audit) => {
        await lockCustomer(tx, userId);
        const [customer] = await tx
          .select({ name: user.name, email: user.email })
          .from(user)
          .where(eq(user.id, userId));
        if (!customer) throw notFound("Customer not found");
        const t = now();
        if (key) {
          const [existing] = await tx
            .select()
            .from(orders)
            .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
          if (existing) {
            if (existing.paymentMethod !== "Gift" || (!imported && existing.packageValidity !== days))
              throw new AppError(409, "This idempotency key was already used for another order.", [
                { field: "idempotencyKey", message: "Already used for another order" },
              ]);
            const { windows } = await recomputeTx(tx, userId);
            return { order: existing, created: false, membershipEnds: membershipEnd(windows, t) };
          }
        }
        // The latest order says how the customer is addressed; a membership extended keeps its package's name.
        const [latest] = await tx
          .select()
          .from(orders)
          .where(eq(orders.userId, userId))
          .orderBy(sql`${orders.membershipValid} desc nulls last`, desc(orders.createdAt))
          .limit(1);
        const counted = latest?.paymentStatus === "Paid" && latest.orderStatus === "Delivered" ? latest : undefined;
        const endBefore = await runningEndTx(tx, userId, t);
        const activatedAt = imported ? new Date(imported.endsAt.getTime() - days * DAY_MS) : t;
        const [row] = await tx
          .insert(orders)
          .values({
            number: await nextNumber(tx, t, orderNumberScope, formatOrderNumber),
            userId,
            packageId: imported?.packageName ? null : (counted?.packageId ?? null),
            packageName: imported?.packageName || (counted?.packageName ?? GIFT_PACKAGE),
            packagePrice: 0,
            currency: ((await settings?.readTx(tx, "money")) ?? DEFAULT_MONEY_SETTINGS).currency,
            packageValidity: days,
            customerEmail: customer.email,
            customerName: latest?.customerName ?? customer.name,
            customerAddress: latest?.customerAddress ?? "",
            customerCountry: latest?.customerCountry ?? "",
            paymentStatus: "Paid",
            orderStatus: "Delivered",
            orderDate: usDate(t, timeZone),
            paidAt: activatedAt,
            deliveredAt: activatedAt,
            paymentMethod: "Gift",
            paymentReference: reason,
            idempotencyKey: key,
            createdAt: t,
            updatedAt: t,
          })
          .returning();
        const { windows, order } = await withWindow(tx, row!);
        await audit.created(order.id, {
          number: order.number,
          packageName: order.packageName,
          packagePrice: 0,
          paymentMethod: "Gift",
          reason,
          days,
          ...audited_(order),
        });
        const membershipEnds = membershipEnd(windows, t);
        // Days given are no payment: no order.paid, only the membership's events.
        await reportTx(tx, null, order, endBefore, windows, t);
        if (membershipEnds && !imported)
          await mails.queue(
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
    },

    /**
     * A sale made by hand (issue 35, part 7): staff make an order for the customer `userId` from their record, for a
     * package at its price or at another price with the reason why (kept in the order's activity), priced and taxed by
     * the path of the customer's own orders (`priceOf`: the typed price stands where the package's would). The order
     * is UnPaid and Pending, numbered, placed for the customer with the staff member as the actor; then, in the same
     * transaction, either its payment is recorded by the event every payment goes through (`applyTx`: Paid, the
     * invoice numbered, the receipt mailed; Delivered too with `activate`), or the customer is mailed the link to pay
     * it, once per order. With a one-time key the same key gives one order, however often it is sent.
     */
    async sell(
      actor: Actor,
      userId: string,
      input: unknown,
      idempotencyKey?: unknown,
    ): Promise<{ order: OrderRow; created: boolean }> {
      const parsed = parseWith(saleSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const { packageId, price: typedPrice, reason, settle, reference, activate, ...fields } = parsed.data;
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
      return audited(db, actor, "order", async (tx, audit) => {
        await lockCustomer(tx, userId);
        const [customer] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
        if (!customer) throw notFound("Customer not found");
        if (key) {
          const [existing] = await tx
            .select()
            .from(orders)
            .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
          if (existing) {
            if (existing.packageId !== pkg._id)
              throw new AppError(409, "This idempotency key already made an order for another package.", [
                { field: "idempotencyKey", message: "Already used for another order" },
              ]);
            return { order: existing, created: false };
          }
        }
        const t = now();
        const money = (await settings?.readTx(tx, "money")) ?? DEFAULT_MONEY_SETTINGS;
        const priced = priceOf(money, fields, price, null, dayKey(t, timeZone));
        const [row] = await tx
          .insert(orders)
          .values({
            number: await nextNumber(tx, t, orderNumberScope, formatOrderNumber),
            userId,
            packageId: pkg._id,
            packageName: String(pkg.packageName),
            packagePrice: toAmount(priced.price.grossCents),
            packageValidity: Number(pkg.packageValidity),
            customerEmail: customer.email,
            ...fields,
            customerCountry: priced.country,
            customerCountryCode: priced.code,
            ...taxColumns(priced.price.tax),
            customerVatNumber: priced.vatNumber,
            paymentStatus: "UnPaid",
            orderStatus: "Pending",
            orderDate: usDate(t, timeZone),
            idempotencyKey: key,
            createdAt: t,
            updatedAt: t,
          })
          .returning();
        const order = row!;
        await audit.created(order.id, {
          number: order.number,
          packageName: order.packageName,
          packagePrice: order.packagePrice,
          ...(typedPrice !== null && centsOf(typedPrice) !== centsOf(listPrice)
            ? { listPrice: Number(listPrice), salePrice: Number(typedPrice), priceReason: reason }
            : {}),
          ...(order.taxCents ? { currency: order.currency, taxCents: order.taxCents, taxRate: order.taxRate } : {}),
          ...audited_(order),
        });
        await reportTx(tx, "order.placed", order, null, null, t);
        const payment = salePayment(settle, reference);
        if (payment)
          return applyTx(tx, audit, order, { type: "pay", at: t, ...payment, deliver: activate }).then((r) => ({
            order: r.order,
            created: true,
          }));
        await mails.queue(
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
        return { order, created: true };
      });
    },

    /**
     * A later period's payment of a PayPal subscription (decision 046): a new order, Paid by PayPal (its transaction id,
     * unique, so a retried notification cannot add a second), copying the subscribed order's package and customer, with
     * its number and invoice, laid after the current window by the timeline. Delivered at once when the subscribed
     * order was (or when payments activate automatically); else it waits for the studio like any paid order.
     */
    async renew(firstId: string, txnId: string, subscrId: string): Promise<Changed> {
      if (!isId(firstId)) throw notFound("Order not found");
      const [first] = await db.select().from(orders).where(eq(orders.id, firstId));
      if (!first) throw notFound("Order not found");
      return audited(db, PAYPAL_ACTOR, "order", async (tx, audit) => {
        await lockCustomer(tx, first.userId);
        const t = now();
        const deliver = first.orderStatus === "Delivered" || Boolean(await settings?.readTx(tx, "autoActivate"));
        // What this payment costs (domain/subscription-price.ts): the price before a first-period code, or the order's
        // price with an every-period code carried (no new use of it: one subscription, one use).
        const price = renewalPrice(first);
        const endBefore = await runningEndTx(tx, first.userId, t);
        const [row] = await tx
          .insert(orders)
          .values({
            number: await nextNumber(tx, t, orderNumberScope, formatOrderNumber),
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
            customerEmail: first.customerEmail,
            customerName: first.customerName,
            customerAddress: first.customerAddress,
            customerCountry: first.customerCountry,
            // The same sale each period: the first order's currency and treatment; the VAT within the same gross at
            // the rate of the payment's day (decision 072).
            currency: first.currency,
            ...renewalTax(first, centsOf(price.packagePrice), dayKey(t, timeZone)),
            taxCountry: first.taxCountry,
            taxTreatment: first.taxTreatment,
            taxNote: first.taxNote,
            customerVatNumber: first.customerVatNumber,
            customerCountryCode: first.customerCountryCode,
            paymentStatus: "Paid",
            orderStatus: deliver ? "Delivered" : "Pending",
            orderDate: usDate(t, timeZone),
            paidAt: t,
            deliveredAt: deliver ? t : null,
            txnId,
            paymentMethod: "PayPal",
            subscrId,
            ...(price.packagePrice > 0
              ? { invoiceNumber: await nextNumber(tx, t, invoiceNumberScope, formatInvoiceNumber), invoicedAt: t }
              : {}),
            createdAt: t,
            updatedAt: t,
          })
          .returning();
        const { windows, order } = await withWindow(tx, row!);
        await audit.created(order.id, {
          number: order.number,
          packageName: order.packageName,
          packagePrice: order.packagePrice,
          ...(price.carriesDiscount ? { discountCode: order.discountCode, discountAmount: order.discountAmount } : {}),
          renewalOf: first.number,
          ...audited_(order),
        });
        await queueMails(tx, { type: "pay", at: t, txnId }, order, order, windows);
        // A renewal is a payment of a new order, and the subscription's renewal.
        await reportTx(tx, "order.paid", order, endBefore, windows, t);
        await webhooks?.emitTx(tx, "subscription.renewed", {
          subscription: { subscrId, firstOrderId: first.id, firstOrderNumber: first.number },
          ...orderData(order),
        });
        return { changed: true, order };
      });
    },

    /**
     * A payment PayPal took that the order could not take (decision 060: its discount code used up meanwhile): the
     * notification is recorded by the listener; every admin hears it here, once per transaction, to refund it.
     */
    async paymentNotApplied(id: string, txnId: string, amount: number, reason: string): Promise<void> {
      if (!isId(id)) return;
      const [o] = await db.select().from(orders).where(eq(orders.id, id));
      if (!o) return;
      await db.transaction((tx) =>
        mails.queueToAdmins(
          tx,
          "adminPaymentNotApplied",
          {
            orderId: o.id,
            orderNumber: o.number,
            currency: o.currency,
            customerName: o.customerName,
            customerEmail: o.customerEmail,
            packageName: o.packageName,
            amount,
            txnId,
            reason,
          },
          jobKey("payment", txnId, "not-applied"),
        ),
      );
    },

    /**
     * PayPal reports the payment refunded or reversed, or a refund from the order screen reached the price: the order is
     * Refunded and gives no day. `note`: the studio's words to the customer, in the refund mail.
     */
    refund: (id: string, actor: Actor, how: "refund" | "reverse" = "refund", note: string | null = null) =>
      change(id, how === "refund" ? { type: how, at: now(), note } : { type: how, at: now() }, actor),

    /** The customer cancels on PayPal's page (or My Orders): only their own order, only while it is unpaid. */
    async cancel(viewer: Viewer, id: string): Promise<{ modified: boolean }> {
      if (!isId(id)) throw notFound("Order not found");
      const [row] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, id));
      if (!row || (row.userId !== viewer.id && !viewer.isAdmin)) throw notFound("Order not found");
      const r = await change(id, { type: "cancel", at: now() }, { id: viewer.id, email: viewer.email });
      return { modified: r.changed };
    },

    /** An admin sets the payment status (Paid, UnPaid, Refunded); the membership timeline follows. */
    setPaymentStatus: (id: string, input: unknown, actor: Actor) =>
      adminChange(id, actor, parseWith(paymentStatusSchema, input ?? {}), (v) =>
        paymentStatusEvent(v.paymentStatus, now()),
      ),

    /** An admin sets the order status: Delivered starts a paid order's membership, Pending stops it. */
    setOrderStatus: (id: string, input: unknown, actor: Actor) =>
      adminChange(id, actor, parseWith(orderStatusSchema, input ?? {}), (v) => orderStatusEvent(v.orderStatus, now())),

    /** PayPal says the payment is pending (an eCheck, a review): shown on the order while it is unpaid. */
    async notePending(id: string, reason: string | null): Promise<void> {
      await db
        .update(orders)
        .set({ providerStatus: reason ? `Pending (${reason})` : "Pending" })
        .where(and(eq(orders.id, id), eq(orders.paymentStatus, "UnPaid")));
    },

    /** The provider refused the payment (denied, declined): shown on the order while it is unpaid, so they try again. */
    async noteDenied(id: string): Promise<void> {
      await db
        .update(orders)
        .set({ providerStatus: "Denied" })
        .where(and(eq(orders.id, id), eq(orders.paymentStatus, "UnPaid")));
    },

    /**
     * Money arrived that does not match its order (another amount, currency or receiver): refused, and shown to staff
     * in the order's activity (who: PayPal; what: the reason). The order itself does not change.
     */
    async flagPayment(id: string, reason: string, actor: Actor = PAYPAL_ACTOR): Promise<void> {
      await audited(db, actor, "order", (_tx, audit) =>
        audit.updated(id, { paymentFlag: null }, { paymentFlag: `Refused payment: ${reason}` }),
      );
      logger.warn({ orderId: id, reason }, "payment refused and flagged to staff");
    },

    /**
     * An erased customer's orders (decision 045), in the erasure's transaction `tx`, under the customer's lock: each keeps
     * what the accounts need (number, package, amount, dates, statuses, PayPal's transaction id, country) and loses who
     * placed it (name, email, address, the form's one-time key). An order still unpaid is cancelled: nobody is left to
     * pay it. No mail goes out. Each order has its activity entry, which names no erased value.
     */
    async anonymiseTx(
      tx: Tx,
      userId: string,
      actor: Actor,
      person: { name: string; email: string },
    ): Promise<{ orders: number }> {
      await lockCustomer(tx, userId);
      const rows = await tx.select().from(orders).where(eq(orders.userId, userId)).for("update");
      if (!rows.length) return { orders: 0 };
      const t = now();
      const unpaid = rows.filter((r) => applyOrderEvent(stateOf(r), { type: "cancel", at: t }).kind === "changed");
      // A payment's reference (a bank transfer's) is kept for matching the bank statement, without their name or email.
      const references = rows.flatMap((r) => {
        const kept = r.paymentReference && withoutPerson(r.paymentReference, person);
        return kept !== r.paymentReference ? [{ id: r.id, reference: kept }] : [];
      });
      if (references.length)
        await tx.execute(sql`
          update ${orders} set payment_reference = v.reference
          from jsonb_to_recordset(${JSON.stringify(references)}::jsonb) as v(id uuid, reference text)
          where ${orders.id} = v.id`);
      await tx
        .update(orders)
        .set({
          customerName: ERASED_NAME,
          customerEmail: erasedEmail(userId),
          customerAddress: "",
          idempotencyKey: null,
          updatedAt: t,
        })
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
    },

    /**
     * Recomputes the timelines of the customers a migration queued (membership_recompute), each in its own transaction
     * under the customer's lock, and says how many orders moved. Several instances starting at once share the work.
     */
    async recomputeQueued(): Promise<{ customers: number; moved: number }> {
      let customers = 0;
      let moved = 0;
      for (;;) {
        const batch = await db.transaction(async (tx) => {
          const queued = await tx
            .select()
            .from(membershipRecompute)
            .orderBy(membershipRecompute.userId)
            .limit(100)
            .for("update", { skipLocked: true });
          for (const { userId } of queued) {
            await lockCustomer(tx, userId);
            moved += (await recomputeTx(tx, userId)).moved;
          }
          if (queued.length)
            await tx.delete(membershipRecompute).where(
              inArray(
                membershipRecompute.userId,
                queued.map((q) => q.userId),
              ),
            );
          return queued.length;
        });
        if (!batch) break;
        customers += batch;
      }
      if (customers) logger.info({ customers, ordersChanged: moved }, "membership timelines recomputed");
      return { customers, moved };
    },
  };
}

export type OrderCommands = ReturnType<typeof createOrderCommands>;
