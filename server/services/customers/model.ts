import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { PgDialect, type SelectedFields } from "drizzle-orm/pg-core";
import type pg from "pg";
import {
  customerDisplayName,
  customerState,
  endingSoon,
  ENDING_SOON_DAYS,
  shownEmail,
  type CustomerFilters,
  type CustomerState,
} from "#domain/customers.ts";
import { type Membership } from "#domain/membership.ts";
import { normalInvoiceNumber } from "#domain/invoice-number.ts";
import { normalOrderNumber } from "#domain/order-number.ts";
import { ERASED_NO_SALE } from "#domain/sale-choices.ts";
import { type JobStatus, type PaymentMethod } from "#domain/vocabulary.ts";
import type { Db } from "#server/db/client.ts";
import { adminUsers, customerTotals, orders, user } from "#server/db/schema.ts";
import { AppError, isId, notFound } from "#server/lib/errors.ts";
import { type DescribedEntry } from "../activity";
import type { MailsService } from "../mails";
import type { OrdersService } from "../orders";
import type { WebhookEmitter } from "../webhooks";

/** The most customers a list counts (the count is bounded: pages past it are out of reach, a search narrows). */
export const CUSTOMERS_COUNT_LIMIT = 10_000;
/** The most order matches a partial order number looks through for its customers. */
export const NUMBER_MATCHES = 1_000;
/** Days given to an erased customer would go to no one (decision 063). */
export { ERASED_NO_SALE };

/** The buyer's details of an order (the order form's fields), which a sale made by hand starts from. */
export const BUYER_FIELDS = ["customerName", "customerAddress", "customerCountry", "customerVatNumber"] as const;
export type BuyerField = (typeof BUYER_FIELDS)[number];
export const ERASED_NO_GRANT = "This customer's data has been erased: there is nobody to give days to.";
/** How many of the customer's mails and log entries the record shows (newest first). */
export const RECORD_RECENT = 20;

export const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A row of the customers list. */
export interface CustomerRow {
  id: string;
  /** The display name (domain/customers.ts customerDisplayName); "" when there is none. */
  name: string;
  /** Null for an erased customer (their placeholder is no address). */
  email: string | null;
  joinedAt: string;
  state: CustomerState;
  endingSoon: boolean;
  membershipEnds: string | null;
  orders: number;
  spent: number;
  lastOrderAt: string | null;
}

/** One order on the customer's record. */
export interface CustomerOrder {
  id: string;
  number: string;
  packageName: string;
  packagePrice: number;
  packageValidity: number;
  paymentStatus: string;
  orderStatus: string;
  paymentMethod: PaymentMethod | null;
  paymentReference: string | null;
  invoiceNumber: string | null;
  createdAt: string;
  paidAt: string | null;
  membershipStarts: string | null;
  membershipValid: string | null;
}

/** A mail the site queued for the customer (the job log). */
export interface CustomerMail {
  id: string;
  subject: string;
  status: JobStatus | "Sent";
  queuedAt: string;
  sentAt: string | null;
  error: string | null;
}

export interface CustomerRecord {
  id: string;
  /** The display name (domain/customers.ts customerDisplayName); "" when there is none. */
  name: string;
  /** Null for an erased customer. */
  email: string | null;
  emailVerified: boolean;
  joinedAt: string;
  sessions: number;
  membership: Membership;
  state: CustomerState;
  endingSoon: boolean;
  totalSpent: number;
  /** The membership windows, oldest first (domain/membership.ts membershipTimeline over every order). */
  timeline: { orderId: string; number: string; packageName: string; starts: string; ends: string; days: number }[];
  orders: CustomerOrder[];
  mails: CustomerMail[];
  activity: DescribedEntry[];
  note: string;
  noteUpdatedAt: string | null;
}

export interface CustomersDeps {
  db: Db;
  pool: pg.Pool;
  orders: Pick<OrdersService, "grant" | "payOutside" | "sell">;
  mails: Pick<MailsService, "queue">;
  now: () => Date;
  timeZone: string;
  /** customer.created for the accounts a member import makes (docs/decisions/078), in their transaction. */
  webhooks?: Pick<WebhookEmitter, "emitManyTx">;
}

export const dialect = new PgDialect();
export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Staff (a confirmed address on the admin list) are no customers (accounts.ts viewerOf decides staff alike). */
export const notStaff = sql`not (${user.emailVerified} and exists (
  select 1 from ${adminUsers} where lower(${adminUsers.userEmail}) = lower(${user.email})))`;

/** The accounts that are staff (notStaff's other side), few: a hashed list the figures' count leaves out. */
/**
 * The display name in SQL, for the name sort: the SQL twin of domain/customers.ts customerDisplayName over the same
 * columns (an erased person's account name is empty and their orders say "Erased customer", so both agree on them).
 */
export const displayNameSql = sql`coalesce(nullif(trim(${user.name}), ''), ${customerTotals.latestName}, '')`;

export const staffIds = sql`select ${user.id} from ${user} join ${adminUsers} on lower(${adminUsers.userEmail}) = lower(${user.email})
  where ${user.emailVerified}`;

/** The condition of a membership state, on the figures (customer_totals) alone; undefined for all customers. */
export function stateOf(filters: CustomerFilters, at: Date): SQL | undefined {
  const t = sql`${at.toISOString()}::timestamptz`;
  const ends = customerTotals.membershipEnds;
  switch (filters.state) {
    case "active":
      return sql`${ends} > ${t}`;
    case "ending-soon":
      return sql`${ends} > ${t} and ${ends} <= ${t} + make_interval(days => ${ENDING_SOON_DAYS})`;
    case "waiting":
      return sql`${customerTotals.waiting} > 0 and (${ends} is null or ${ends} <= ${t})`;
    case "expired":
      return sql`${customerTotals.waiting} = 0 and ${ends} <= ${t}`;
    case "never-paid":
      return sql`(${customerTotals.userId} is null or (${ends} is null and ${customerTotals.waiting} = 0
        and not ${customerTotals.erased}))`;
    default:
      return undefined;
  }
}

/** The conditions of a list: search, state, and never staff. */
export function whereOf(filters: CustomerFilters, at: Date): SQL {
  const where: SQL[] = [notStaff];
  const typed = filters.q?.trim();
  if (typed) {
    const q = typed.toLowerCase();
    // One list of matching ids, each part read by its own index, then the accounts by their key: a name or email on
    // the account (user_search_idx); a name, email or order number on any of their orders, the first NUMBER_MATCHES
    // (the orders' trigram index, orders_customer_search_idx); an order's whole number, id or invoice number (their
    // unique indexes). No condition is tested account by account.
    const like = `%${likeEscaped(q)}%`;
    const parts: SQL[] = [
      sql`select ${user.id} from ${user} where lower(${user.name} || ' ' || ${user.email}) like ${like}`,
      sql`(select ${orders.userId} from ${orders}
        where lower(${orders.customerName} || ' ' || ${orders.customerEmail} || ' ' || ${orders.number}) like ${like}
        limit ${NUMBER_MATCHES})`,
    ];
    const number = normalOrderNumber(typed);
    if (number) parts.push(sql`select ${orders.userId} from ${orders} where ${orders.number} = ${number}`);
    const invoice = normalInvoiceNumber(typed);
    if (invoice) parts.push(sql`select ${orders.userId} from ${orders} where ${orders.invoiceNumber} = ${invoice}`);
    if (isId(q)) parts.push(sql`select ${orders.userId} from ${orders} where ${orders.id} = ${q}`);
    where.push(sql`${user.id} in (${sql.join(parts, sql` union `)})`);
  }
  const state = stateOf(filters, at);
  if (state) where.push(state);
  return and(...where)!;
}

/**
 * Each sort ends with the id, so pages never overlap. A state that only customers with figures have (everything but
 * all and never paid) sorts by the figures' own columns, so that PostgreSQL walks their index (customer_totals_spent_idx,
 * customer_totals_ends_idx) and stops at the page, instead of sorting every matching customer: with the million
 * orders nearly every customer is active, and that sort was a quarter of a second a page.
 */
export function orderOf(filters: CustomerFilters): SQL[] {
  const withFigures = filters.state !== undefined && filters.state !== "never-paid";
  switch (filters.sort) {
    case "name":
      return [sql`lower(${displayNameSql}) asc`, sql`${user.email} asc`, asc(user.id)];
    case "membership-end":
      return withFigures && filters.state !== "waiting"
        ? [desc(customerTotals.membershipEnds), desc(customerTotals.userId)]
        : [sql`${customerTotals.membershipEnds} desc nulls last`, desc(user.id)];
    case "spent":
      return withFigures
        ? [desc(customerTotals.spent), desc(customerTotals.userId)]
        : [sql`coalesce(${customerTotals.spent}, 0) desc`, desc(user.id)];
    case "joined":
      return [desc(user.createdAt), desc(user.id)];
  }
}

export const columns = {
  id: user.id,
  name: user.name,
  email: user.email,
  createdAt: user.createdAt,
  membershipEnds: customerTotals.membershipEnds,
  waiting: customerTotals.waiting,
  orders: customerTotals.orders,
  spent: customerTotals.spent,
  lastOrderAt: customerTotals.lastOrderAt,
  latestName: customerTotals.latestName,
  erased: customerTotals.erased,
};

export const rowOf = (
  r: {
    id: string;
    name: string;
    email: string;
    createdAt: Date;
    membershipEnds: Date | null;
    waiting: number | null;
    orders: number | null;
    spent: number | null;
    lastOrderAt: Date | null;
    latestName: string | null;
    erased: boolean | null;
  },
  at: Date,
): CustomerRow => {
  const figures =
    r.waiting === null ? null : { membershipEnds: r.membershipEnds, waiting: r.waiting, erased: r.erased ?? false };
  return {
    id: r.id,
    name: customerDisplayName({ name: r.name, email: r.email, latestOrderName: r.latestName }),
    email: shownEmail(r.email),
    joinedAt: r.createdAt.toISOString(),
    state: customerState(figures, at),
    endingSoon: endingSoon(figures, at),
    membershipEnds: iso(r.membershipEnds),
    orders: r.orders ?? 0,
    spent: Number(r.spent ?? 0),
    lastOrderAt: iso(r.lastOrderAt),
  };
};

/**
 * An account's row as its record shows it (name, address, confirmed, joined), with `extra` columns where a reader
 * needs more (the privacy pages: the staff role, the second factor); undefined when `where` picks none.
 */
export async function accountRow<E extends SelectedFields>(db: Db, where: SQL | undefined, extra: E) {
  const [row] = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      createdAt: user.createdAt,
      ...extra,
    })
    .from(user)
    .where(where);
  return row;
}

/** The customer's user row, if it is a customer (an unknown id or a staff member: not found). */
export async function customerOf(db: Db, id: string) {
  if (typeof id !== "string" || id.length === 0 || id.length > 100) throw notFound("Customer not found");
  const row = await accountRow(db, and(eq(user.id, id), notStaff), {});
  if (!row) throw notFound("Customer not found");
  return row;
}

/** The customer's order `orderId` (a 404 for another's, or none). */
export async function orderOf_(db: Db, userId: string, orderId: string) {
  if (!isId(orderId))
    throw new AppError(404, "This customer has no such order.", [{ field: "orderId", message: "Unknown order" }]);
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row)
    throw new AppError(404, "This customer has no such order.", [{ field: "orderId", message: "Unknown order" }]);
  return row;
}

/**
 * The order form's fields as the customer last gave them (their latest order; the account's name without one): what
 * a sale made by hand starts with.
 */
export async function buyerOf(db: Db, customer: { id: string; name: string }): Promise<Record<BuyerField, string>> {
  const [latest] = await db
    .select({
      customerName: orders.customerName,
      customerAddress: orders.customerAddress,
      customerCountry: orders.customerCountry,
      customerVatNumber: orders.customerVatNumber,
    })
    .from(orders)
    .where(eq(orders.userId, customer.id))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  return {
    customerName: latest?.customerName ?? customer.name ?? "",
    customerAddress: latest?.customerAddress ?? "",
    customerCountry: latest?.customerCountry ?? "",
    customerVatNumber: latest?.customerVatNumber ?? "",
  };
}
