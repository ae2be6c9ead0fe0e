import { eq } from "drizzle-orm";
import type { Currency } from "#domain/currency.ts";
import { centsValue, decideRefund, REFUND_IN_DASHBOARD, type RefundKind } from "#domain/refunds.ts";
import { paymentRefunds } from "#server/db/schema.ts";
import { AppError, badRequest } from "#server/lib/errors.ts";
import type { Actor } from "#server/services/activity.ts";
import { ProviderRefusedError, ProviderUnavailableError, type PaymentProvider } from "../provider";
import { lockOrder, REFUND_PROVIDER_DOWN, refundFormSchema, type RefundsServiceDeps } from "./model";
import { orderOf, railOf } from "./queries";
import { recordRefund } from "./record";

type RefundForm = ReturnType<typeof refundFormSchema.parse>;
type RefundedOrder = Awaited<ReturnType<typeof orderOf>>;

/** The refund form's fields, or the sentences that say what is wrong with them. */
function formOf(input: unknown): RefundForm {
  const parsed = refundFormSchema.safeParse(input ?? {});
  if (!parsed.success)
    throw badRequest(parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? "amount"), message: i.message })));
  return parsed.data;
}

/** The order, paid on Checkout (its capture and when it was paid), or why it cannot be refunded here. */
async function refundableOrder(deps: RefundsServiceDeps, orderId: string) {
  const o = await orderOf(deps, orderId);
  if (o.paymentStatus !== "Paid")
    throw new AppError(409, `This order is ${o.paymentStatus}: only a paid order can be refunded.`);
  const rail = await railOf(deps, o);
  if (rail === "standard") throw new AppError(409, REFUND_IN_DASHBOARD);
  if (rail === "none" || !o.txnId || !o.paidAt)
    throw new AppError(409, "This order was not paid through PayPal, so there is no PayPal payment to refund.");
  return { o, txnId: o.txnId, paidAt: o.paidAt };
}

/**
 * The refund's cents and its key. The key counts the refunds recorded so far, under the order's refund lock: two tabs
 * or a resent form ask PayPal with the same key (one refund); a screen older than a refund made since is told so
 * instead.
 */
function keyAndCents(deps: RefundsServiceDeps, o: RefundedOrder, paidAt: Date, form: RefundForm) {
  return deps.db.transaction(async (tx) => {
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
}

/** The refund asked of the provider; its refusal in PayPal's words, or PayPal down: nothing recorded, try again. */
async function refundAtProvider(
  { provider, logger }: RefundsServiceDeps,
  o: RefundedOrder,
  txnId: string,
  ask: { cents: number; key: string; note: string },
): Promise<Awaited<ReturnType<PaymentProvider["refund"]>>> {
  try {
    return await provider.refund(txnId, {
      amount: { currency: o.currency, value: centsValue(ask.cents) },
      noteToPayer: ask.note || null,
      invoiceId: null,
      requestId: ask.key,
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
}

/**
 * Refunds `input.amount` (blank: all that is left) of the order's payment at the provider and records it. Refused
 * with a sentence for: not paid on Checkout, a bad or too large amount, past PayPal's 180 days, a refund made
 * meanwhile (the screen was stale); PayPal's refusal in PayPal's words; PayPal down: nothing recorded, try again.
 */
export async function refund(
  deps: RefundsServiceDeps,
  orderId: string,
  input: unknown,
  by: Actor,
): Promise<{ refundId: string; amount: string; currency: Currency; kind: RefundKind; status: string }> {
  const form = formOf(input);
  const { o, txnId, paidAt } = await refundableOrder(deps, orderId);
  const { key, cents } = await keyAndCents(deps, o, paidAt, form);
  const made = await refundAtProvider(deps, o, txnId, { cents, key, note: form.note });
  const recorded = await recordRefund(deps, {
    provider: deps.provider.name,
    refundId: made.refundId,
    orderId: o.id,
    paymentId: txnId,
    amount: made.amount.value ? made.amount : { currency: o.currency, value: centsValue(cents) },
    status: made.status,
    reason: form.reason,
    note: form.note,
    by,
  });
  deps.logger.info(
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
}
