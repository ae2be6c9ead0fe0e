import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { Actor } from "#server/services/activity.ts";
import type { CreditNotesService } from "#server/services/credit-notes.ts";
import type { Tx } from "#server/services/jobs.ts";
import type { MailsService } from "#server/services/mails.ts";
import type { OrdersService } from "#server/services/orders/index.ts";
import type { Money, PaymentProvider } from "../provider";

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

export const counting = ["completed", "pending"] as const;

/** Serialises one order's refund records and the count a refund's key is made from. */
export const lockOrder = (tx: Tx, orderId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"refunds:" + orderId}))`);

/** What the refunds service is made from: the recorder's dependencies, the provider that refunds, the log. */
export type RefundsServiceDeps = RefundsDeps & { provider: PaymentProvider; logger: Logger };
