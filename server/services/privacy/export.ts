import { asc, eq, sql } from "drizzle-orm";
import { membershipTimeline } from "#domain/membership.ts";
import type { Db } from "#server/db/client.ts";
import { consents, customerNotes, messages, orders, session, subscribers, subscriptions } from "#server/db/schema.ts";
import { accountOf, iso, isoOrNull, type DataExport, type PrivacyContext } from "./model";

type OrderRow = typeof orders.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The person's records, each list read with one query (seven reads, at once). */
function recordsOf(db: Db, userId: string, email: string) {
  return Promise.all([
    db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt), asc(orders.id)),
    db
      .select()
      .from(subscribers)
      .where(sql`lower(${subscribers.subemail}) = ${email}`),
    db
      .select()
      .from(messages)
      .where(sql`lower(${messages.email}) = ${email}`)
      .orderBy(asc(messages.createdAt)),
    db.select().from(consents).where(eq(consents.userId, userId)).orderBy(asc(consents.acceptedAt)),
    db.select().from(session).where(eq(session.userId, userId)).orderBy(asc(session.createdAt)),
    db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id)),
    db.select().from(customerNotes).where(eq(customerNotes.userId, userId)),
  ]);
}

const orderOf = (o: OrderRow): DataExport["orders"][number] => ({
  number: o.number,
  packageName: o.packageName,
  amount: o.packagePrice,
  currency: o.currency,
  vat: o.taxCents / 100,
  vatNumber: o.customerVatNumber,
  validityDays: o.packageValidity,
  paymentStatus: o.paymentStatus,
  orderStatus: o.orderStatus,
  placedAt: iso(o.createdAt),
  paidAt: isoOrNull(o.paidAt),
  deliveredAt: isoOrNull(o.deliveredAt),
  paypalTransactionId: o.txnId,
  paymentMethod: o.paymentMethod,
  paymentReference: o.paymentReference,
  invoiceNumber: o.invoiceNumber,
  invoicedAt: isoOrNull(o.invoicedAt),
  discountCode: o.discountCode,
  priceBefore: o.priceBefore,
  discountAmount: o.discountAmount,
  name: o.customerName,
  email: o.customerEmail,
  address: o.customerAddress,
  country: o.customerCountry,
});

/** What their orders make of them: the membership's windows, the subscriptions and the discount codes used. */
function fromOrders(orderRows: OrderRow[], subscriptionRows: SubscriptionRow[]) {
  const byId = new Map(orderRows.map((o) => [o.id, o]));
  return {
    membershipWindows: membershipTimeline(orderRows).map((w) => ({
      orderNumber: byId.get(w.orderId)!.number,
      packageName: byId.get(w.orderId)!.packageName,
      starts: iso(w.starts),
      ends: iso(w.ends),
    })),
    subscriptions: subscriptionRows.map((r) => ({
      reference: r.subscrId,
      orderNumber: byId.get(r.orderId)?.number ?? "",
      status: r.status,
      signedUpAt: isoOrNull(r.signedUpAt),
      cancelledAt: isoOrNull(r.cancelledAt),
      // Who at the studio cancelled is the staff's data, not the customer's: only that the studio did.
      cancelledBy:
        r.cancelledBy === null ? null : r.cancelledBy === "PayPal" ? ("PayPal" as const) : ("The studio" as const),
      endedAt: isoOrNull(r.endedAt),
    })),
    discountCodes: orderRows
      .filter((o) => o.discountCode !== null)
      .map((o) => ({
        code: o.discountCode!,
        orderNumber: o.number,
        discount: o.discountAmount,
        usedAt: iso(o.createdAt),
      })),
  };
}

/** "Download my data": one document of the person's records (nine reads, each by an index). */
export async function exportData({ db, now }: PrivacyContext, userId: string): Promise<DataExport> {
  const person = await accountOf(db, userId);
  const email = person.email.toLowerCase();
  const [orderRows, subscriberRows, messageRows, consentRows, sessionRows, subscriptionRows, [note]] = await recordsOf(
    db,
    userId,
    email,
  );
  const { membershipWindows, subscriptions, discountCodes } = fromOrders(orderRows, subscriptionRows);
  return {
    format: "atelier-north/personal-data@1",
    exportedAt: iso(now()),
    profile: {
      name: person.name,
      email: person.email,
      emailVerified: person.emailVerified,
      createdAt: iso(person.createdAt),
      staffRole: person.staffRole,
      twoFactorEnabled: person.twoFactorEnabled,
    },
    orders: orderRows.map(orderOf),
    membershipWindows,
    subscriptions,
    discountCodes,
    staffNote: note ? { note: note.note, updatedAt: iso(note.updatedAt) } : null,
    newsletter: subscriberRows.map((s) => ({
      email: s.subemail,
      state: s.state,
      subscribedAt: iso(s.subscribedAt),
      confirmedAt: isoOrNull(s.confirmedAt),
      unsubscribedAt: isoOrNull(s.unsubscribedAt),
    })),
    messages: messageRows.map((m) => ({
      sentAt: iso(m.createdAt),
      name: m.name,
      email: m.email,
      phone: m.number,
      subject: m.subject,
      message: m.message,
    })),
    consents: consentRows.map((c) => ({ document: c.document, version: c.version, acceptedAt: iso(c.acceptedAt) })),
    sessions: sessionRows.map((s) => ({
      device: s.userAgent ?? "",
      ipAddress: s.ipAddress ?? "",
      signedInAt: iso(s.createdAt),
      lastSeenAt: iso(s.updatedAt),
      expiresAt: iso(s.expiresAt),
    })),
  };
}
