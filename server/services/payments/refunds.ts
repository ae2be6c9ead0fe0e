import type { Currency } from "#domain/currency.ts";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import {
  centsValue,
  decideRefund,
  REFUND_IN_DASHBOARD,
  refundDeadline,
  tallyRefunds,
  type RefundKind,
} from "#domain/refunds.ts";

export { REFUND_IN_DASHBOARD };
import { moneyCents } from "#domain/payment-check.ts";
import { ERASED_NAME, type Person } from "#domain/privacy.ts";
import type { Db } from "#server/db/client.ts";
import { orders, paymentCheckouts, paymentNotices, paymentRefunds, subscriptions } from "#server/db/schema.ts";
import { AppError, badRequest, isId, notFound } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { Actor } from "../activity";
import type { CreditNotesService } from "../credit-notes";
import { jobKey, type Tx } from "../jobs";
import type { MailsService } from "../mails";
import { PAYPAL_ACTOR, type OrdersService } from "../orders";
import { ProviderRefusedError, ProviderUnavailableError } from "./provider";
import type { Money, PaymentProvider } from "./provider";

/** What the order screen says when PayPal does not answer: nothing recorded, and trying again cannot refund twice. */
export const REFUND_PROVIDER_DOWN =
  "PayPal is not answering right now, so no refund was recorded. Please try again in a few minutes: trying again cannot refund the customer twice.";
/**
 * How an order was paid, for refunds: `checkout` (PayPal Checkout: its txn id is a capture the REST API refunds),
 * `standard` (Payments Standard's IPN paid it: only PayPal's dashboard refunds it), `none` (not paid through PayPal).
 */
export type PaymentRail = "checkout" | "standard" | "none";

/** What the refund form sends: blank amount is the whole of what is left; `seen`, the refunds the screen showed. */
export const refundFormSchema = z.object({
  amount: z
    .string({ error: 'Enter the amount in dollars as text, such as "25.50".' })
    .max(20, "Enter the amount in dollars, such as 25 or 25.50.")
    .default(""),
  reason: z
    .string({ error: "Write the reason as text." })
    .trim()
    .max(500, "Keep the reason under 500 characters.")
    .default(""),
  note: z
    .string({ error: "Write the note as text." })
    .trim()
    .max(255, "PayPal takes a note of at most 255 characters.")
    .default(""),
  seen: z.coerce.number().int().min(0).max(10_000).optional(),
});

/** A refund as the order screen lists it. */
export interface RefundLine {
  id: string;
  amount: string;
  at: string;
  /** The staff member who made it here, or null: made in PayPal's own dashboard. */
  by: string | null;
  status: "completed" | "pending" | "failed";
  reason: string | null;
  note: string | null;
}

/** What a recorded refund's provider said, as `record` takes it (from our call's answer or the webhook). */
export interface RefundRecord {
  provider: string;
  refundId: string;
  orderId: string;
  paymentId: string;
  amount: Money;
  status: "completed" | "pending" | "failed";
  reason?: string | null;
  note?: string | null;
  /** The staff member who made it from the order screen; null when the provider told us of it (its dashboard). */
  by?: Actor | null;
}

export interface RefundsDeps {
  db: Db;
  orders: Pick<OrdersService, "refund">;
  mails: Pick<MailsService, "queue">;
  /** A completed refund's credit note, issued in the transaction that records it (decision 073). */
  creditNotes: Pick<CreditNotesService, "issueTx" | "numberOfRefundTx">;
  now: () => Date;
}

const counting = ["completed", "pending"] as const;

/** Serialises one order's refund records and the count a refund's key is made from. */
const lockOrder = (tx: Parameters<Parameters<Db["transaction"]>[0]>[0], orderId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"refunds:" + orderId}))`);

/**
 * The one writer of payment_refunds (decision 067): a refund recorded once by the provider's refund id, whichever
 * came first, our call's answer or the provider's webhook (the second only adds what it knows: who, why, the note).
 * Its effect is applied once: a refund that brings the completed refunds to the price makes the order Refunded
 * through the order command (the days removed, the refund mail); a part keeps the order Paid and its days, and the
 * customer gets the part-refund mail (one per refund: its job key is the refund's).
 */
export async function recordRefund(
  deps: RefundsDeps,
  input: RefundRecord,
): Promise<{ created: boolean; applied: "whole" | "part" | "no"; kind: RefundKind }> {
  const cents = moneyCents(input.amount.value);
  if (cents === null) throw new Error(`refund ${input.refundId}: amount ${input.amount.value} is not money`);
  const t = deps.now();
  const { row, created, tally, order } = await deps.db.transaction(async (tx) => {
    await lockOrder(tx, input.orderId);
    const [written] = await tx
      .insert(paymentRefunds)
      .values({
        provider: input.provider,
        refundId: input.refundId,
        orderId: input.orderId,
        paymentId: input.paymentId,
        amountCents: cents,
        currency: input.amount.currency,
        status: input.status,
        reason: input.reason || null,
        note: input.note || null,
        byUserId: input.by?.id ?? null,
        byEmail: input.by?.email ?? null,
        createdAt: t,
        updatedAt: t,
      })
      .onConflictDoUpdate({
        target: [paymentRefunds.provider, paymentRefunds.refundId],
        set: {
          status: sql`excluded.status`,
          reason: sql`coalesce(${paymentRefunds.reason}, excluded.reason)`,
          note: sql`coalesce(${paymentRefunds.note}, excluded.note)`,
          byUserId: sql`coalesce(${paymentRefunds.byUserId}, excluded.by_user_id)`,
          byEmail: sql`coalesce(${paymentRefunds.byEmail}, excluded.by_email)`,
          updatedAt: t,
        },
      })
      .returning({
        id: paymentRefunds.id,
        status: paymentRefunds.status,
        appliedAt: paymentRefunds.appliedAt,
        note: paymentRefunds.note,
        byUserId: paymentRefunds.byUserId,
        byEmail: paymentRefunds.byEmail,
        amountCents: paymentRefunds.amountCents,
        reason: paymentRefunds.reason,
        created: sql<boolean>`xmax = 0`,
      });
    // A completed refund is credited here, once per refund row (a resent webhook finds its credit note issued).
    if (written!.status === "completed")
      await deps.creditNotes.issueTx(tx, {
        orderId: input.orderId,
        refundId: written!.id,
        refundCents: written!.amountCents,
        reason: written!.reason,
        at: t,
      });
    const done = await tx
      .select({ cents: paymentRefunds.amountCents })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.orderId, input.orderId), eq(paymentRefunds.status, "completed")));
    const [o] = await tx
      .select({
        id: orders.id,
        number: orders.number,
        price: orders.packagePrice,
        currency: orders.currency,
        packageName: orders.packageName,
        customerName: orders.customerName,
        customerEmail: orders.customerEmail,
      })
      .from(orders)
      .where(eq(orders.id, input.orderId));
    if (!o) throw notFound("Order not found");
    return {
      row: written!,
      created: Boolean(written!.created),
      tally: tallyRefunds(
        o.price,
        done.map((d) => d.cents),
      ),
      order: o,
    };
  });
  if (row.appliedAt || row.status !== "completed") return { created, applied: "no", kind: tally.kind };
  const actor = row.byUserId && row.byEmail ? { id: row.byUserId, email: row.byEmail } : PAYPAL_ACTOR;
  const applied = tally.kind === "whole" ? "whole" : "part";
  if (applied === "whole") await deps.orders.refund(order.id, actor, "refund", row.note);
  await deps.db.transaction(async (tx) => {
    if (applied === "part")
      await deps.mails.queue(
        tx,
        "paymentPartlyRefunded",
        {
          orderId: order.id,
          orderNumber: order.number,
          currency: order.currency,
          customerName: order.customerName,
          packageName: order.packageName,
          amount: cents / 100,
          refundedSoFar: tally.refundedCents / 100,
          price: order.price,
          note: row.note,
          creditNoteNumber: await deps.creditNotes.numberOfRefundTx(tx, row.id),
        },
        order.customerEmail,
        jobKey("refund", row.id, "mail"),
      );
    await tx.update(paymentRefunds).set({ appliedAt: deps.now() }).where(eq(paymentRefunds.id, row.id));
  });
  return { created, applied, kind: tally.kind };
}

/**
 * Refunds from the order screen through the provider (issue 34 part 3, decision 067): the whole payment or a part of
 * an order paid on the provider's checkout, within PayPal's 180 days, with one idempotency key per intended refund so
 * a double submit is one refund at PayPal; recorded by `recordRefund`, as the refund webhook is.
 */
export function createRefundsService(deps: RefundsDeps & { provider: PaymentProvider; logger: Logger }) {
  const { db, provider, logger } = deps;

  async function orderOf(orderId: string) {
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
  async function railOf(o: {
    id: string;
    txnId: string | null;
    paymentMethod: string | null;
    subscrId: string | null;
  }): Promise<PaymentRail> {
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

  async function linesOf(orderId: string) {
    return db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.orderId, orderId))
      .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id));
  }

  return {
    record: (input: RefundRecord) => recordRefund(deps, input),

    /**
     * The order screen's refund panel: how it was paid, the refunds so far, what is left, PayPal's last day, whether
     * the button is there, and `seen` (the refunds shown, sent back with the form).
     */
    async panel(orderId: string) {
      const o = await orderOf(orderId);
      const rows = await linesOf(o.id);
      const counted = rows.filter((r) => (counting as readonly string[]).includes(r.status)).map((r) => r.amountCents);
      const tally = tallyRefunds(o.price, counted);
      const deadline = o.paidAt ? refundDeadline(o.paidAt) : null;
      const rail = await railOf(o);
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
    },

    /**
     * Refunds `input.amount` (blank: all that is left) of the order's payment at the provider and records it. Refused
     * with a sentence for: not paid on Checkout, a bad or too large amount, past PayPal's 180 days, a refund made
     * meanwhile (the screen was stale); PayPal's refusal in PayPal's words; PayPal down: nothing recorded, try again.
     */
    async refund(
      orderId: string,
      input: unknown,
      by: Actor,
    ): Promise<{ refundId: string; amount: string; currency: Currency; kind: RefundKind; status: string }> {
      const parsed = refundFormSchema.safeParse(input ?? {});
      if (!parsed.success)
        throw badRequest(
          parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? "amount"), message: i.message })),
        );
      const form = parsed.data;
      const o = await orderOf(orderId);
      if (o.paymentStatus !== "Paid")
        throw new AppError(409, `This order is ${o.paymentStatus}: only a paid order can be refunded.`);
      const rail = await railOf(o);
      if (rail === "standard") throw new AppError(409, REFUND_IN_DASHBOARD);
      if (rail === "none" || !o.txnId || !o.paidAt)
        throw new AppError(409, "This order was not paid through PayPal, so there is no PayPal payment to refund.");
      const txnId = o.txnId;
      const paidAt = o.paidAt;
      // The key counts the refunds recorded so far, under the order's refund lock: two tabs or a resent form ask PayPal
      // with the same key (one refund); a screen older than a refund made since is told so instead.
      const { key, cents } = await db.transaction(async (tx) => {
        await lockOrder(tx, o.id);
        const rows = await tx
          .select({ cents: paymentRefunds.amountCents, status: paymentRefunds.status })
          .from(paymentRefunds)
          .where(eq(paymentRefunds.orderId, o.id));
        if (form.seen !== undefined && form.seen !== rows.length)
          throw new AppError(
            409,
            "A refund was recorded for this order since this page was opened: look at the refunds below, and refund again only if something is still due.",
          );
        const decided = decideRefund({
          price: o.price,
          paidAt,
          refunds: rows.filter((r) => r.status !== "failed").map((r) => r.cents),
          amount: form.amount,
          now: deps.now(),
        });
        if (!decided.ok)
          throw decided.field
            ? badRequest([{ field: decided.field, message: decided.message }])
            : new AppError(409, decided.message);
        return { key: `refund-${o.id}-${rows.length + 1}-${decided.cents}`, cents: decided.cents };
      });
      let made: Awaited<ReturnType<PaymentProvider["refund"]>>;
      try {
        made = await provider.refund(txnId, {
          amount: { currency: o.currency, value: centsValue(cents) },
          noteToPayer: form.note || null,
          invoiceId: null,
          requestId: key,
        });
      } catch (error) {
        if (error instanceof ProviderUnavailableError) {
          logger.warn({ error, orderId: o.id }, "refund: PayPal did not answer");
          // 502: the provider behind us failed (a 503 here means our database is away).
          throw new AppError(502, REFUND_PROVIDER_DOWN);
        }
        if (error instanceof ProviderRefusedError) {
          logger.warn({ orderId: o.id, error }, "refund refused by PayPal"); // the error carries its issues and debug id
          throw new AppError(422, `PayPal refused the refund: ${error.refusal}`);
        }
        throw error;
      }
      const recorded = await recordRefund(deps, {
        provider: provider.name,
        refundId: made.refundId,
        orderId: o.id,
        paymentId: txnId,
        amount: made.amount.value ? made.amount : { currency: o.currency, value: centsValue(cents) },
        status: made.status,
        reason: form.reason,
        note: form.note,
        by,
      });
      logger.info(
        { orderId: o.id, refundId: made.refundId, applied: recorded.applied },
        "refund made from the back office",
      );
      return {
        refundId: made.refundId,
        amount: centsValue(cents),
        currency: o.currency,
        kind: recorded.kind,
        status: made.status,
      };
    },
  };
}
export type RefundsService = ReturnType<typeof createRefundsService>;

/**
 * Forgets the words of a person's refunds (decisions 067, 086): the note to them and the studio's reason may name
 * them; the amounts, dates and the provider's ids stay for the accounts. A staff member who made refunds is named on
 * them no more (ERASED_NAME, as in the activity log).
 */
export async function forgetWords(tx: Tx, person: Person): Promise<void> {
  await tx
    .update(paymentRefunds)
    .set({ note: null, reason: null })
    .where(
      inArray(
        paymentRefunds.orderId,
        tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, person.userId)),
      ),
    );
  if (person.emails.length)
    await tx
      .update(paymentRefunds)
      .set({ byEmail: ERASED_NAME })
      .where(sql`lower(${paymentRefunds.byEmail}) = any(${sql.param(person.emails)}::text[])`);
}
