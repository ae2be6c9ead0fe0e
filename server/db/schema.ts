import { sql, type SQL } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import {
  activityActions,
  adminRoles,
  accessTypes,
  categories,
  itemFormats,
  messageStatuses,
  orderStatuses,
  paymentMethods,
  paymentStatuses,
  subscriberStates,
} from "#domain/vocabulary.ts";
import { mediaStorages, sourceFormats, variantFormats } from "#domain/media.ts";
import { CONSENT_DOCUMENTS } from "#domain/account-forms.ts";
import { TRASH_KINDS } from "#domain/trash.ts";
import { CURRENCIES } from "#domain/currency.ts";
import { TAX_TREATMENTS } from "#domain/tax.ts";
import { ARTICLE_ACCESS, ARTICLE_STATES } from "#domain/articles.ts";
import {
  NEWSLETTER_AUDIENCES,
  NEWSLETTER_STATES,
  RECIPIENT_STATUSES,
  SUPPRESSION_REASONS,
} from "#domain/newsletters.ts";
import { KEY_ACCESS } from "#domain/api-keys.ts";
import { BACKUP_PLACES, DRILL_STATES, type DrillRecord } from "#domain/backups.ts";
import { STAFF_AREAS } from "#domain/capabilities.ts";
import { DELIVERY_STATES, ENDPOINT_STATES } from "#domain/webhooks.ts";
import { IMPORT_PRESETS, IMPORT_STATES, ROW_ACTIONS, type ImportMapping, type ImportRow } from "#domain/imports.ts";

/** A CHECK that the column holds one of a vocabulary's values ("col in ('A', 'B')"), in the vocabulary's order. */
const oneOf = (column: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(", "))})`;

/** Every editable public section's records (see app/content/registry.ts): one row per record. */
export const contentEntries = pgTable(
  "content_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("content_entries_type_position_idx").on(t.type, t.position, t.createdAt)],
);

/** Contact messages sent from the public site. */
export const messages = pgTable(
  "messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    number: text("number").notNull().default(""),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    messageStatus: text("message_status", { enum: messageStatuses.values }).notNull().default("UnRead"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When staff put it away (decision 039): out of the Unread and Read tables and the unread count; null in the inbox. */
    archivedAt: timestamp("archived_at", { withTimezone: true }),
  },
  (t) => [
    check("messages_status_check", oneOf(t.messageStatus, messageStatuses.values)),
    index("messages_status_created_idx").on(t.messageStatus, t.createdAt),
    // The inbox's tables and its unread count: messages not archived, by status, newest first.
    index("messages_inbox_idx")
      .on(t.messageStatus, t.createdAt)
      .where(sql`${t.archivedAt} is null`),
    index("messages_archived_idx")
      .on(t.archivedAt)
      .where(sql`${t.archivedAt} is not null`),
    // A person's messages by their address: the export of their data and their erasure (decision 045).
    index("messages_email_lower_idx").on(sql`lower(${t.email})`),
  ],
);

/**
 * Newsletter addresses; an address is stored once (case-insensitively). A signup is pending until confirmed (double
 * opt-in): the confirmation link's token is stored only as its SHA-256 hash, with its expiry.
 */
export const subscribers = pgTable(
  "subscribers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subemail: text("subemail").notNull(),
    state: text("state", { enum: subscriberStates.values }).notNull().default("pending"),
    /** When the address was (last) signed up in the footer. */
    subscribedAt: timestamp("subscribed_at", { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    /** SHA-256 (hex) of the pending confirmation link's token; null once used or when there is none. */
    confirmTokenHash: text("confirm_token_hash"),
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    /** When the last confirmation mail went out (a repeat signup within minutes sends no second one). */
    confirmSentAt: timestamp("confirm_sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("subscribers_state_check", oneOf(t.state, subscriberStates.values)),
    uniqueIndex("subscribers_subemail_lower_idx").on(sql`lower(${t.subemail})`),
    index("subscribers_created_idx").on(t.createdAt),
    // The admin's tabs: one state, newest first (read backwards), paged and counted per state.
    index("subscribers_state_subscribed_idx").on(t.state, t.subscribedAt, t.id),
    uniqueIndex("subscribers_confirm_token_idx")
      .on(t.confirmTokenHash)
      .where(sql`${t.confirmTokenHash} is not null`),
  ],
);

/**
 * Rate-limit counters of rate-limiter-flexible's PostgreSQL store (its own table layout: key, points, expire in epoch
 * ms), shared by every app instance.
 */
export const rateLimiter = pgTable(
  "rate_limiter",
  {
    key: varchar("key", { length: 255 }).primaryKey(),
    points: integer("points").notNull().default(0),
    expire: bigint("expire", { mode: "number" }),
  },
  (t) => [index("rate_limiter_expire_idx").on(t.expire)],
);

// ── Identity (better-auth's four tables, written by hand: its CLI needs Node 22) ─────────────────────────────────

export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** better-auth's two-factor plugin: a confirmed authenticator app (the two_factor row below) asks for a code at sign-in. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  },
  (t) => [
    // The customers list (server/services/customers.ts): search by name or email anywhere in the text, sort by joined.
    index("user_search_idx").using("gin", sql`(lower(${t.name} || ' ' || ${t.email})) gin_trgm_ops`),
    index("user_created_idx").on(t.createdAt, t.id),
    // An address matched whatever its case (a member import, decision 079; accounts.userByEmail).
    index("user_email_lower_idx").on(sql`lower(${t.email})`),
  ],
);

/**
 * better-auth's two-factor plugin (issue 25, decision 040): the person's authenticator key and recovery codes, both
 * encrypted with the auth secret; `verified` false while an enrolment waits for its first code. One row per person.
 */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [uniqueIndex("two_factor_user_id_idx").on(t.userId)],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

/** The admin list of the spec (userEmail, userRole): a signed-in user whose confirmed email is here is staff, in that role. */
export const adminUsers = pgTable(
  "admin_users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userEmail: text("user_email").notNull(),
    userRole: text("user_role", { enum: adminRoles.values }).notNull().default("Admin"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("admin_users_email_lower_idx").on(sql`lower(${t.userEmail})`),
    check("admin_users_role_check", oneOf(t.userRole, adminRoles.values)),
  ],
);

// ── Orders and payment ───────────────────────────────────────────────────────────────────────────────────────────

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The number people read and say (domain/order-number.ts): AN-2026-00123, gap-free within each year. */
    number: text("number").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "restrict" }),
    packageId: uuid("package_id"),
    packageName: text("package_name").notNull(),
    packagePrice: numeric("package_price", { precision: 10, scale: 2, mode: "number" }).notNull(),
    packageValidity: integer("package_validity").notNull(),
    customerEmail: text("customer_email").notNull(),
    customerName: text("customer_name").notNull(),
    customerAddress: text("customer_address").notNull(),
    customerCountry: text("customer_country").notNull(),
    paymentStatus: text("payment_status", { enum: paymentStatuses.values }).notNull().default("UnPaid"),
    orderStatus: text("order_status", { enum: orderStatuses.values }).notNull().default("Pending"),
    /** The spec's locale date string (MM/DD/YYYY), shown as is; every sort uses createdAt. */
    orderDate: text("order_date").notNull(),
    /**
     * The order's window in the customer's membership timeline (domain/membership.ts), recomputed by the order commands
     * in the transaction of every change to any of the customer's orders; null when the order gives no day.
     */
    membershipStarts: timestamp("membership_starts", { withTimezone: true }),
    membershipValid: timestamp("membership_valid", { withTimezone: true }),
    /** When the order was last set Delivered (its membership starts at the later of this and paidAt). */
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** The one-time key of the form or call that placed it: the same key places one order. */
    idempotencyKey: text("idempotency_key"),
    /** PayPal's transaction id of the payment, once verified (unique: a payment pays one order once). */
    txnId: text("txn_id").unique(),
    /** The last status PayPal reported when it was not Completed (e.g. Pending), shown while we wait. */
    providerStatus: text("provider_status"),
    /** A renewal's PayPal subscription (subscriptions.subscr_id): the order a period's payment created (decision 046). */
    subscrId: text("subscr_id"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** How the payment came (domain/vocabulary.ts paymentMethods; null while unpaid): PayPal, Bank transfer, By hand, Gift. */
    paymentMethod: text("payment_method", { enum: paymentMethods.values }),
    /** The bank transfer's reference, or why the agency gave the days (a Gift), as the studio typed it. */
    paymentReference: text("payment_reference"),
    /**
     * The invoice number (domain/invoice-number.ts): INV-2026-00001, taken by the order's first payment for money in
     * that payment's transaction, gap-free within each year, and kept whatever happens after (decision 038).
     */
    invoiceNumber: text("invoice_number").unique(),
    /** When the invoice was issued: that first payment. */
    invoicedAt: timestamp("invoiced_at", { withTimezone: true }),
    /**
     * A discount code's use (decision 049): the code as typed, its row, the package's price before it and the discount;
     * packagePrice is then what the customer pays (PayPal's amount, the invoice's total, the reports' revenue).
     */
    discountCode: text("discount_code"),
    discountCodeId: uuid("discount_code_id").references((): AnyPgColumn => discountCodes.id, { onDelete: "restrict" }),
    priceBefore: numeric("price_before", { precision: 10, scale: 2, mode: "number" }),
    discountAmount: numeric("discount_amount", { precision: 10, scale: 2, mode: "number" }).notNull().default(0),
    /**
     * The code's period as it was when the order was placed (a subscription's first period only, or every period):
     * what PayPal is told and what each renewal costs (domain/subscription-price.ts); null without a code.
     */
    discountPeriod: text("discount_period", { enum: ["first", "every"] }),
    /**
     * The tax fixed when the order was placed (issue 35, decision 072), by domain/tax.ts `taxFor`: the currency it was
     * placed in (the site's then; a later change of the site's currency never changes it), the VAT in whole cents
     * within packagePrice (the gross, what PayPal is charged; the net is packagePrice less it), the rate in basis
     * points and whose it is, how the sale is taxed and the invoice's legal note, and the buyer's VAT number as checked.
     */
    currency: text("currency", { enum: CURRENCIES }).notNull().default("USD"),
    taxCents: integer("tax_cents").notNull().default(0),
    taxRate: integer("tax_rate").notNull().default(0),
    taxCountry: text("tax_country"),
    taxTreatment: text("tax_treatment", { enum: TAX_TREATMENTS }).notNull().default("not-registered"),
    taxNote: text("tax_note"),
    customerVatNumber: text("customer_vat_number"),
    /** The buyer's country as an ISO code (domain/countries.ts), when the country typed is one of the list's. */
    customerCountryCode: text("customer_country_code"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "orders_discount_check",
      sql`${t.discountAmount} >= 0 and (${t.discountCodeId} is null) = (${t.priceBefore} is null) and (${t.priceBefore} is null or ${t.priceBefore} = ${t.packagePrice} + ${t.discountAmount})`,
    ),
    check(
      "orders_discount_period_check",
      sql`(${t.discountCodeId} is null) = (${t.discountPeriod} is null) and (${t.discountPeriod} is null or ${t.discountPeriod} in ('first', 'every'))`,
    ),
    // A code's uses and a customer's use of it (counted under the code's row lock when an order is placed); a
    // subscription's renewal carrying an every-period code is no new use of it.
    index("orders_discount_code_idx")
      .on(t.discountCodeId, t.userId)
      .where(sql`${t.discountCodeId} is not null and ${t.subscrId} is null`),
    check("orders_payment_status_check", oneOf(t.paymentStatus, paymentStatuses.values)),
    check("orders_payment_method_check", oneOf(t.paymentMethod, paymentMethods.values)),
    check("orders_order_status_check", oneOf(t.orderStatus, orderStatuses.values)),
    check("orders_price_check", sql`${t.packagePrice} >= 0`),
    check("orders_currency_check", oneOf(t.currency, CURRENCIES)),
    check("orders_tax_treatment_check", oneOf(t.taxTreatment, TAX_TREATMENTS)),
    check(
      "orders_tax_check",
      sql`${t.taxCents} >= 0 and ${t.taxRate} >= 0 and ${t.taxCents} <= round(${t.packagePrice} * 100) and (${t.taxCents} = 0 or ${t.taxRate} > 0)`,
    ),
    check("orders_validity_check", sql`${t.packageValidity} >= 1`),
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    uniqueIndex("orders_idempotency_idx").on(t.userId, t.idempotencyKey),
    index("orders_created_idx").on(t.createdAt),
    index("orders_payment_status_idx").on(t.paymentStatus, t.createdAt),
    // The orders desk's filters (domain/order-filters.ts): each has an index its plan uses.
    index("orders_order_status_idx").on(t.orderStatus, t.createdAt),
    // Both statuses at once: any pair, even one no order has, is one range of this index in the list's order.
    index("orders_statuses_idx").on(t.paymentStatus, t.orderStatus, t.createdAt),
    // "To deliver": Paid orders still Pending, a short work queue counted on every back-office page.
    index("orders_to_deliver_idx")
      .on(t.createdAt)
      .where(sql`${t.paymentStatus} = 'Paid' and ${t.orderStatus} = 'Pending'`),
    // The membership reminders' scan (server/services/reminders.ts): delivered paid memberships by their end.
    index("orders_subscr_idx")
      .on(t.subscrId, t.createdAt)
      .where(sql`${t.subscrId} is not null`),
    index("orders_membership_end_idx")
      .on(t.membershipValid)
      .where(sql`${t.paymentStatus} = 'Paid' and ${t.orderStatus} = 'Delivered'`),
    // Search by customer name, email or order number anywhere in the text (trigrams; the extension is created by the
    // migration).
    index("orders_customer_search_idx").using(
      "gin",
      sql`(lower(${t.customerName} || ' ' || ${t.customerEmail} || ' ' || ${t.number})) gin_trgm_ops`,
    ),
  ],
);

/**
 * One row per customer who has orders, derived from their orders by statement-level triggers (migration 0021,
 * docs/decisions/041): the end of their membership (the latest end of a Paid and Delivered order's stored window),
 * how many paid orders wait for activation, and what they spent. The customers list filters and sorts on these
 * columns (server/services/customers.ts); nothing else writes them.
 */
export const customerTotals = pgTable(
  "customer_totals",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    membershipEnds: timestamp("membership_ends", { withTimezone: true }),
    waiting: integer("waiting").notNull().default(0),
    paidOrders: integer("paid_orders").notNull().default(0),
    spent: numeric("spent", { precision: 12, scale: 2, mode: "number" }).notNull().default(0),
    orders: integer("orders").notNull().default(0),
    lastOrderAt: timestamp("last_order_at", { withTimezone: true }),
    /** The name on the customer's latest order (domain/customers.ts customerDisplayName: after the account's own). */
    latestName: text("latest_name"),
    /**
     * Erased (decision 045; set by the erasure's transaction): the figures keep the money, and the membership columns
     * stay empty (no end, nothing waiting), so that no list, count or filter takes them for a member (decision 063).
     */
    erased: boolean("erased").notNull().default(false),
  },
  (t) => [
    index("customer_totals_ends_idx").on(t.membershipEnds, t.userId),
    index("customer_totals_spent_idx").on(t.spent, t.userId),
    index("customer_totals_waiting_idx")
      .on(t.userId)
      .where(sql`${t.waiting} > 0`),
  ],
);

/**
 * The reports' tallies (migration 0022, docs/decisions/042): per day of the site's time zone, what the reports read;
 * per month, the customers who paid in it. Kept by statement-level triggers on orders in the writer's transaction, and
 * rebuilt with the other tallies when the site's zone changes; nothing else writes them. Declared here so that the
 * schema names every table (the migration made them).
 */
export const reportDays = pgTable("report_days", {
  day: date("day").primaryKey(),
  revenue: numeric("revenue", { precision: 14, scale: 2 }).notNull().default("0"),
  paidOrders: integer("paid_orders").notNull().default(0),
  givenOrders: integer("given_orders").notNull().default(0),
  firstOrders: integer("first_orders").notNull().default(0),
  windowStarts: integer("window_starts").notNull().default(0),
  windowEnds: integer("window_ends").notNull().default(0),
  membershipsEnded: integer("memberships_ended").notNull().default(0),
  membershipsRenewed: integer("memberships_renewed").notNull().default(0),
  /** Paid orders that were a PayPal subscription's later payments (orders.subscr_id), and their money (decision 046). */
  subscriptionRenewals: integer("subscription_renewals").notNull().default(0),
  subscriptionRevenue: numeric("subscription_revenue", { precision: 14, scale: 2 }).notNull().default("0"),
  /** Paid orders that used a discount code (orders.price_before set), and what it took off (decision 049). */
  discountedOrders: integer("discounted_orders").notNull().default(0),
  discounts: numeric("discounts", { precision: 14, scale: 2 }).notNull().default("0"),
});

export const reportMonths = pgTable("report_months", {
  month: date("month").primaryKey(),
  payers: integer("payers").notNull().default(0),
});

/**
 * The tax report's tallies (issue 35 part 6, migration 0038; tallies as decision 042): per day of the site's time zone, currency,
 * country, treatment and rate, the sales invoiced (an invoice is the tax point: its date, the order's net and VAT, kept
 * after a refund and after a payment set back to UnPaid, as the invoice is) and the credit notes issued (the money
 * returned, net and VAT, on their own day). The country is the order's tax country when VAT was charged, else the
 * buyer's country code ('' when the buyer typed a country the list does not know). Kept by statement-level triggers
 * on orders and credit_notes in the writer's transaction, rebuilt with the other tallies when the site's zone changes;
 * nothing else writes it. Amounts in whole cents of the row's currency.
 */
export const taxDays = pgTable(
  "tax_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    currency: text("currency", { enum: CURRENCIES }).notNull(),
    country: text("country").notNull(),
    treatment: text("treatment", { enum: TAX_TREATMENTS }).notNull(),
    rate: integer("rate").notNull(),
    sales: integer("sales").notNull().default(0),
    netCents: bigint("net_cents", { mode: "number" }).notNull().default(0),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
    refunds: integer("refunds").notNull().default(0),
    refundedNetCents: bigint("refunded_net_cents", { mode: "number" }).notNull().default(0),
    refundedTaxCents: bigint("refunded_tax_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.currency, t.country, t.treatment, t.rate] })],
);

/** The studio's private note about a customer (never shown to them); every change is in the activity log. */
export const customerNotes = pgTable("customer_notes", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  note: text("note").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Gap-free counters (order numbers per year): the next number is taken in the transaction that uses it. */
export const numberSequences = pgTable("number_sequences", {
  scope: text("scope").primaryKey(),
  last: integer("last").notNull(),
});

/**
 * Customers whose membership timeline is to be recomputed at the next start (a migration that changes the rule fills
 * it; server/services/orders/commands.ts empties it).
 */
export const membershipRecompute = pgTable("membership_recompute", {
  userId: text("user_id").primaryKey(),
});

/** The columns of a count of orders per period and pair of statuses, beside its period column (fresh each call). */
const statusCounts = () => ({
  paymentStatus: text("payment_status").notNull(),
  orderStatus: text("order_status").notNull(),
  n: integer("n").notNull(),
});

/**
 * Maintained tallies of the orders (migration 0010; docs/decisions/026): kept right by the statement-level triggers
 * on orders, in the same transaction as every change, whoever writes (services, the payment listener, raw SQL).
 * How many orders were created each day (the site's time zone) in each pair of statuses: the exact count of a list
 * filtered by status and dates, and the day a deep page starts in (a page number costs at most a day of rows).
 */
export const orderDayCounts = pgTable(
  "order_day_counts",
  { day: date("day", { mode: "string" }).notNull(), ...statusCounts() },
  (t) => [primaryKey({ columns: [t.day, t.paymentStatus, t.orderStatus] })],
);

/**
 * The same counts per calendar month of creation (the sum of its days): a count or a deep page of a list reads a few
 * hundred month rows first, rather than every day of its history.
 */
export const orderMonthCounts = pgTable(
  "order_month_counts",
  { month: date("month", { mode: "string" }).notNull(), ...statusCounts() },
  (t) => [primaryKey({ columns: [t.month, t.paymentStatus, t.orderStatus] })],
);

/** Paid sales per calendar month of payment (coalesce(paid_at, created_at)) in the site's time zone. */
export const orderSalesMonths = pgTable("order_sales_months", {
  month: date("month", { mode: "string" }).primaryKey(),
  amount: numeric("amount", { precision: 14, scale: 2, mode: "number" }).notNull(),
  orders: integer("orders").notNull(),
});

/** The time zone the days and months were tallied in (one row); the app tallies again when its own differs. */
export const orderTallyZone = pgTable(
  "order_tally_zone",
  {
    one: boolean("one").primaryKey().default(true),
    timeZone: text("time_zone").notNull(),
  },
  (t) => [check("order_tally_zone_one", sql`${t.one}`)],
);

/** The PayPal account that receives payments (spec: paypalEmail); the first record is used. */
export const paymentAccounts = pgTable("payment_accounts", {
  id: uuid("id").primaryKey().defaultRandom(),
  paypalEmail: text("paypal_email").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each payment provider's webhook notice as received (issue 34, decision 065): a verified event is stored once per
 * provider and event id (`event_id` unique), so that two instances or a resend apply it once; a notice that failed its
 * check (unsigned, forged, malformed) keeps the id it claimed in `claimed_event_id` only, so a forgery cannot take a
 * real event's place. `outcome`: received (being applied), applied, duplicate, refused, flagged (refused and shown to
 * staff), ignored, rejected (failed its check), failed (our error: applied again when the provider resends).
 */
export const paymentNotices = pgTable(
  "payment_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    eventId: text("event_id"),
    claimedEventId: text("claimed_event_id"),
    eventType: text("event_type"),
    noticeType: text("notice_type"),
    orderId: uuid("order_id"),
    /** The provider's subscription the notice is about (subscr_id on Payments Standard, I-… on the Subscriptions API). */
    subscriptionId: text("subscription_id"),
    /** The notice as parsed when it was accepted (a verified one): what the sweep hands to its handler again. */
    notice: jsonb("notice").$type<Record<string, unknown>>(),
    /** The money the notice moves, in its currency (a payment's, a refund's), when it moves some. */
    amount: numeric("amount", { precision: 12, scale: 2, mode: "number" }),
    currency: text("currency"),
    verdict: text("verdict").notNull(),
    outcome: text("outcome").notNull(),
    reason: text("reason").notNull(),
    raw: text("raw").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    timesReceived: integer("times_received").notNull().default(1),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_notices_event_idx").on(t.provider, t.eventId),
    index("payment_notices_order_idx").on(t.orderId, t.receivedAt),
    index("payment_notices_outcome_idx").on(t.outcome, t.receivedAt),
    index("payment_notices_subscription_idx")
      .on(t.subscriptionId)
      .where(sql`${t.subscriptionId} is not null`),
  ],
);

/**
 * Each checkout made at a payment provider for an order (issue 34 part 2): what the reconciliation job looks at again
 * when the buyer approved and never came back, or nothing was heard. `status`: created, captured (its money applied or
 * refused by the money check), abandoned (never approved in time), void.
 */
export const paymentCheckouts = pgTable(
  "payment_checkouts",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    orderId: uuid("order_id").notNull(),
    requestId: text("request_id").notNull(),
    status: text("status").notNull(),
    /**
     * What the buyer approves: a one-time payment (`order`, a provider's checkout) or an automatic renewal
     * (`subscription`: the provider's subscription id; decision 070).
     */
    kind: text("kind", { enum: ["order", "subscription"] })
      .notNull()
      .default("order"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("payment_checkouts_kind_check", sql`${t.kind} in ('order', 'subscription')`),
    index("payment_checkouts_order_idx").on(t.orderId),
    index("payment_checkouts_open_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'created'`),
  ],
);

/**
 * Every refund of an order's payment at a provider (issue 34 part 3, decision 067), one row per provider refund id,
 * whichever told us first: our refund call's answer or the provider's refund webhook. Written only by
 * server/services/payments/refunds.ts (`record`). `byEmail` null: made in the provider's own dashboard.
 */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    refundId: text("refund_id").notNull(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** The provider's payment it refunds (the order's txn id). */
    paymentId: text("payment_id").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** The provider's: completed, pending, failed. Completed and pending refunds count against what is left. */
    status: text("status", { enum: ["completed", "pending", "failed"] }).notNull(),
    /** Kept for staff. */
    reason: text("reason"),
    /** Sent to the provider as the note to the payer, and in the customer's mail. */
    note: text("note"),
    byUserId: text("by_user_id"),
    byEmail: text("by_email"),
    /** Its effect on the order was applied (the order Refunded at the whole, the customer's mail queued). */
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_refunds_provider_refund_idx").on(t.provider, t.refundId),
    index("payment_refunds_order_idx").on(t.orderId, t.createdAt),
  ],
);

/**
 * Credit notes (issue 35 part 5, decision 073): `CN-2026-00001`, gap-free per year like invoices, each correcting one
 * invoiced order by the money returned: issued in the transaction that records a refund (server/services/payments/
 * refunds.ts, one per refund row), or by a payment set to Refunded by hand for what no credit note yet covers. The
 * amounts are in the order's currency, the VAT part at the order's rate; kept through erasure as invoices are. Written
 * only by server/services/credit-notes.ts.
 */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    number: text("number").notNull().unique(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** The provider's refund it records; null for a refund recorded by hand. */
    refundId: uuid("refund_id")
      .unique()
      .references(() => paymentRefunds.id, { onDelete: "restrict" }),
    currency: text("currency", { enum: CURRENCIES }).notNull(),
    /** The money returned (gross) and its VAT part; the net is the difference. */
    grossCents: integer("gross_cents").notNull(),
    taxCents: integer("tax_cents").notNull(),
    taxRate: integer("tax_rate").notNull(),
    reason: text("reason"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "credit_notes_amounts_check",
      sql`${t.grossCents} > 0 and ${t.taxCents} >= 0 and ${t.taxCents} <= ${t.grossCents}`,
    ),
    check("credit_notes_currency_check", oneOf(t.currency, CURRENCIES)),
    index("credit_notes_order_idx").on(t.orderId, t.issuedAt),
    index("credit_notes_issued_idx").on(t.issuedAt),
  ],
);

/**
 * The provider's product and billing plan for each set of terms a package renews on (issue 34 part 4, decision 070):
 * made on demand by the first subscriber and reused by every later one. Unique on the provider, the package and the
 * terms that make a plan different (period, currency, regular price, first-payment price); written only by
 * server/services/payments/plans.ts.
 */
export const paymentPlans = pgTable(
  "payment_plans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    provider: text("provider").notNull(),
    packageId: uuid("package_id").notNull(),
    intervalUnit: text("interval_unit", { enum: ["DAY", "WEEK", "MONTH", "YEAR"] }).notNull(),
    intervalCount: integer("interval_count").notNull(),
    currency: text("currency").notNull(),
    /** Each regular period's price, a decimal string ("25.00"). */
    amount: numeric("amount", { precision: 12, scale: 2 }).notNull(),
    /** A first-payment discount's price (one trial cycle); null without one. */
    firstPayment: numeric("first_payment", { precision: 12, scale: 2 }),
    productId: text("product_id").notNull(),
    planId: text("plan_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("payment_plans_terms_key")
      .on(t.provider, t.packageId, t.intervalUnit, t.intervalCount, t.currency, t.amount, t.firstPayment)
      .nullsNotDistinct(),
  ],
);

/** Notifications the built-in PayPal simulator sent: its postback answers VERIFIED for these only. */
export const simulatorMessages = pgTable("paypal_simulator_messages", {
  digest: text("digest").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * PayPal subscriptions (decision 046): one row per PayPal subscr_id, tied to the order that started it; written only by
 * server/services/subscriptions.ts. Each period's payment is an order of its own (orders.subscr_id).
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscrId: text("subscr_id").notNull().unique(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "restrict" }),
    /** active: renews each period; cancelled: no more renewals, the time paid for remains; ended: PayPal's end of term. */
    status: text("status", { enum: ["active", "cancelled", "ended"] })
      .notNull()
      .default("active"),
    signedUpAt: timestamp("signed_up_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Who cancelled: PayPal, or the staff member who marked it (a customer who called). */
    cancelledBy: text("cancelled_by"),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    lastFailedAt: timestamp("last_failed_at", { withTimezone: true }),
    /**
     * The rail it was made on (decision 070): `standard`, PayPal Payments Standard's Subscribe button (every subscription
     * made before the Subscriptions API; PayPal's REST API cannot reach them), or `api`, the Subscriptions API (cancelled
     * at PayPal through the provider).
     */
    rail: text("rail", { enum: ["standard", "api"] })
      .notNull()
      .default("standard"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("subscriptions_status_check", sql`${t.status} in ('active', 'cancelled', 'ended')`),
    check("subscriptions_rail_check", sql`${t.rail} in ('standard', 'api')`),
    index("subscriptions_user_idx").on(t.userId, t.createdAt),
    index("subscriptions_order_idx").on(t.orderId),
  ],
);

/** Subscriptions the built-in PayPal simulator signed up: its page offers their next payment, cancel, failure, end. */
export const simulatorSubscriptions = pgTable("paypal_simulator_subscriptions", {
  subscrId: text("subscr_id").primaryKey(),
  orderId: uuid("order_id").notNull(),
  /** The subscribe form as it was posted (amount, business, notify_url …). */
  fields: jsonb("fields").$type<Record<string, string>>().notNull(),
  status: text("status").notNull().default("active"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The simulator's stand-in for PayPal's REST API (issue 34, part 6): what PayPal would hold (OAuth tokens, orders,
 * captures, refunds, catalogue products, billing plans, subscriptions, webhooks, its signing key), one row per object
 * in PayPal's own JSON shape. Written only by server/services/payments/paypal/simulator.
 */
export const simulatorRestObjects = pgTable(
  "paypal_simulator_rest_objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    /** The object it belongs to: a capture's order, a refund's capture, a subscription's plan. */
    parentId: text("parent_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("paypal_simulator_rest_objects_kind_idx").on(t.kind, t.createdAt),
    index("paypal_simulator_rest_objects_parent_idx").on(t.parentId),
  ],
);

/** The simulator's answers to calls with a PayPal-Request-Id: the same id gets the same answer, the call runs once. */
export const simulatorRestRequests = pgTable("paypal_simulator_rest_requests", {
  key: text("key").primaryKey(),
  status: integer("status").notNull(),
  body: jsonb("body"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Each webhook transmission the simulator made (or holds, to send late): its verify-webhook-signature answers
 * SUCCESS only for one of these, to its webhook id, with the event unchanged.
 */
export const simulatorWebhookTransmissions = pgTable(
  "paypal_simulator_webhook_transmissions",
  {
    id: text("id").primaryKey(),
    /** The order transmissions were made in (several in one transaction share their created_at). */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    webhookId: text("webhook_id").notNull(),
    eventId: text("event_id").notNull(),
    /** The body exactly as sent. */
    body: text("body").notNull(),
    transmissionTime: text("transmission_time").notNull(),
    signature: text("signature").notNull(),
    /** The HTTP status our endpoint answered; null while held back (a late webhook) or not yet answered. */
    answeredStatus: integer("answered_status"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("paypal_simulator_webhook_transmissions_event_idx").on(t.eventId)],
);

// ── Back office ──────────────────────────────────────────────────────────────────────────────────────────────────

/** Every admin change: who, when, what record, which fields before and after (written in the change's transaction). */
export const activityLog = pgTable(
  "activity_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email").notNull(),
    action: text("action", { enum: activityActions.values }).notNull(),
    entity: text("entity").notNull(),
    recordId: text("record_id").notNull(),
    changes: jsonb("changes").$type<Record<string, { before: unknown; after: unknown }>>().notNull(),
  },
  (t) => [
    check("activity_log_action_check", oneOf(t.action, activityActions.values)),
    index("activity_log_created_idx").on(t.createdAt),
    index("activity_log_record_idx").on(t.entity, t.recordId),
    // The log's filters: by person, by kind of record (entity), newest first.
    index("activity_log_actor_created_idx").on(t.actorEmail, t.createdAt),
    index("activity_log_entity_created_idx").on(t.entity, t.createdAt),
  ],
);

/** Back-office settings, one row per key (see server/services/settings.ts for the keys, defaults and schemas). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// ── Catalogue ────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Catalogue items (the spec's "database"): each points at one of the five template categories, and a category
 * belongs to one item at most (the unique constraint settles two admins saving at once).
 */
export const catalogueItems = pgTable(
  "catalogue_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    itemName: text("item_name").notNull(),
    itemsDescription: text("items_description").notNull(),
    /** The category key (the template file's name without .json), e.g. "web-design". */
    itemDatabaseUrl: text("item_database_url", { enum: categories.values }).notNull(),
    itemsGuideline: text("items_guideline").notNull(),
    /** The slug of the name, computed on save. */
    itemUrl: text("item_url").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("catalogue_items_category_unique").on(t.itemDatabaseUrl),
    check("catalogue_items_category_check", oneOf(t.itemDatabaseUrl, categories.values)),
    index("catalogue_items_created_idx").on(t.createdAt),
  ],
);

/** The simple items of /add-item (format, Canva link, image link, category, Paid or Free). */
export const simpleItems = pgTable(
  "simple_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    format: text("format", { enum: itemFormats.values }).notNull(),
    canvaLink: text("canva_link").notNull(),
    imageLink: text("image_link").notNull(),
    category: text("category").notNull(),
    freeOrPaid: text("free_or_paid", { enum: accessTypes.values }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("simple_items_format_check", oneOf(t.format, itemFormats.values)),
    check("simple_items_free_or_paid_check", oneOf(t.freeOrPaid, accessTypes.values)),
    index("simple_items_created_idx").on(t.createdAt),
  ],
);

// ── Media library (issue 11, docs/decisions/017) ─────────────────────────────────────────────────────────────────

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * An image of the library: what was uploaded (its name, type, size and the first 24 hex digits of its SHA-256, which
 * names its files), its size after orientation, its alt text and a placeholder colour. The original bytes are not
 * kept (they may carry camera metadata); its variants are.
 */
export const media = pgTable(
  "media",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    key: text("key").notNull(),
    fileName: text("file_name").notNull(),
    /** The uploaded file's real type, read from its bytes. */
    sourceFormat: text("source_format", { enum: sourceFormats }).notNull(),
    sourceBytes: integer("source_bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    /** The average colour (#rrggbb), painted while the image loads. */
    color: text("color").notNull(),
    alt: text("alt").notNull().default(""),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("media_key_idx").on(t.key),
    check("media_source_format_check", oneOf(t.sourceFormat, sourceFormats)),
    check("media_size_check", sql`${t.width} > 0 and ${t.height} > 0`),
    // The library lists newest first, paged in SQL.
    index("media_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Where a file's bytes are (decision 081): in the row (`data`) or in an S3 bucket (`s3_bucket`, `s3_key`), never
 * both, never neither. Each file says it for itself, so a move between the two is resumable and a library half moved
 * still serves every file.
 */
const fileStorageColumns = () => ({
  storage: text("storage", { enum: mediaStorages }).notNull().default("database"),
  /** The SHA-256 of the file's bytes (hex): checked before a move clears the copy it came from. */
  sha256: text("sha256").notNull(),
  data: bytea("data"),
  s3Bucket: text("s3_bucket"),
  s3Key: text("s3_key"),
});
const fileStorageCheck = (
  name: string,
  t: { storage: AnyPgColumn; data: AnyPgColumn; s3Bucket: AnyPgColumn; s3Key: AnyPgColumn },
) =>
  check(
    name,
    sql`(${t.storage} = 'database' and ${t.data} is not null and ${t.s3Bucket} is null and ${t.s3Key} is null)
     or (${t.storage} = 's3' and ${t.data} is null and ${t.s3Bucket} is not null and ${t.s3Key} is not null)`,
  );

/** The files served for an image: one per width and format (WebP and AVIF; an SVG is its own single file). */
export const mediaVariants = pgTable(
  "media_variants",
  {
    mediaId: uuid("media_id")
      .notNull()
      .references(() => media.id, { onDelete: "cascade" }),
    format: text("format", { enum: variantFormats }).notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    size: integer("size").notNull(),
    ...fileStorageColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.mediaId, t.format, t.width] }),
    check("media_variants_format_check", oneOf(t.format, variantFormats)),
    fileStorageCheck("media_variants_storage_check", t),
    // The move command's "what is left to move", and a purge's "does another row still use this object".
    index("media_variants_storage_idx").on(t.storage, t.mediaId),
    index("media_variants_s3_key_idx").on(t.s3Key),
  ],
);

// ── Trash (decision 039) ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * What was deleted from the site content, the catalogue or the media library, kept 30 days to be restored: the whole
 * row as its own table stored it (`row`), taken out of that table, so that no page, cache or query of it ever sees
 * it. One entry per record (a restored record leaves the trash). Written only by server/services/trash.ts.
 */
export const trash = pgTable(
  "trash",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** content, items or media (domain/trash.ts): the staff area that opens it. */
    kind: text("kind", { enum: TRASH_KINDS }).notNull(),
    /** The activity log's entity of the record ("content:testimonial", "catalogue_item", "media"). */
    entity: text("entity").notNull(),
    recordId: uuid("record_id").notNull(),
    /** What people called it when it was deleted. */
    title: text("title").notNull(),
    row: jsonb("row").$type<Record<string, unknown>>().notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull(),
    deletedBy: text("deleted_by").notNull(),
  },
  (t) => [
    check("trash_kind_check", oneOf(t.kind, TRASH_KINDS)),
    uniqueIndex("trash_record_idx").on(t.recordId),
    // The trash screen (one kind or several, newest first) and the clean-up (the oldest first).
    index("trash_kind_deleted_idx").on(t.kind, t.deletedAt),
    index("trash_deleted_idx").on(t.deletedAt),
  ],
);

/** A trashed image's files (its media_variants rows), gone with its trash entry. */
export const trashFiles = pgTable(
  "trash_files",
  {
    trashId: uuid("trash_id")
      .notNull()
      .references(() => trash.id, { onDelete: "cascade" }),
    format: text("format").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    size: integer("size").notNull(),
    ...fileStorageColumns(),
  },
  (t) => [
    primaryKey({ columns: [t.trashId, t.format, t.width] }),
    fileStorageCheck("trash_files_storage_check", t),
    index("trash_files_s3_key_idx").on(t.s3Key),
  ],
);

// ── Mail ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/** The admin's switch per mail kind (server/mail/kinds.ts); a kind without a row is on. */
export const mailSettings = pgTable("mail_settings", {
  kind: text("kind").primaryKey(),
  enabled: boolean("enabled").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The membership reminders already queued: one row per customer, kind and membership end, so that a reminder is
 * queued once per end, and a renewal (a later end) is a new end.
 */
export const membershipReminders = pgTable(
  "membership_reminders",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.endsAt] })],
);

/**
 * Every job key ever queued (services/jobs.ts): written in the caller's transaction with the job itself, so a key
 * is sent at most once, ever (pg-boss's own keys only dedupe while a job is waiting).
 */
export const jobKeys = pgTable("job_keys", {
  key: text("key").primaryKey(),
  queue: text("queue").notNull(),
  queuedAt: timestamp("queued_at", { withTimezone: true }).notNull(),
});

/**
 * Secrets the app made itself and every host on this database shares (server/db/secrets.ts): the auth secret when
 * AUTH_SECRET is not set. Written once, never updated; a backup carries them (decision 035).
 */
export const appSecrets = pgTable("app_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A person's acceptance of the terms or the privacy notice (decision 037): which version (when the document's record
 * was last changed) and when. Kept with the account and gone with it.
 */
export const consents = pgTable(
  "consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    document: text("document", { enum: CONSENT_DOCUMENTS }).notNull(),
    version: text("version").notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("consents_user_idx").on(t.userId, t.document, t.acceptedAt),
    check("consents_document_check", oneOf(t.document, CONSENT_DOCUMENTS)),
  ],
);

/**
 * Discount codes (decision 049), made in the back office and typed on the order page. A use is an order placed with
 * the code and not cancelled; placing takes the code's row lock, so two customers racing for the last use: one wins.
 */
export const discountCodes = pgTable(
  "discount_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Upper-case, as compared (domain/discounts.ts normaliseCode). */
    code: text("code").notNull().unique(),
    kind: text("kind", { enum: ["percent", "amount"] }).notNull(),
    value: numeric("value", { precision: 10, scale: 2, mode: "number" }).notNull(),
    /** First and last day of use in the site's zone, inclusive; null: no limit. */
    validFrom: date("valid_from", { mode: "string" }),
    validTo: date("valid_to", { mode: "string" }),
    maxUses: integer("max_uses"),
    oncePerCustomer: boolean("once_per_customer").notNull().default(false),
    /** The packages (pricing records) it is for; empty: every package. */
    packageIds: uuid("package_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** For a subscription: the first period only, or every period. */
    period: text("period", { enum: ["first", "every"] })
      .notNull()
      .default("first"),
    note: text("note").notNull().default(""),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("discount_codes_kind_check", sql`${t.kind} in ('percent', 'amount')`),
    check("discount_codes_period_check", sql`${t.period} in ('first', 'every')`),
    check("discount_codes_value_check", sql`${t.value} > 0 and (${t.kind} = 'amount' or ${t.value} <= 100)`),
    check("discount_codes_uses_check", sql`${t.maxUses} is null or ${t.maxUses} >= 1`),
    check(
      "discount_codes_dates_check",
      sql`${t.validFrom} is null or ${t.validTo} is null or ${t.validTo} >= ${t.validFrom}`,
    ),
    // The back office's list, newest first, paged in SQL.
    index("discount_codes_created_idx").on(t.createdAt, t.id),
  ],
);

// ── Articles (issue 36) ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * The blog's articles. `body_html` is the body as the server cleaned it (never as the browser sent it), the
 * members-only marker included (domain/articles.ts); what a viewer receives of it is domain/article-access.ts's.
 * Images (cover, share image) are library addresses (/media/…), as the sections keep them. Written only by server/services/articles.ts.
 */
export const articles = pgTable(
  "articles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    excerpt: text("excerpt").notNull().default(""),
    coverImage: text("cover_image").notNull().default(""),
    bodyHtml: text("body_html").notNull().default(""),
    access: text("access", { enum: ARTICLE_ACCESS }).notNull().default("public"),
    /** As typed (first spelling of each); their slugs in `tag_slugs`, what /blog/tag/{slug} filters on. */
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tagSlugs: text("tag_slugs")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    authorId: text("author_id").references(() => user.id, { onDelete: "set null" }),
    /** The name printed under the title (kept as written, so a deleted staff account leaves the byline). */
    authorName: text("author_name").notNull().default(""),
    /** The search listing: title, description and share image, as the pages' own (domain/page-seo.ts). */
    seoTitle: text("seo_title").notNull().default(""),
    seoDescription: text("seo_description").notNull().default(""),
    seoImage: text("seo_image").notNull().default(""),
    state: text("state", { enum: ARTICLE_STATES }).notNull().default("draft"),
    /** When a scheduled article goes out; when a published one went out (its date on the site and in the feed). */
    publishAt: timestamp("publish_at", { withTimezone: true }),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    /** The number of the last saved version (article_versions). */
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("articles_slug_idx").on(t.slug),
    check("articles_state_check", oneOf(t.state, ARTICLE_STATES)),
    check("articles_access_check", oneOf(t.access, ARTICLE_ACCESS)),
    check("articles_scheduled_check", sql`${t.state} <> 'scheduled' or ${t.publishAt} is not null`),
    check("articles_published_check", sql`${t.state} <> 'published' or ${t.publishedAt} is not null`),
    // The blog: published articles, newest first, paged in SQL; by tag through the GIN index.
    index("articles_published_idx")
      .on(t.publishedAt.desc(), t.id.desc())
      .where(sql`${t.state} = 'published'`),
    index("articles_tag_slugs_idx").using("gin", t.tagSlugs),
    // The back office's list, last changed first.
    index("articles_updated_idx").on(t.updatedAt.desc(), t.id.desc()),
    // The publishing job: scheduled articles whose time has come.
    index("articles_due_idx")
      .on(t.publishAt)
      .where(sql`${t.state} = 'scheduled'`),
  ],
);

/** Every save of an article, whole (its editable fields), numbered from 1: the history a version is restored from. */
export const articleVersions = pgTable(
  "article_versions",
  {
    articleId: uuid("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
    savedBy: text("saved_by").notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.version] })],
);

/** An article's earlier slugs: /blog/{old} answers 301 to its address now. A slug is an article's or an old one, never both. */
export const articleSlugs = pgTable("article_slugs", {
  slug: text("slug").primaryKey(),
  articleId: uuid("article_id")
    .notNull()
    .references(() => articles.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

// ── Newsletters (issue 36, part 4) ───────────────────────────────────────────────────────────────────────────────

/**
 * A newsletter: an article's (its body read when the mail is drawn) or a standalone body (cleaned by the server), to
 * an audience. Written only by server/services/newsletters.ts; `state` moves draft → scheduled/sending → sent or
 * partly sent by conditional updates, so a send starts once however many clicks ask for it.
 */
export const newsletters = pgTable(
  "newsletters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subject: text("subject").notNull(),
    previewText: text("preview_text").notNull().default(""),
    articleId: uuid("article_id").references(() => articles.id, { onDelete: "set null" }),
    /** A standalone message's body, cleaned (server/lib/clean-html.ts); empty for an article's newsletter. */
    bodyHtml: text("body_html").notNull().default(""),
    audience: text("audience", { enum: NEWSLETTER_AUDIENCES }).array().notNull(),
    state: text("state", { enum: NEWSLETTER_STATES }).notNull().default("draft"),
    sendAt: timestamp("send_at", { withTimezone: true }),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("newsletters_state_check", oneOf(t.state, NEWSLETTER_STATES)),
    check("newsletters_scheduled_check", sql`${t.state} <> 'scheduled' or ${t.sendAt} is not null`),
    index("newsletters_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("newsletters_due_idx")
      .on(t.sendAt)
      .where(sql`${t.state} = 'scheduled'`),
  ],
);

/**
 * One row per address a newsletter goes to (lower-cased: the key makes an address appear once), written by the
 * audience's expansion (one INSERT … SELECT per source) and moved queued → sending → sent one mail at a time by the
 * sending job, so that a crash neither skips nor repeats anyone (docs/operations/mail.md, Newsletters).
 */
export const newsletterRecipients = pgTable(
  "newsletter_recipients",
  {
    newsletterId: uuid("newsletter_id")
      .notNull()
      .references(() => newsletters.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    /** Stable per row: the unsubscribe link of a recipient who is no subscriber, and its Message-ID. */
    id: uuid("id").notNull().defaultRandom(),
    /** An active member when the audience was expanded: their mail has the members-only part. */
    member: boolean("member").notNull().default(false),
    /** The subscriber row of this address, if any: their own unsubscribe link (decision 024). */
    subscriberId: uuid("subscriber_id"),
    status: text("status", { enum: RECIPIENT_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** The attempt handing it to SMTP now (status sending). */
    attemptId: uuid("attempt_id"),
    error: text("error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.newsletterId, t.address] }),
    check("newsletter_recipients_address_check", sql`${t.address} = lower(${t.address})`),
    check("newsletter_recipients_status_check", oneOf(t.status, RECIPIENT_STATUSES)),
    uniqueIndex("newsletter_recipients_id_idx").on(t.id),
    // The sending job's next batch and the screen's counts.
    index("newsletter_recipients_status_idx").on(t.newsletterId, t.status),
  ],
);

/**
 * Addresses never mailed a newsletter again: hard bounces and complaints (the mail provider's webhook), unsubscribes,
 * and the studio's own entries. Lower-cased; written only by server/services/suppressions.ts.
 */
export const suppressions = pgTable(
  "suppressions",
  {
    address: text("address").primaryKey(),
    reason: text("reason", { enum: SUPPRESSION_REASONS }).notNull(),
    /** Where it came from: postmark, ses, a newsletter's link, or the staff member's address. */
    source: text("source").notNull().default(""),
    note: text("note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("suppressions_address_check", sql`${t.address} = lower(${t.address})`),
    check("suppressions_reason_check", oneOf(t.reason, SUPPRESSION_REASONS)),
    index("suppressions_created_idx").on(t.createdAt.desc(), t.address),
  ],
);

/**
 * API keys (issue 37, decision 077): one row per key an Admin made for an integration. Only the SHA-256 of the whole
 * key is kept (the key is 256 random bits: no slow hash needed); `public_id` finds the row and tells keys apart in
 * lists. Written only by server/services/api-keys.ts.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The 12 hex characters after `atl_`: shown in lists, and the lookup of every keyed request. */
    publicId: text("public_id").notNull(),
    /** The SHA-256 of the whole key, hex. */
    secretHash: text("secret_hash").notNull(),
    /** The integration it is for ("Bookkeeping", "Zapier"). */
    name: text("name").notNull(),
    /** The staff areas it may use (domain/capabilities.ts), in that list's order. */
    areas: text("areas").array().notNull(),
    access: text("access", { enum: KEY_ACCESS }).notNull(),
    createdById: text("created_by_id"),
    createdByEmail: text("created_by_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Moved on at most once a minute per key (not a write per request). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedByEmail: text("revoked_by_email"),
  },
  (t) => [
    uniqueIndex("api_keys_public_id_idx").on(t.publicId),
    check("api_keys_access_check", oneOf(t.access, KEY_ACCESS)),
    check(
      "api_keys_areas_check",
      sql`${t.areas} <@ array[${sql.raw(STAFF_AREAS.map((a) => `'${a}'`).join(", "))}]::text[] and cardinality(${t.areas}) > 0`,
    ),
    check("api_keys_public_id_check", sql`${t.publicId} ~ '^[0-9a-f]{12}$'`),
    index("api_keys_created_idx").on(t.createdAt.desc()),
  ],
);
// ── Outgoing webhooks (issue 37, part 2) ─────────────────────────────────────────────────────────────────────────────

/**
 * An address that receives signed events (docs/decisions/078). Written only by server/services/webhooks.ts. `secret`
 * is the Standard Webhooks signing secret (`whsec_` and base64), made by the server and shown to the Admin; `state`
 * active, paused (by an Admin, or after failing for days) or disabled (the receiver answered 410 Gone);
 * `failingSince` is when a delivery first failed for good since the last one delivered (Today shows it).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** The events it receives, or ["all"]. */
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    state: text("state", { enum: ENDPOINT_STATES }).notNull().default("active"),
    /** Why it is paused or disabled, in words; empty while active. */
    stateReason: text("state_reason").notNull().default(""),
    /** The Admin who added it (mailed when it is paused); null once their account is gone. */
    createdBy: text("created_by").references(() => user.id, { onDelete: "set null" }),
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("webhook_endpoints_state_check", oneOf(t.state, ENDPOINT_STATES)),
    index("webhook_endpoints_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The outbox: one row per event and endpoint, inserted in the transaction of the change that caused the event (so a
 * change rolled back sends nothing) and moved pending → succeeded, or failing (retried on the schedule) → failed, by
 * the delivery job. `eventId` is the Standard Webhooks message id, the same on every attempt; `lockedUntil` is a
 * worker's lease on a row it is sending.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    state: text("state", { enum: DELIVERY_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    check("webhook_deliveries_state_check", oneOf(t.state, DELIVERY_STATES)),
    check("webhook_deliveries_error_check", sql`char_length(${t.lastError}) <= 1000`),
    unique("webhook_deliveries_event_unique").on(t.endpointId, t.eventId),
    // The delivery job's next rows: those waiting, by when they are due.
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.state} in ('pending', 'failing')`),
    // An endpoint's deliveries, newest first (its screen's pages).
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The membership periods whose end was announced (membership.ended): one row per customer and end, so an end is sent
 * once however often the job looks. Written only by server/services/webhooks.ts.
 */
export const webhookMembershipEnds = pgTable(
  "webhook_membership_ends",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    notedAt: timestamp("noted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.endsAt] })],
);

/**
 * Member imports from a CSV file (issue 37 part 3, decision 079): the uploaded file (stored under DATA_DIR/imports,
 * never in the database), its header and mapping, its state, and the cursor the background job has reached (the last
 * row done, committed with each batch). Written only by server/services/imports.ts.
 */
export const imports = pgTable(
  "imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    fileName: text("file_name").notNull(),
    /** The file's bytes, for the screen. */
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    headers: jsonb("headers").$type<string[]>().notNull(),
    preset: text("preset", { enum: IMPORT_PRESETS }).notNull(),
    mapping: jsonb("mapping").$type<ImportMapping>().notNull(),
    /** Unconfirmed subscribers of the file get the double opt-in mail (the staff member ticked it). */
    sendOptIn: boolean("send_opt_in").notNull().default(false),
    state: text("state", { enum: IMPORT_STATES }).notNull().default("uploaded"),
    /** The file's data rows (known once checked). */
    rowsTotal: integer("rows_total").notNull().default(0),
    /** The last row imported (rows are numbered from 1, the line after the header). */
    cursor: integer("cursor").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    refused: integer("refused").notNull().default(0),
    /** Why the file could not be read (not UTF-8, a broken quote), or why the import stopped. */
    error: text("error"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("imports_state_check", oneOf(t.state, IMPORT_STATES)),
    check("imports_preset_check", oneOf(t.preset, IMPORT_PRESETS)),
    index("imports_created_idx").on(t.createdAt.desc(), t.id),
  ],
);

/**
 * The dry run's verdict on each row of an import, and the row as read: the background job imports these (from its
 * cursor), never the file again. Written only by server/services/imports.ts.
 */
export const importRows = pgTable(
  "import_rows",
  {
    importId: uuid("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    rowNumber: integer("row_number").notNull(),
    /** Lower-cased; null when the row had none that could be read. */
    email: text("email"),
    action: text("action", { enum: ROW_ACTIONS }).notNull(),
    reason: text("reason"),
    data: jsonb("data").$type<ImportRow>(),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.rowNumber] }),
    check("import_rows_action_check", oneOf(t.action, ROW_ACTIONS)),
    // Duplicates within a file, and the screen's list of one action.
    index("import_rows_email_idx").on(t.importId, t.email, t.rowNumber),
    index("import_rows_action_idx").on(t.importId, t.action, t.rowNumber),
  ],
);

/**
 * Restore tests of backups (docs/decisions/082): one row per test asked for on the Backups screen, run by a background
 * job that restores the archive (from this server's folder or from the bucket) into a scratch database and records
 * each table's rows and checksum. Written only by server/services/backups.ts.
 */
export const backupDrills = pgTable(
  "backup_drills",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The archive's file name (atelier-backup-….tar), the same on the server and in the bucket. */
    backupName: text("backup_name").notNull(),
    place: text("place", { enum: BACKUP_PLACES }).notNull(),
    state: text("state", { enum: DRILL_STATES }).notNull().default("waiting"),
    /** The staff member who asked for it (their email, kept as it was). */
    requestedBy: text("requested_by").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** A passed test's findings: each table's rows (manifest and restored) and checksum, the archive's checksum. */
    report: jsonb("report").$type<DrillRecord>(),
    /** Why a failed test failed, in words. */
    error: text("error"),
  },
  (t) => [
    check("backup_drills_place_check", oneOf(t.place, BACKUP_PLACES)),
    check("backup_drills_state_check", oneOf(t.state, DRILL_STATES)),
    index("backup_drills_requested_idx").on(t.requestedAt.desc(), t.id),
  ],
);
