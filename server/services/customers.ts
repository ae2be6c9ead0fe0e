import type { Currency } from "../../domain/currency";
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import {
  bankTransferSchema,
  customerFiltersSchema,
  customerDisplayName,
  customerState,
  CUSTOMER_STATE_LABELS,
  endingSoon,
  ENDING_SOON_DAYS,
  noteSchema,
  resendSchema,
  shownEmail,
  type CustomerFilters,
  type CustomerState,
} from "../../domain/customers";
import { membershipOf, membershipTimeline, type Membership } from "../../domain/membership";
import { OUR_COLUMNS } from "../../domain/imports";
import { normalInvoiceNumber } from "../../domain/invoice-number";
import { normalOrderNumber } from "../../domain/order-number";
import type { PageInfo } from "../../domain/pagination";
import { isErasedAddress } from "../../domain/privacy";
import { ERASED_NO_SALE } from "../../domain/sale-choices";
import { parseWith } from "../../domain/validation";
import { jobStatusOf, type JobStatus, type PaymentMethod } from "../../domain/vocabulary";
import type { Db } from "../db/client";
import { activityLog, adminUsers, customerNotes, customerTotals, orders, session, user } from "../db/schema";
import { AppError, badRequest, conflict, isId, notFound } from "../lib/errors";
import { paginate } from "../lib/paging";
import { audited, describe, type Actor, type DescribedEntry } from "./activity";
import { table, type ExportTable } from "./exports";
import { JOBS_SCHEMA, MAIL_QUEUE, errorOf, jobKey } from "./jobs";
import type { MailsService } from "./mails";
import type { OrdersService } from "./orders";
import type { WebhookEmitter } from "./webhooks";

/** The most customers a list counts (the count is bounded: pages past it are out of reach, a search narrows). */
export const CUSTOMERS_COUNT_LIMIT = 10_000;
/** The most order matches a partial order number looks through for its customers. */
const NUMBER_MATCHES = 1_000;
/** Days given to an erased customer would go to no one (decision 063). */
export { ERASED_NO_SALE };

/** The buyer's details of an order (the order form's fields), which a sale made by hand starts from. */
const BUYER_FIELDS = ["customerName", "customerAddress", "customerCountry", "customerVatNumber"] as const;
type BuyerField = (typeof BUYER_FIELDS)[number];
export const ERASED_NO_GRANT = "This customer's data has been erased: there is nobody to give days to.";
/** How many of the customer's mails and log entries the record shows (newest first). */
export const RECORD_RECENT = 20;

const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

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

const dialect = new PgDialect();
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Staff (a confirmed address on the admin list) are no customers (accounts.ts viewerOf decides staff alike). */
const notStaff = sql`not (${user.emailVerified} and exists (
  select 1 from ${adminUsers} where lower(${adminUsers.userEmail}) = lower(${user.email})))`;

/** The accounts that are staff (notStaff's other side), few: a hashed list the figures' count leaves out. */
/**
 * The display name in SQL, for the name sort: the SQL twin of domain/customers.ts customerDisplayName over the same
 * columns (an erased person's account name is empty and their orders say "Erased customer", so both agree on them).
 */
const displayNameSql = sql`coalesce(nullif(trim(${user.name}), ''), ${customerTotals.latestName}, '')`;

const staffIds = sql`select ${user.id} from ${user} join ${adminUsers} on lower(${adminUsers.userEmail}) = lower(${user.email})
  where ${user.emailVerified}`;

/**
 * The customers (issue 26, part 2): the list, searched, filtered by membership state and sorted in SQL over the
 * figures the orders' triggers keep (customer_totals), its CSV, and the record with its actions. Orders are written
 * only by the orders module (grant, payOutside); every action here is audited.
 */
export function createCustomersService({
  db,
  pool,
  orders: orderCommands,
  mails,
  now,
  timeZone,
  webhooks,
}: CustomersDeps) {
  /** The condition of a membership state, on the figures (customer_totals) alone; undefined for all customers. */
  function stateOf(filters: CustomerFilters, at: Date): SQL | undefined {
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
  function whereOf(filters: CustomerFilters, at: Date): SQL {
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
  function orderOf(filters: CustomerFilters): SQL[] {
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

  const columns = {
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

  const rowOf = (
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

  /** The customer's user row, if it is a customer (an unknown id or a staff member: not found). */
  async function customerOf(id: string) {
    if (typeof id !== "string" || id.length === 0 || id.length > 100) throw notFound("Customer not found");
    const [row] = await db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        emailVerified: user.emailVerified,
        createdAt: user.createdAt,
      })
      .from(user)
      .where(and(eq(user.id, id), notStaff));
    if (!row) throw notFound("Customer not found");
    return row;
  }

  /** The customer's order `orderId` (a 404 for another's, or none). */
  async function orderOf_(userId: string, orderId: string) {
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
  async function buyerOf(customer: { id: string; name: string }): Promise<Record<BuyerField, string>> {
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

  return {
    /**
     * What a signed-in customer is called (their dashboard's greeting): the display name of domain/customers.ts, which
     * reads the name on their latest order from the figures (one read by key); their email when they have none.
     */
    async displayNameOf(viewer: { id: string; name: string; email: string }): Promise<string> {
      const [row] = await db
        .select({ latestName: customerTotals.latestName })
        .from(customerTotals)
        .where(eq(customerTotals.userId, viewer.id));
      return customerDisplayName({ ...viewer, latestOrderName: row?.latestName }) || viewer.email;
    },

    /** The filters of a REST call, strictly (400 naming the field). */
    parseFilters(input: unknown): CustomerFilters {
      const parsed = parseWith(customerFiltersSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      return parsed.data;
    },

    /**
     * One page of customers, filtered and sorted in SQL, counted up to CUSTOMERS_COUNT_LIMIT (a bounded count: no
     * request counts every customer of a large shop).
     */
    async list(
      filters: CustomerFilters,
      options: { page?: unknown; perPage: number },
    ): Promise<{ customers: CustomerRow[]; page: PageInfo }> {
      const at = now();
      const where = whereOf(filters, at);
      const from = () =>
        db.select(columns).from(user).leftJoin(customerTotals, eq(customerTotals.userId, user.id)).where(where);
      // Without a search, a state that only customers with figures have is counted on the figures alone (an index-only
      // scan of customer_totals, staff left out by their few ids), not joined to every account: with the million
      // orders nearly every customer is active, and the join made the count most of the page's cost.
      const state = stateOf(filters, at);
      const onFigures = !filters.q?.trim() && state && filters.state !== "never-paid";
      const matching = onFigures
        ? db
            .select({ one: sql`1` })
            .from(customerTotals)
            .where(and(state, sql`${customerTotals.userId} not in (${staffIds})`))
        : db
            .select({ one: sql`1` })
            .from(user)
            .leftJoin(customerTotals, eq(customerTotals.userId, user.id))
            .where(where);
      const count = async () => {
        const [row] = await db
          .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
          .from(matching.limit(CUSTOMERS_COUNT_LIMIT + 1).as("matching"));
        const n = row?.n ?? 0;
        return n > CUSTOMERS_COUNT_LIMIT
          ? paginate(CUSTOMERS_COUNT_LIMIT, options.page, options.perPage, true)
          : paginate(n, options.page, options.perPage);
      };
      const wanted = paginate(Number.MAX_SAFE_INTEGER, options.page, options.perPage);
      // The page asked for and the count at once; a page past the end is read again as the last one.
      const [rows, page] = await Promise.all([
        from()
          .orderBy(...orderOf(filters))
          .limit(options.perPage)
          .offset(wanted.offset),
        count(),
      ]);
      const shown =
        page.offset === wanted.offset
          ? rows
          : await from()
              .orderBy(...orderOf(filters))
              .limit(options.perPage)
              .offset(page.offset);
      return { customers: shown.map((r) => rowOf(r, at)), page };
    },

    /**
     * Every customer of a list (its filters and sort), as CSV rows streamed from a cursor. The first six columns are the
     * import's own format (domain/imports.ts OUR_COLUMNS, decision 079): email, name, joined and the membership's end as
     * exact UTC moments, the current membership's package, the newsletter state; so a file exported here imports back
     * into another install as the same customers, memberships and subscribers. The figures follow (ignored by an
     * import). `currency`: the site's (every order's, decision 072), named in the spending column's heading.
     */
    async csv(filters: CustomerFilters, currency: Currency = "USD"): Promise<ExportTable> {
      const at = now();
      const moment = (column: SQL) => sql`to_char(${column} at time zone ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')`;
      const exact = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      const query = db
        .select({
          email: user.email,
          name: user.name,
          latestName: customerTotals.latestName,
          joined: exact(sql`${user.createdAt}`),
          packageName: sql`(select o.package_name from ${orders} o where o.user_id = ${user.id}
            and o.membership_valid = ${customerTotals.membershipEnds} order by o.created_at desc limit 1)`,
          endsExact: exact(sql`${customerTotals.membershipEnds}`),
          newsletter: sql`(select s.state from subscribers s where lower(s.subemail) = lower(${user.email}))`,
          erased: customerTotals.erased,
          ends: sql`${customerTotals.membershipEnds}::text`,
          waiting: customerTotals.waiting,
          orders: sql`coalesce(${customerTotals.orders}, 0)`,
          spent: sql`to_char(coalesce(${customerTotals.spent}, 0), 'FM9999999990.00')`,
          last: moment(sql`${customerTotals.lastOrderAt}`),
          id: user.id,
        })
        .from(user)
        .leftJoin(customerTotals, eq(customerTotals.userId, user.id))
        .where(whereOf(filters, at))
        .orderBy(...orderOf(filters));
      const compiled = dialect.sqlToQuery(query.getSQL());
      return table(
        pool,
        [
          OUR_COLUMNS.email,
          OUR_COLUMNS.name,
          OUR_COLUMNS.joinedAt,
          OUR_COLUMNS.membershipPackage,
          OUR_COLUMNS.membershipEnds,
          OUR_COLUMNS.newsletter,
          "Membership",
          "Orders",
          `Total Spent (${currency})`,
          `Last Order (${timeZone})`,
          "Customer ID",
        ],
        compiled.sql,
        compiled.params,
        ([email, name, latestName, joined, pkg, endsExact, letter, erased, ends, waiting, count, spent, last, id]) => {
          const figures =
            waiting === null
              ? null
              : {
                  membershipEnds: ends ? new Date(String(ends)) : null,
                  waiting: Number(waiting),
                  erased: erased === true,
                };
          const state = customerState(figures, at);
          const label = endingSoon(figures, at) ? "Active, ending soon" : CUSTOMER_STATE_LABELS[state];
          const address = String(email);
          const shown = customerDisplayName({
            name: name === null ? null : String(name),
            email: address,
            latestOrderName: latestName === null ? null : String(latestName),
          });
          // A membership over is history here: its end is not one to import.
          const current = state === "active";
          return [
            shownEmail(address) ?? "",
            shown,
            joined,
            current ? pkg : "",
            current ? endsExact : "",
            letter ?? "",
            label,
            count,
            spent,
            last,
            id,
          ];
        },
      );
    },

    /**
     * Customers brought from a CSV file (decision 079), many in one statement: an address with no account gets one
     * (unconfirmed, no password: they set one with "Forgot password"; no mail is sent), matched by email whatever its
     * case; an existing customer keeps everything and only gets the file's name where theirs is blank. Staff addresses
     * are left alone. Answers the customers' ids by their lower-cased address, and which of them are new.
     */
    async importMany(
      rows: readonly { email: string; name: string; joinedAt: string | null }[],
    ): Promise<{ ids: Map<string, string>; created: Set<string> }> {
      if (rows.length === 0) return { ids: new Map(), created: new Set() };
      const emails = rows.map((r) => r.email.toLowerCase());
      const names = rows.map((r) => r.name);
      const joined = rows.map((r) => r.joinedAt);
      const t = now();
      return db.transaction(async (tx) => {
        const inserted = await tx.execute<{ id: string; email: string; name: string; created_at: string | Date }>(sql`
          insert into ${user} (id, name, email, email_verified, created_at, updated_at)
          select gen_random_uuid()::text, x.name, x.email, false, coalesce(x.joined, ${t.toISOString()}::timestamptz), ${t.toISOString()}::timestamptz
          from unnest(${sql.param(emails)}::text[], ${sql.param(names)}::text[], ${sql.param(joined)}::timestamptz[]) as x(email, name, joined)
          where not exists (select 1 from ${user} u where lower(u.email) = x.email)
          on conflict do nothing
          returning id, email, name, created_at`);
        // As a sign-up does: customer.created for each account made, with the same fields.
        await webhooks?.emitManyTx(
          tx,
          "customer.created",
          inserted.rows.map((r) => ({
            customer: {
              id: r.id,
              email: r.email,
              name: r.name,
              emailVerified: false,
              createdAt: new Date(r.created_at).toISOString(),
            },
          })),
        );
        await tx.execute(sql`
          update ${user} set name = x.name, updated_at = ${t.toISOString()}::timestamptz
          from unnest(${sql.param(emails)}::text[], ${sql.param(names)}::text[]) as x(email, name)
          where lower(${user.email}) = x.email and trim(${user.name}) = '' and x.name <> '' and ${notStaff}`);
        const found = await tx.execute<{ id: string; email: string }>(sql`
          select ${user.id} as id, lower(${user.email}) as email from ${user}
          where lower(${user.email}) = any(${sql.param(emails)}::text[]) and ${notStaff}`);
        return {
          ids: new Map(found.rows.map((r) => [r.email, r.id])),
          created: new Set(inserted.rows.map((r) => r.email)),
        };
      });
    },

    /** The customer's record: profile, membership and its timeline, orders, mails, log, note. */
    async get(id: string): Promise<CustomerRecord> {
      const customer = await customerOf(id);
      const at = now();
      const [rows, [totals], [note], [sessions], mailRows] = await Promise.all([
        db.select().from(orders).where(eq(orders.userId, id)).orderBy(asc(orders.createdAt), asc(orders.id)),
        db.select().from(customerTotals).where(eq(customerTotals.userId, id)),
        db.select().from(customerNotes).where(eq(customerNotes.userId, id)),
        db
          .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
          .from(session)
          .where(and(eq(session.userId, id), sql`${session.expiresAt} > ${at.toISOString()}::timestamptz`)),
        db.execute<{
          id: string;
          state: string;
          data: { mail?: { subject?: string } } | null;
          output: unknown;
          created_on: Date;
          completed_on: Date | null;
        }>(sql`
          select id, state, data, output, created_on, completed_on from ${sql.identifier(JOBS_SCHEMA)}.job
          where name = ${MAIL_QUEUE} and lower(data->'mail'->>'to') = ${customer.email.toLowerCase()}
          order by created_on desc limit ${RECORD_RECENT}`),
      ]);
      const orderIds = rows.map((r) => r.id);
      const logRows = await db
        .select()
        .from(activityLog)
        .where(
          or(
            and(eq(activityLog.entity, "customer"), eq(activityLog.recordId, id)),
            orderIds.length ? and(eq(activityLog.entity, "order"), inArray(activityLog.recordId, orderIds)) : undefined,
          ),
        )
        .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
        .limit(RECORD_RECENT);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const figures = totals
        ? { membershipEnds: totals.membershipEnds, waiting: totals.waiting, erased: totals.erased }
        : null;
      return {
        id: customer.id,
        name: customerDisplayName({ ...customer, latestOrderName: totals?.latestName }),
        email: shownEmail(customer.email),
        emailVerified: customer.emailVerified,
        joinedAt: customer.createdAt.toISOString(),
        sessions: sessions?.n ?? 0,
        membership: membershipOf(
          rows.filter((r) => r.paymentStatus === "Paid"),
          at,
        ),
        state: customerState(figures, at),
        endingSoon: endingSoon(figures, at),
        totalSpent: Number(totals?.spent ?? 0),
        timeline: membershipTimeline(rows).map((w) => {
          const o = byId.get(w.orderId)!;
          return {
            orderId: w.orderId,
            number: o.number,
            packageName: o.packageName,
            starts: w.starts.toISOString(),
            ends: w.ends.toISOString(),
            days: o.packageValidity,
          };
        }),
        orders: rows
          .map((r) => ({
            id: r.id,
            number: r.number,
            packageName: r.packageName,
            packagePrice: r.packagePrice,
            packageValidity: r.packageValidity,
            paymentStatus: r.paymentStatus,
            orderStatus: r.orderStatus,
            paymentMethod: r.paymentMethod,
            paymentReference: r.paymentReference,
            invoiceNumber: r.invoiceNumber,
            createdAt: r.createdAt.toISOString(),
            paidAt: iso(r.paidAt),
            membershipStarts: iso(r.membershipStarts),
            membershipValid: iso(r.membershipValid),
          }))
          .reverse(),
        mails: mailRows.rows.map((m) => ({
          id: m.id,
          subject: m.data?.mail?.subject ?? "(no subject)",
          status: m.state === "completed" ? "Sent" : jobStatusOf(m.state),
          queuedAt: new Date(m.created_on).toISOString(),
          sentAt: m.state === "completed" && m.completed_on ? new Date(m.completed_on).toISOString() : null,
          error: errorOf(m.output),
        })),
        activity: describe(logRows, new Map(), timeZone),
        note: note?.note ?? "",
        noteUpdatedAt: iso(note?.updatedAt ?? null),
      };
    },

    /**
     * Gives or extends the customer's membership by `days` (a zero-price order the timeline counts: orders.grant),
     * with a one-time key against a double post. Says the membership's new end. `imported`: a member brought from a
     * CSV file (decision 079), whose window ends exactly at the file's date, with no mail.
     */
    async grant(
      id: string,
      input: unknown,
      actor: Actor,
      idempotencyKey?: unknown,
      imported?: { endsAt: Date; packageName: string | null },
    ) {
      const customer = await customerOf(id);
      // An erased customer is nobody's membership any more (decision 063): days given would go to no one.
      if (isErasedAddress(customer.email)) throw conflict(ERASED_NO_GRANT);
      const r = await orderCommands.grant(id, input, actor, idempotencyKey, imported);
      return {
        orderId: r.order.id,
        orderNumber: r.order.number,
        created: r.created,
        membershipEnds: iso(r.membershipEnds),
      };
    },

    /**
     * A sale made by hand for the customer (orders.sell): paid already (its invoice issued) or left for them to pay with
     * the link mailed to them. The buyer's details a JSON body leaves out (name, address, country, VAT number) are
     * those of their latest order, as the page's form starts with them. Not for an erased customer: nobody is left to
     * sell to.
     */
    async sell(id: string, input: unknown, actor: Actor, idempotencyKey?: unknown) {
      const customer = await customerOf(id);
      if (isErasedAddress(customer.email)) throw conflict(ERASED_NO_SALE);
      const body =
        input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
      const missing = body ? BUYER_FIELDS.filter((k) => body[k] === undefined) : [];
      let given = input;
      if (body && missing.length) {
        const latest = await buyerOf(customer);
        given = { ...Object.fromEntries(missing.map((k) => [k, latest[k] || undefined])), ...body };
      }
      const { order, created } = await orderCommands.sell(actor, id, given, idempotencyKey);
      return {
        orderId: order.id,
        orderNumber: order.number,
        created,
        paymentStatus: order.paymentStatus,
        orderStatus: order.orderStatus,
        invoiceNumber: order.invoiceNumber,
        amount: order.packagePrice,
        currency: order.currency,
        /** The VAT within the amount, in cents. */
        taxCents: order.taxCents,
        membershipValid: iso(order.membershipValid),
      };
    },

    /** What the sale form starts with: the customer, and the buyer's details of their latest order (`buyerOf`). */
    async saleDefaults(id: string) {
      const customer = await customerOf(id);
      const buyer = await buyerOf(customer);
      return {
        id: customer.id,
        name: customerDisplayName({ ...customer, latestOrderName: buyer.customerName || null }),
        email: shownEmail(customer.email),
        erased: isErasedAddress(customer.email),
        ...buyer,
      };
    },

    /** Records a payment received outside PayPal (a bank transfer) on one of the customer's unpaid orders. */
    async bankTransfer(id: string, input: unknown, actor: Actor) {
      const parsed = parseWith(bankTransferSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      await customerOf(id);
      const order = await orderOf_(id, parsed.data.orderId);
      if (order.paymentStatus !== "UnPaid")
        throw new AppError(409, `Order ${order.number} is ${order.paymentStatus}: only an unpaid order can be paid.`, [
          { field: "orderId", message: "Not an unpaid order" },
        ]);
      const r = await orderCommands.payOutside(order.id, actor, parsed.data.reference, parsed.data.activate);
      return {
        modified: r.changed,
        orderNumber: order.number,
        membershipValid: iso(r.order.membershipValid),
      };
    },

    /**
     * Sends again the mail of one of the customer's orders: its confirmation (with the Pay Now link) while unpaid, its
     * payment receipt once paid. At most once a minute per order (a double post sends one).
     */
    async resend(id: string, input: unknown, actor: Actor) {
      const parsed = parseWith(resendSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const customer = await customerOf(id);
      const order = await orderOf_(id, parsed.data.orderId);
      const base = {
        orderId: order.id,
        orderNumber: order.number,
        customerName: order.customerName,
        packageName: order.packageName,
      };
      const minute = Math.floor(now().getTime() / 60_000);
      return audited(db, actor, "customer", async (tx, audit) => {
        let what: string;
        let sent: boolean;
        if (order.paymentStatus === "UnPaid") {
          what = `Order confirmation · ${order.number}`;
          sent = await mails.queue(
            tx,
            "orderPlaced",
            { ...base, amount: order.packagePrice },
            customer.email,
            jobKey("order", order.id, "placed-again", minute),
          );
        } else if (order.paymentStatus === "Paid" && order.paymentMethod !== "Gift") {
          what = `Payment received · ${order.number}`;
          const receipt = {
            ...base,
            amount: order.packagePrice,
            paidAt: order.paidAt ?? order.createdAt,
            txnId: order.txnId,
            activated: order.orderStatus === "Delivered",
            invoiceNumber: order.invoiceNumber,
          };
          sent = await mails.queue(
            tx,
            "paymentReceived",
            receipt,
            customer.email,
            jobKey("order", order.id, "paid-again", minute),
          );
        } else
          throw conflict(
            `Order ${order.number} is ${order.paymentStatus === "Paid" ? "a gift" : order.paymentStatus}: it has no mail to send again.`,
          );
        if (sent) await audit.updated(id, { mailSentAgain: null }, { mailSentAgain: what });
        return { sent, what };
      });
    },

    /**
     * Signs the customer out on every device (their sessions are deleted). Public pages may still show them the
     * signed-in header for up to 5 minutes (the page-role cookie, decision 025); every page and call that needs the
     * account checks the session and finds none.
     */
    async signOutEverywhere(id: string, actor: Actor): Promise<{ sessions: number }> {
      await customerOf(id);
      return audited(db, actor, "customer", async (tx, audit) => {
        const gone = await tx.delete(session).where(eq(session.userId, id)).returning({ id: session.id });
        await audit.updated(id, { sessions: `${gone.length} signed in` }, { sessions: "Signed out everywhere" });
        return { sessions: gone.length };
      });
    },

    /** Saves the private note (empty removes it); the log keeps each version. */
    async setNote(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      const parsed = parseWith(noteSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      await customerOf(id);
      const text = parsed.data.note;
      return audited(db, actor, "customer", async (tx, audit) => {
        const [before] = await tx.select().from(customerNotes).where(eq(customerNotes.userId, id)).for("update");
        if ((before?.note ?? "") === text) return { modified: false };
        if (text === "") await tx.delete(customerNotes).where(eq(customerNotes.userId, id));
        else
          await tx
            .insert(customerNotes)
            .values({ userId: id, note: text, updatedAt: now() })
            .onConflictDoUpdate({ target: customerNotes.userId, set: { note: text, updatedAt: now() } });
        await audit.updated(id, { note: before?.note ?? "" }, { note: text });
        return { modified: true };
      });
    },
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
