import type { Readable } from "node:stream";
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { opens, type StaffPerson } from "#domain/capabilities.ts";
import { centsOf } from "#domain/currency.ts";
import {
  creditNoteAmounts,
  creditNoteLayout,
  creditNoteNumberScope,
  formatCreditNoteNumber,
  normalCreditNoteNumber,
  type CreditNote,
} from "#domain/credit-note.ts";
import { isVatInvoice } from "#domain/invoice.ts";
import type { Db } from "../db/client";
import { creditNotes, orders } from "../db/schema";
import { notFound } from "../lib/errors";
import { withDeps } from "../lib/with-deps";
import type { Viewer } from "./accounts";
import type { InvoicesService } from "./invoices";
import { renderLayoutPdf } from "./invoice-pdf";
import type { Tx } from "./jobs";
import { nextNumberTx } from "./number-sequences";

export interface CreditNotesServiceDeps {
  db: Db;
  invoices: Pick<InvoicesService, "get">;
  timeZone: string;
}

/** What a refund asks `issueTx` for. */
export interface CreditNoteRequest {
  orderId: string;
  /** The payment_refunds row it records (one credit note per row); null for a payment set to Refunded by hand. */
  refundId: string | null;
  /** The money returned, in cents; null for all that no credit note covers yet (a payment set to Refunded by hand). */
  refundCents: number | null;
  reason: string | null;
  at: Date;
}

/**
 * Issues the credit note for a refund in its transaction `tx`, and returns its number; null when none is due: the
 * order has no invoice (unpaid, a gift), the refund row has one already (PayPal's webhook resent, or our answer
 * and the webhook both recording it), or earlier notes already cover the whole price. The order's row is locked,
 * so two refunds of one order are credited one after the other, each on what the other left.
 */
async function issueTx({ timeZone }: CreditNotesServiceDeps, tx: Tx, input: CreditNoteRequest): Promise<string | null> {
  const [order] = await tx
    .select({
      invoiceNumber: orders.invoiceNumber,
      price: orders.packagePrice,
      currency: orders.currency,
      taxCents: orders.taxCents,
      taxRate: orders.taxRate,
    })
    .from(orders)
    .where(eq(orders.id, input.orderId))
    .for("update");
  if (!order?.invoiceNumber) return null;
  const [sums] = await tx
    .select({
      grossCents: sql<number>`coalesce(sum(${creditNotes.grossCents}), 0)::int`,
      taxCents: sql<number>`coalesce(sum(${creditNotes.taxCents}), 0)::int`,
      forRefund: sql<number>`count(*) filter (where ${creditNotes.refundId} = ${input.refundId})::int`,
    })
    .from(creditNotes)
    .where(eq(creditNotes.orderId, input.orderId));
  if (input.refundId && sums!.forRefund > 0) return null;
  const amounts = creditNoteAmounts(
    { grossCents: centsOf(order.price), taxCents: order.taxCents, rateBasisPoints: order.taxRate },
    sums!,
    input.refundCents,
  );
  if (!amounts) return null;
  const number = await nextNumberTx(tx, input.at, timeZone, creditNoteNumberScope, formatCreditNoteNumber);
  await tx.insert(creditNotes).values({
    number,
    orderId: input.orderId,
    refundId: input.refundId,
    currency: order.currency,
    grossCents: amounts.grossCents,
    taxCents: amounts.taxCents,
    taxRate: order.taxRate,
    reason: input.reason || null,
    issuedAt: input.at,
  });
  return number;
}

/**
 * An erased customer's credit notes (decision 045) in the erasure's transaction: kept, as their invoices are, with
 * their numbers and amounts for the accounts; the studio's reason, which may name them, is forgotten.
 */
async function forgetWordsTx(tx: Tx, userId: string): Promise<void> {
  await tx
    .update(creditNotes)
    .set({ reason: null })
    .where(inArray(creditNotes.orderId, tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId))));
}

/** The latest credit note of an order, in `tx` (the refund mail names it); null when it has none. */
async function lastNumberTx(tx: Tx, orderId: string): Promise<string | null> {
  const [row] = await tx
    .select({ number: creditNotes.number })
    .from(creditNotes)
    .where(eq(creditNotes.orderId, orderId))
    .orderBy(desc(creditNotes.issuedAt), desc(creditNotes.number))
    .limit(1);
  return row?.number ?? null;
}

/** The number of the credit note that records a refund row, in `tx` (the part-refund mail names it). */
async function numberOfRefundTx(tx: Tx, refundId: string): Promise<string | null> {
  const [row] = await tx
    .select({ number: creditNotes.number })
    .from(creditNotes)
    .where(eq(creditNotes.refundId, refundId));
  return row?.number ?? null;
}

/**
 * The credit note with this number, as the viewer may read it (the invoice's guard: its customer, or staff whose
 * role opens the orders): another customer's, and a text that is no credit note number, are "not found".
 */
async function get(
  { db, invoices }: CreditNotesServiceDeps,
  viewer: Pick<Viewer, "id"> & StaffPerson,
  typed: string,
): Promise<CreditNote> {
  const number = normalCreditNoteNumber(typed);
  if (!number) throw notFound("Credit note not found");
  const filters: SQL[] = [eq(creditNotes.number, number)];
  if (!opens(viewer, "orders")) filters.push(eq(orders.userId, viewer.id));
  const [row] = await db
    .select({ note: creditNotes, orderNumber: orders.number, vatNumber: orders.customerVatNumber })
    .from(creditNotes)
    .innerJoin(orders, eq(orders.id, creditNotes.orderId))
    .where(and(...filters));
  if (!row) throw notFound("Credit note not found");
  const invoice = await invoices.get(viewer, row.orderNumber);
  const { note } = row;
  return {
    creditNoteNumber: note.number,
    issuedAt: note.issuedAt.toISOString(),
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: invoice.invoiceDate,
    orderNumber: invoice.orderNumber,
    orderId: invoice.orderId,
    seller: invoice.seller,
    customer: { ...invoice.customer, vatNumber: row.vatNumber },
    packageName: invoice.item.packageName,
    currency: note.currency,
    grossCents: note.grossCents,
    taxCents: note.taxCents,
    netCents: note.grossCents - note.taxCents,
    rateBasisPoints: note.taxRate,
    taxed: isVatInvoice(invoice.tax),
    taxNote: invoice.tax.note,
    reason: note.reason,
  };
}

/** An order's credit notes, oldest first (the invoice lists them). */
const ofOrder = ({ db }: CreditNotesServiceDeps, orderId: string) =>
  db
    .select({ number: creditNotes.number, issuedAt: creditNotes.issuedAt, grossCents: creditNotes.grossCents })
    .from(creditNotes)
    .where(eq(creditNotes.orderId, orderId))
    .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number));

/** The credit note as a PDF, streamed as it is written: the invoice's look, from the one layout. */
const pdf = ({ timeZone }: CreditNotesServiceDeps, note: CreditNote): Promise<Readable> =>
  renderLayoutPdf(creditNoteLayout(note, timeZone));

/** The PDF's file name: the credit note's number. */
const fileName = (note: CreditNote) => `${note.creditNoteNumber}.pdf`;

/**
 * Credit notes (issue 35 part 5, decision 073), the only writer of credit_notes: issued in the transaction that
 * records a refund, numbered there like invoices (a rollback gives the number back); read by the order's customer and
 * by staff who see orders, with the invoice's guard, as data, page and PDF. Each a function over the service's
 * dependencies (or over the caller's transaction alone), which this factory only wires (decision 085).
 */
export function createCreditNotesService(deps: CreditNotesServiceDeps) {
  return {
    issueTx: withDeps(deps, issueTx),
    forgetWordsTx,
    lastNumberTx,
    numberOfRefundTx,
    get: withDeps(deps, get),
    ofOrder: withDeps(deps, ofOrder),
    pdf: withDeps(deps, pdf),
    fileName,
  };
}

export type CreditNotesService = ReturnType<typeof createCreditNotesService>;
