import { eq, sql } from "drizzle-orm";
import type { Currency } from "#domain/currency.ts";
import { isUserId } from "#domain/privacy.ts";
import type { Db } from "#server/db/client.ts";
import { adminUsers, user } from "#server/db/schema.ts";
import { notFound } from "#server/lib/errors.ts";
import type { CreditNotesService } from "../credit-notes";
import { accountRow } from "../customers/model";
import type { Forgetter } from "../forgetters";
import type { OrdersService } from "../orders";
import type { RateLimiter, RateLimitRule } from "../rate-limit";
import type { WebhooksService } from "../webhooks";

/** Wrong passwords (or codes) on the deletion form, per person: then a wait. */
export const DELETE_LIMIT = {
  name: "account-delete:failures",
  limit: 10,
  windowMs: 15 * 60_000,
} satisfies RateLimitRule;

export const ALREADY_ERASED = "This customer's data has already been erased.";

/** The document "Download my data" gives: one person's records, each list read with one query. */
export interface DataExport {
  format: "atelier-north/personal-data@1";
  exportedAt: string;
  profile: {
    name: string;
    email: string;
    emailVerified: boolean;
    createdAt: string;
    staffRole: string | null;
    twoFactorEnabled: boolean;
  };
  orders: {
    number: string;
    packageName: string;
    amount: number;
    currency: Currency;
    /** The VAT within the amount and the VAT number given with the order (issue 35). */
    vat: number;
    vatNumber: string | null;
    validityDays: number;
    paymentStatus: string;
    orderStatus: string;
    placedAt: string;
    paidAt: string | null;
    deliveredAt: string | null;
    paypalTransactionId: string | null;
    /** How it was paid (PayPal, Bank transfer, By hand, Gift; null while unpaid) and the transfer's reference or the gift's reason. */
    paymentMethod: string | null;
    paymentReference: string | null;
    invoiceNumber: string | null;
    invoicedAt: string | null;
    /** A discount code used on the order, the price before it and the discount (none: null, null, 0). */
    discountCode: string | null;
    priceBefore: number | null;
    discountAmount: number;
    name: string;
    email: string;
    address: string;
    country: string;
  }[];
  /** The days each paid and delivered order gives, laid end to end (domain/membership.ts, the one timeline). */
  membershipWindows: { orderNumber: string; packageName: string; starts: string; ends: string }[];
  /** PayPal subscriptions (renewals) they signed up for. */
  subscriptions: {
    reference: string;
    orderNumber: string;
    status: string;
    signedUpAt: string | null;
    cancelledAt: string | null;
    cancelledBy: "PayPal" | "The studio" | null;
    endedAt: string | null;
  }[];
  /** Each discount code used, with the order it was used on. */
  discountCodes: { code: string; orderNumber: string; discount: number; usedAt: string }[];
  /** The studio's private note on their customer record (null: none). */
  staffNote: { note: string; updatedAt: string } | null;
  newsletter: {
    email: string;
    state: string;
    subscribedAt: string;
    confirmedAt: string | null;
    unsubscribedAt: string | null;
  }[];
  messages: { sentAt: string; name: string; email: string; phone: string; subject: string; message: string }[];
  consents: { document: string; version: string; acceptedAt: string }[];
  sessions: { device: string; ipAddress: string; signedInAt: string; lastSeenAt: string; expiresAt: string }[];
}

/** What the admin's confirmation page shows of a customer before erasing them. */
export interface ErasureSubject {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  orders: number;
  /** Of those, orders still unpaid (cancelled by the erasure). */
  unpaidOrders: number;
  staffRole: string | null;
  erased: boolean;
}

/** What the privacy service is made of (its factory's argument). */
export interface PrivacyDeps {
  db: Db;
  orders: Pick<OrdersService, "anonymiseTx">;
  /** Their credit notes are kept like their invoices; the studio's reason on them is forgotten (decision 073). */
  creditNotes: Pick<CreditNotesService, "forgetWordsTx">;
  limiter: RateLimiter;
  /**
   * Who the person is (server/services/two-factor.ts): their password checked, whether their second factor is on, and
   * a code checked (and spent).
   */
  twoFactor: {
    passwordMatches(userId: string, password: string): Promise<boolean>;
    state(userId: string): Promise<{ enabled: boolean }>;
    checkCode(userId: string, code: string): Promise<boolean>;
  };
  /** Where the member imports' uploaded files are (DATA_DIR/imports): a file holding the person goes (decision 086). */
  importsDir: string;
  /** How many backups are kept (BACKUP_KEEP, one a day): they hold an erased person's data until replaced. */
  backupsKept: number;
  now?: () => Date;
  /** customer.erased, in the erasure's transaction (decision 078). */
  webhooks?: Pick<WebhooksService, "emitTx">;
}

/** The deps as the service's functions use them: the clock given or the real one, and the stores' forgetters. */
export type PrivacyContext = Omit<PrivacyDeps, "now"> & { now: () => Date; registry: readonly Forgetter[] };

/** How the erasure was asked for: it goes in the activity log (and nothing about the person does). */
export type Request = "own account" | "by mail";

export const iso = (d: Date) => d.toISOString();
export const isoOrNull = (d: Date | null) => d?.toISOString() ?? null;

/** The account's row, its staff role and whether its second factor is on; a 404 for an unknown id. */
export async function accountOf(db: Db, userId: string) {
  if (!isUserId(userId)) throw notFound("No customer has this id.");
  const row = await accountRow(db, eq(user.id, userId), {
    twoFactorEnabled: user.twoFactorEnabled,
    staffRole: sql<
      string | null
    >`(select a.user_role from ${adminUsers} a where lower(a.user_email) = lower(${user.email}))`,
  });
  if (!row) throw notFound("No customer has this id.");
  return row;
}
