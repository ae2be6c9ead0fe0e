import type { Readable } from "node:stream";
import { and, asc, eq, isNotNull, type SQL } from "drizzle-orm";
import { opens, type StaffPerson } from "#domain/capabilities.ts";
import { invoiceLayout, type Invoice } from "#domain/invoice.ts";
import { normalOrderNumber } from "#domain/order-number.ts";
import { shownEmail } from "#domain/customers.ts";
import type { Db } from "../db/client";
import { creditNotes, orders } from "../db/schema";
import { notFound } from "../lib/errors";
import { brandOf } from "../mail/brand";
import type { Viewer } from "./accounts";
import type { ContentService } from "./content";
import { renderLayoutPdf } from "./invoice-pdf";
import type { SettingsService } from "./settings";

export interface InvoicesServiceDeps {
  db: Db;
  content: Pick<ContentService, "snapshot">;
  settings: Pick<SettingsService, "all">;
  publicUrl: string;
  timeZone: string;
}

/**
 * Whether the viewer reads every customer's invoices: staff whose role opens the orders (decision 036) and whose second
 * factor is not due (decision 059).
 */
const readsAll = (viewer: StaffPerson) => opens(viewer, "orders");

/**
 * Invoices (decision 038): one data function for an invoiced order, read by its customer or by staff who see orders,
 * and the PDF of it. The numbers themselves are taken by the order commands (the payment's transaction).
 */
export function createInvoicesService({ db, content, settings, publicUrl, timeZone }: InvoicesServiceDeps) {
  return {
    /**
     * The invoice of the order with this number, as the viewer may read it: another customer's order, an order with
     * no invoice (unpaid, a gift) and a text that is no order number are all "not found".
     */
    async get(viewer: Pick<Viewer, "id"> & StaffPerson, orderNumber: string): Promise<Invoice> {
      const number = normalOrderNumber(orderNumber);
      if (!number) throw notFound("Invoice not found");
      const filters: SQL[] = [eq(orders.number, number), isNotNull(orders.invoiceNumber)];
      if (!readsAll(viewer)) filters.push(eq(orders.userId, viewer.id));
      const [[row], snapshot, legal] = await Promise.all([
        db
          .select()
          .from(orders)
          .where(and(...filters)),
        content.snapshot(),
        settings.all(),
      ]);
      if (!row?.invoiceNumber || !row.invoicedAt) throw notFound("Invoice not found");
      const notes = await db
        .select({ number: creditNotes.number, issuedAt: creditNotes.issuedAt, grossCents: creditNotes.grossCents })
        .from(creditNotes)
        .where(eq(creditNotes.orderId, row.id))
        .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number));
      const brand = brandOf(snapshot, publicUrl);
      return {
        invoiceNumber: row.invoiceNumber,
        invoiceDate: row.invoicedAt.toISOString(),
        orderNumber: row.number,
        orderId: row.id,
        paymentStatus: row.paymentStatus,
        seller: {
          name: legal.invoiceCompanyName || brand.name,
          address: brand.location,
          phone: brand.phone,
          email: brand.email,
          website: brand.siteUrl,
          companyNumber: legal.invoiceCompanyNumber ?? "",
          // The VAT number in force now (decision 073): a registered business keeps one number for life, and an
          // invoice of a sale made before registration prints no VAT line whatever the settings say now.
          vatNumber: legal.money.vatNumber,
          registeredAddress: legal.invoiceRegisteredAddress ?? "",
        },
        customer: {
          name: row.customerName,
          email: shownEmail(row.customerEmail) ?? "",
          address: row.customerAddress,
          country: row.customerCountry,
        },
        item: {
          packageName: row.packageName,
          validityDays: row.packageValidity,
          periodStarts: row.membershipStarts?.toISOString() ?? null,
          periodEnds: row.membershipValid?.toISOString() ?? null,
        },
        amount: row.packagePrice,
        discount:
          row.discountCode && row.priceBefore !== null
            ? { code: row.discountCode, priceBefore: row.priceBefore, amount: row.discountAmount }
            : null,
        // The order's own currency and VAT, fixed when it was placed: never recomputed, never today's settings.
        currency: row.currency,
        tax: {
          taxCents: row.taxCents,
          rateBasisPoints: row.taxRate,
          treatment: row.taxTreatment,
          country: row.taxCountry,
          note: row.taxNote,
        },
        customerVatNumber: row.customerVatNumber,
        creditNotes: notes.map((n) => ({ ...n, issuedAt: n.issuedAt.toISOString() })),
        payment: {
          method: row.paymentMethod ?? null,
          reference: row.txnId ?? row.paymentReference ?? null,
          paidAt: row.paidAt?.toISOString() ?? null,
        },
      };
    },

    /** The invoice as a PDF, streamed as it is written. */
    pdf(invoice: Invoice): Promise<Readable> {
      return renderLayoutPdf(invoiceLayout(invoice, timeZone));
    },

    /** The PDF's file name: the invoice number. */
    fileName: (invoice: Invoice) => `${invoice.invoiceNumber}.pdf`,
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
