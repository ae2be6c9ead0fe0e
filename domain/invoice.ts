/**
 * An invoice (decision 038): what server/services/invoices.ts reads for one invoiced order, and the one layout of its
 * text that both views print, the page (app/routes/invoice.tsx) and the PDF (server/services/invoice-pdf.tsx), so the
 * two can never say different things.
 */
import { longDate } from "./dates";
import { money } from "./format";
import type { PaymentMethod, PaymentStatus } from "./vocabulary";

/** Every price of the site is in US dollars (PayPal is asked for USD). */
export const INVOICE_CURRENCY = "USD";

/** One invoice's data, as the REST call answers it (dates as ISO strings). */
export interface Invoice {
  invoiceNumber: string;
  /** When it was issued: the order's first payment. */
  invoiceDate: string;
  orderNumber: string;
  orderId: string;
  /** The order's payment status now: Paid, or Refunded (or UnPaid, after an admin's correction). */
  paymentStatus: PaymentStatus;
  seller: {
    /** The site's name (the content), or the company name of the settings when set. */
    name: string;
    /** The address and contact of the site's footer. */
    address: string;
    phone: string;
    email: string;
    website: string;
    /** The legal details of the settings; blank when the agency has none. */
    companyNumber: string;
    vatNumber: string;
    registeredAddress: string;
  };
  customer: { name: string; email: string; address: string; country: string };
  item: {
    packageName: string;
    validityDays: number;
    /** The order's window in the membership timeline; null while it waits for activation or gives no day. */
    periodStarts: string | null;
    periodEnds: string | null;
  };
  amount: number;
  /** A discount code's use (decision 049): the price before it and what it took off; null without one. */
  discount?: { code: string; priceBefore: number; amount: number } | null;
  currency: typeof INVOICE_CURRENCY;
  payment: {
    method: PaymentMethod | null;
    /** PayPal's transaction id, or the bank transfer's reference. */
    reference: string | null;
    /** When the payment was received (null after a payment was set back to unpaid). */
    paidAt: string | null;
  };
}

/** The invoice as text, laid out once for both views. */
export interface InvoiceLayout {
  title: string;
  seller: { name: string; lines: string[]; legal: string[] };
  billedTo: string[];
  /** Invoice number, dates, order, payment: label and value. */
  facts: [string, string][];
  line: { description: string; detail: string; amount: string };
  /** The discount's line, after the package's (the line then shows the price before it); null without one. */
  discount: { description: string; amount: string } | null;
  total: [string, string];
  /** A sentence when the payment is no longer as invoiced (refunded, set back to unpaid); else null. */
  notice: string | null;
  footer: string;
}

const lines = (text: string) =>
  text
    .split(/\n|,\s*(?=\S)/)
    .map((l) => l.trim())
    .filter(Boolean);

const METHOD_TEXT: Record<PaymentMethod, string> = {
  PayPal: "PayPal",
  "Bank transfer": "Bank transfer",
  "By hand": "Payment received by the studio",
  Gift: "Given by the agency",
};

const website = (url: string) => url.replace(/^https?:\/\//, "").replace(/\/$/, "");

/** "$49.00 USD" */
export const invoiceAmount = (amount: number) => `$${money(amount)} ${INVOICE_CURRENCY}`;

/** The text of an invoice, every date in the site's time zone. */
export function invoiceLayout(invoice: Invoice, timeZone: string): InvoiceLayout {
  const { seller, customer, item, payment } = invoice;
  const date = (iso: string) => longDate(iso, timeZone);
  const method = payment.method ?? (payment.reference ? "PayPal" : "By hand");
  const facts: [string, string][] = [
    ["Invoice number", invoice.invoiceNumber],
    ["Invoice date", date(invoice.invoiceDate)],
    ["Order", invoice.orderNumber],
    ["Payment", METHOD_TEXT[method]],
  ];
  if (payment.reference)
    facts.push([method === "PayPal" ? "PayPal transaction" : "Payment reference", payment.reference]);
  if (payment.paidAt) facts.push(["Paid on", date(payment.paidAt)]);
  const period =
    item.periodStarts && item.periodEnds
      ? `Membership from ${date(item.periodStarts)} to ${date(item.periodEnds)}`
      : `Membership of ${item.validityDays} days, from its activation`;
  const notice =
    invoice.paymentStatus === "Refunded"
      ? "This payment was refunded."
      : invoice.paymentStatus !== "Paid"
        ? "This payment is no longer recorded as received."
        : null;
  const legal = [
    seller.companyNumber ? `Company number ${seller.companyNumber}` : "",
    seller.vatNumber ? `VAT number ${seller.vatNumber}` : "",
    seller.registeredAddress ? `Registered address: ${lines(seller.registeredAddress).join(", ")}` : "",
  ].filter(Boolean);
  return {
    title: "Invoice",
    seller: {
      name: seller.name,
      // The site's address as people type it: no scheme, no trailing slash.
      lines: [...lines(seller.address), seller.phone, seller.email, website(seller.website)].filter(Boolean),
      legal,
    },
    billedTo: [customer.name, ...lines(customer.address), customer.country, customer.email].filter(Boolean),
    facts,
    line: {
      description: `${item.packageName} membership`,
      detail: period,
      amount: invoiceAmount(invoice.discount ? invoice.discount.priceBefore : invoice.amount),
    },
    discount: invoice.discount
      ? {
          description: `Discount (code ${invoice.discount.code})`,
          amount: `−${invoiceAmount(invoice.discount.amount)}`,
        }
      : null,
    total: [notice ? "Total" : "Total paid", invoiceAmount(invoice.amount)],
    notice,
    footer: `Thank you for your business. Questions about this invoice: ${seller.email || website(seller.website)}.`,
  };
}
