import { eq, sql, type SQL } from "drizzle-orm";
import type { OrderStatus, PaymentStatus } from "#domain/vocabulary.ts";
import { shownEmail } from "#domain/customers.ts";
import { orders } from "#server/db/schema.ts";
import { centsOf, type Currency } from "#domain/currency.ts";
import type { TaxTreatment } from "#domain/tax.ts";
import type { Viewer } from "../accounts";

/** An order as stored. */
export type OrderRow = typeof orders.$inferSelect;

/** An order as the API and the pages see it: the spec's field names, `_id`, dates as ISO strings. */
export interface OrderRecord {
  _id: string;
  /** The number people read and say: AN-2026-00123 (domain/order-number.ts). */
  orderNumber: string;
  packageName: string;
  packagePrice: number;
  packageValidity: number;
  customerEmail: string;
  customerName: string;
  customerAddress: string;
  customerCountry: string;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  orderDate: string;
  /** The order's window in the customer's membership timeline; both null when it gives no day. */
  membershipStarts: string | null;
  membershipValid: string | null;
  providerStatus: string | null;
  paidAt: string | null;
  deliveredAt: string | null;
  /** Its invoice (INV-2026-00001, decision 038): issued by its first payment for money; null before, or for a gift. */
  invoiceNumber: string | null;
  /** A discount code's use (decision 049): packagePrice is then the price after it; null and 0 without one. */
  discountCode: string | null;
  priceBefore: number | null;
  discountAmount: number;
  /**
   * The currency it was placed in and its VAT, fixed then (issue 35, decision 072): the VAT within packagePrice (the
   * gross) and the net, in cents; the rate in basis points (2000 = 20 %) and whose; how the sale is taxed and the
   * invoice's note; the buyer's VAT number as checked.
   */
  currency: Currency;
  tax: {
    netCents: number;
    taxCents: number;
    rateBasisPoints: number;
    country: string | null;
    treatment: TaxTreatment;
    note: string | null;
  };
  customerVatNumber: string | null;
  /** Days the studio gave (payment method Gift, no money): shown as given, never as a payment. */
  given: boolean;
  createdAt: string;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** An order's VAT as its pages read it: the net is the gross (packagePrice) less the VAT, in cents. */
export const orderTaxOf = (
  r: Pick<OrderRow, "packagePrice" | "taxCents" | "taxRate" | "taxCountry" | "taxTreatment" | "taxNote">,
) => ({
  netCents: centsOf(r.packagePrice) - r.taxCents,
  taxCents: r.taxCents,
  rateBasisPoints: r.taxRate,
  country: r.taxCountry,
  treatment: r.taxTreatment,
  note: r.taxNote,
});

export function toOrderRecord(r: OrderRow): OrderRecord {
  return {
    _id: r.id,
    orderNumber: r.number,
    packageName: r.packageName,
    packagePrice: r.packagePrice,
    packageValidity: r.packageValidity,
    // An erased customer's placeholder is no address (decision 063): the desk, the lists and the API show none.
    customerEmail: shownEmail(r.customerEmail) ?? "",
    customerName: r.customerName,
    customerAddress: r.customerAddress,
    customerCountry: r.customerCountry,
    paymentStatus: r.paymentStatus as PaymentStatus,
    orderStatus: r.orderStatus as OrderStatus,
    orderDate: r.orderDate,
    membershipStarts: iso(r.membershipStarts),
    membershipValid: iso(r.membershipValid),
    providerStatus: r.providerStatus,
    paidAt: iso(r.paidAt),
    deliveredAt: iso(r.deliveredAt),
    invoiceNumber: r.invoiceNumber,
    discountCode: r.discountCode,
    priceBefore: r.priceBefore,
    discountAmount: r.discountAmount,
    currency: r.currency,
    tax: orderTaxOf(r),
    customerVatNumber: r.customerVatNumber,
    given: r.paymentMethod === "Gift",
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * The orders a viewer may read: a customer their own, an administrator every order (or their own, `mine`). Every read
 * of orders starts from this filter (undefined: no filter).
 */
export function scope(viewer: Pick<Viewer, "id" | "isAdmin">, mine = false): SQL | undefined {
  return viewer.isAdmin && !mine ? undefined : eq(orders.userId, viewer.id);
}

/** The same filter for a statement built once: a customer's own orders, their id the placeholder `userId`. */
export const ownScope = eq(orders.userId, sql.placeholder("userId"));
