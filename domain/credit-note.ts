/**
 * Credit notes (issue 35 part 5, decision 073): `CN-2026-00001`, the year the money went back (in the site's time
 * zone) and the note's place in that year, counted without a gap like invoice numbers, in the transaction that records
 * the refund. Each corrects one invoiced order by the money returned, split into net and VAT at the order's own rate;
 * the notes of one order never return more than it was charged, gross or VAT (the last one takes what is left). One
 * layout of its text for both views, the page and the PDF, in the invoice's shape (domain/invoice.ts).
 */
import type { Currency } from "./currency";
import { longDate } from "./dates";
import { addressLines, centsAmount, invoiceSeller, sellerContact, type Invoice, type InvoiceLayout } from "./invoice";
import { rateText } from "./tax";

export const CREDIT_NOTE_NUMBER_PREFIX = "CN";

/** The counter a credit note number is drawn from: one per year, in the table order and invoice numbers use. */
export const creditNoteNumberScope = (year: number) => `credit-note:${year}`;

export function formatCreditNoteNumber(year: number, sequence: number): string {
  return `${CREDIT_NOTE_NUMBER_PREFIX}-${year}-${String(sequence).padStart(5, "0")}`;
}

const NUMBER = new RegExp(`^${CREDIT_NOTE_NUMBER_PREFIX}-(\\d{4})-(\\d{5,})$`, "i");

/** A credit note number as typed (any case, spaces around it) in its stored form, or null if it is not one. */
export function normalCreditNoteNumber(typed: string): string | null {
  const match = NUMBER.exec(typed.trim());
  return match ? formatCreditNoteNumber(Number(match[1]), Number(match[2])) : null;
}

/** What an order was charged, as it keeps it: the gross, the VAT within it, and the rate in basis points. */
export interface Charged {
  grossCents: number;
  taxCents: number;
  rateBasisPoints: number;
}

/** A credit note's amounts: the money returned (gross), its VAT part and the net (the difference). */
export interface CreditAmounts {
  grossCents: number;
  taxCents: number;
  netCents: number;
}

/** The VAT within a gross amount at a rate, rounded half up to the cent, in whole numbers only. */
const vatWithin = (grossCents: number, rate: number) =>
  Math.floor((2 * grossCents * rate + (10_000 + rate)) / (2 * (10_000 + rate)));

/**
 * The credit note for `refundCents` returned on an order already credited by `credited` (its earlier notes, summed),
 * or for all that is still uncredited when `refundCents` is null (a payment set to Refunded by hand): null when
 * nothing is left to credit. The gross is capped at what is left; the VAT is the part at the order's rate, never more
 * than the VAT not yet returned, and the note that returns the last of the gross returns the last of the VAT, so the
 * notes of an order add up to exactly what it was charged.
 */
export function creditNoteAmounts(
  order: Charged,
  credited: { grossCents: number; taxCents: number },
  refundCents: number | null,
): CreditAmounts | null {
  const leftGross = Math.max(0, order.grossCents - credited.grossCents);
  const leftTax = Math.max(0, order.taxCents - credited.taxCents);
  const grossCents = refundCents === null ? leftGross : Math.min(Math.max(0, refundCents), leftGross);
  if (grossCents <= 0) return null;
  const taxCents = grossCents === leftGross ? leftTax : Math.min(leftTax, vatWithin(grossCents, order.rateBasisPoints));
  return { grossCents, taxCents, netCents: grossCents - taxCents };
}

/** One credit note's data, as the REST call answers it (dates as ISO strings; amounts in whole cents). */
export interface CreditNote {
  creditNoteNumber: string;
  /** When it was issued: the refund's recording. */
  issuedAt: string;
  /** The invoice it corrects, and its order. */
  invoiceNumber: string;
  invoiceDate: string;
  orderNumber: string;
  orderId: string;
  seller: Invoice["seller"];
  customer: Invoice["customer"] & { vatNumber: string | null };
  packageName: string;
  currency: Currency;
  grossCents: number;
  taxCents: number;
  netCents: number;
  /** The order's rate (basis points), its treatment's legal note, and whether it was a taxed sale (VAT lines). */
  rateBasisPoints: number;
  taxed: boolean;
  taxNote: string | null;
  /** Why the money went back, as staff wrote it; null when not given. */
  reason: string | null;
}

/** The text of a credit note, every date in the site's time zone: the invoice's layout, for the money returned. */
export function creditNoteLayout(note: CreditNote, timeZone: string): InvoiceLayout {
  const date = (iso: string) => longDate(iso, timeZone);
  const amount = (cents: number) => centsAmount(cents, note.currency);
  const { customer } = note;
  return {
    title: "Credit note",
    seller: invoiceSeller(note.seller),
    billedTo: [
      customer.name,
      ...addressLines(customer.address),
      customer.country,
      customer.vatNumber ? `VAT number ${customer.vatNumber}` : "",
      customer.email,
    ].filter(Boolean),
    facts: [
      ["Credit note number", note.creditNoteNumber],
      ["Date", date(note.issuedAt)],
      ["Corrects invoice", note.invoiceNumber],
      ["Invoice date", date(note.invoiceDate)],
      ["Order", note.orderNumber],
    ],
    line: {
      description: `Refund: ${note.packageName} membership`,
      detail: note.reason
        ? `Money returned on invoice ${note.invoiceNumber}. Reason: ${note.reason}`
        : `Money returned on invoice ${note.invoiceNumber}.`,
      amount: amount(note.grossCents),
    },
    discount: null,
    vat: note.taxed
      ? [
          ["Net refunded", amount(note.netCents)],
          [
            note.rateBasisPoints > 0 ? `VAT at ${rateText(note.rateBasisPoints)} refunded` : "VAT refunded",
            amount(note.taxCents),
          ],
        ]
      : [],
    total: ["Total refunded", amount(note.grossCents)],
    notes: note.taxed && note.taxNote ? [note.taxNote] : [],
    notice: null,
    creditNotes: [],
    footer: `Questions about this credit note: ${sellerContact(note.seller)}.`,
  };
}
