/**
 * An invoice (decision 038): what server/services/invoices.ts reads for one invoiced order, and the one layout of its
 * text that both views print, the page (app/routes/invoice.tsx) and the PDF (server/services/invoice-pdf.tsx), so the
 * two can never say different things.
 */
import { centsOf, CURRENCY_SYMBOL, centsToDecimal, type Currency } from "./currency";
import { longDate } from "./dates";
import { money } from "./format";
import { rateText, type TaxTreatment } from "./tax";
import type { PaymentMethod, PaymentStatus } from "./vocabulary";
import { countryName } from "./countries";

/** The currency of the site's first prices, and of every order placed before orders kept their own (issue 35). */
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
  /** The order's own currency: every amount of the invoice is in it. */
  currency: Currency;
  /**
   * The VAT fixed on the order when it was placed (decision 072), never recomputed: the VAT within `amount` (the gross)
   * in whole cents, the rate in basis points, how the sale was taxed and the invoice's legal note.
   */
  tax: {
    taxCents: number;
    rateBasisPoints: number;
    treatment: TaxTreatment;
    note: string | null;
    /** Whose rate it is (a member state's, for a consumer there under the One Stop Shop); absent when unknown. */
    country?: string | null;
  };
  /** The buyer's VAT number as checked when they ordered; null when none was given. */
  customerVatNumber: string | null;
  /** The credit notes that correct it (decision 073), oldest first; empty when none. */
  creditNotes: { number: string; issuedAt: string; grossCents: number }[];
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
  /** A VAT invoice's lines before the total (net, VAT at the rate): label and amount; empty for an untaxed sale. */
  vat: [string, string][];
  total: [string, string];
  /** The legal notes a VAT invoice prints (reverse charge, outside the scope); empty when none. */
  notes: string[];
  /** The credit notes that correct it: number and a sentence; the page links each number. Empty when none. */
  creditNotes: { number: string; text: string }[];
  /** A sentence when the payment is no longer as invoiced (refunded, set back to unpaid); else null. */
  notice: string | null;
  footer: string;
}

/** An address as people type it, one line per line or comma. */
export const addressLines = (text: string) =>
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

/** "$49.00 USD", "£49.00 GBP": an amount of the orders table (a decimal number) in its currency. */
export const invoiceAmount = (amount: number, currency: Currency = INVOICE_CURRENCY) =>
  `${CURRENCY_SYMBOL[currency]}${money(amount)} ${currency}`;

/** "£40.83 GBP" from whole cents. */
export const centsAmount = (cents: number, currency: Currency) =>
  `${CURRENCY_SYMBOL[currency]}${centsToDecimal(cents)} ${currency}`;

/** How an invoice or credit note reaches the seller: their mail, else their site. */
export const sellerContact = (seller: Invoice["seller"]) => seller.email || website(seller.website);

/** The seller's block of an invoice or credit note: name, address and contact lines, legal details when set. */
export function invoiceSeller(seller: Invoice["seller"]): InvoiceLayout["seller"] {
  const legal = [
    seller.companyNumber ? `Company number ${seller.companyNumber}` : "",
    seller.vatNumber ? `VAT number ${seller.vatNumber}` : "",
    seller.registeredAddress ? `Registered address: ${addressLines(seller.registeredAddress).join(", ")}` : "",
  ].filter(Boolean);
  return {
    name: seller.name,
    // The site's address as people type it: no scheme, no trailing slash.
    lines: [...addressLines(seller.address), seller.phone, seller.email, website(seller.website)].filter(Boolean),
    legal,
  };
}

/**
 * Whether the order was a taxed sale, whose invoice is a VAT invoice: VAT charged at a rate, or a sale the registered
 * seller made without VAT for a reason the invoice must state (reverse charge, outside the scope). A seller not
 * registered ("not-registered") prints no VAT line, as before issue 35.
 */
export const isVatInvoice = (tax: Invoice["tax"]) =>
  tax.rateBasisPoints > 0 ||
  ((tax.treatment === "reverse-charge" || tax.treatment === "outside-scope") && Boolean(tax.note));

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
  const currency = invoice.currency;
  const amount = (n: number) => invoiceAmount(n, currency);
  const taxed = isVatInvoice(invoice.tax);
  // A sale taxed under the One Stop Shop is at the buyer's state's rate: the invoice names whose.
  const ossCountry = invoice.tax.treatment === "oss" && invoice.tax.country ? countryName(invoice.tax.country) : null;
  const grossCents = centsOf(invoice.amount);
  return {
    title: "Invoice",
    seller: invoiceSeller(seller),
    billedTo: [
      customer.name,
      ...addressLines(customer.address),
      customer.country,
      taxed && invoice.customerVatNumber ? `VAT number ${invoice.customerVatNumber}` : "",
      customer.email,
    ].filter(Boolean),
    facts,
    line: {
      description: `${item.packageName} membership`,
      detail: period,
      // A VAT invoice states the price excluding VAT (HMRC's full invoice): the line is the net when no discount
      // splits it; with one, the line and the discount stay as paid (gross) and the net and VAT follow.
      amount:
        taxed && !invoice.discount
          ? centsAmount(grossCents - invoice.tax.taxCents, currency)
          : amount(invoice.discount ? invoice.discount.priceBefore : invoice.amount),
    },
    discount: invoice.discount
      ? {
          description: `Discount (code ${invoice.discount.code})`,
          amount: `−${amount(invoice.discount.amount)}`,
        }
      : null,
    vat: taxed
      ? [
          ["Net", centsAmount(grossCents - invoice.tax.taxCents, currency)],
          [
            invoice.tax.rateBasisPoints > 0
              ? `VAT at ${rateText(invoice.tax.rateBasisPoints)}${ossCountry ? ` (${ossCountry})` : ""}`
              : "VAT",
            centsAmount(invoice.tax.taxCents, currency),
          ],
        ]
      : [],
    total: [notice ? "Total" : "Total paid", amount(invoice.amount)],
    notes: taxed && invoice.tax.note ? [invoice.tax.note] : [],
    creditNotes: (invoice.creditNotes ?? []).map((c) => ({
      number: c.number,
      text: `Credit note ${c.number} of ${date(c.issuedAt)}: ${centsAmount(c.grossCents, currency)} refunded.`,
    })),
    notice,
    footer: `Thank you for your business. Questions about this invoice: ${sellerContact(seller)}.`,
  };
}
