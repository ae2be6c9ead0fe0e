/**
 * Invoice numbers (decision 038): `INV-2026-00001`, the year the money was received (in the site's time zone) and the
 * invoice's place in that year, counted without a gap by the payment's own transaction (server/services/orders). An
 * order is invoiced once, the first time money is received for it; it keeps its number whatever happens after
 * (a refund, a payment set back to unpaid and paid again). An order for no money (a gift) is no sale: no invoice.
 */
import type { EventType } from "./order-lifecycle";

export const INVOICE_NUMBER_PREFIX = "INV";

/** The counter an invoice number is drawn from: one per year, in the table the order numbers use. */
export const invoiceNumberScope = (year: number) => `invoice:${year}`;

export function formatInvoiceNumber(year: number, sequence: number): string {
  return `${INVOICE_NUMBER_PREFIX}-${year}-${String(sequence).padStart(5, "0")}`;
}

const NUMBER = new RegExp(`^${INVOICE_NUMBER_PREFIX}-(\\d{4})-(\\d{5,})$`, "i");

/** An invoice number as typed (any case, spaces around it) in its stored form, or null if it is not one. */
export function normalInvoiceNumber(typed: string): string | null {
  const match = NUMBER.exec(typed.trim());
  return match ? formatInvoiceNumber(Number(match[1]), Number(match[2])) : null;
}

/** What the rule reads of an order. */
export interface Invoiceable {
  invoiceNumber: string | null;
  packagePrice: number;
}

/**
 * Whether the event, which the order accepted (a change), takes a new invoice number for it: a payment of an order
 * for money that has none yet. Nothing else numbers, and nothing gives a number back once the payment committed.
 */
export function takesInvoiceNumber(order: Invoiceable, event: EventType): boolean {
  return event === "pay" && order.invoiceNumber === null && order.packagePrice > 0;
}
