import type { Db } from "#server/db/client.ts";
import type { Currency } from "#domain/currency.ts";
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import {
  customerFiltersSchema,
  customerDisplayName,
  customerState,
  CUSTOMER_STATE_LABELS,
  endingSoon,
  shownEmail,
  type CustomerFilters,
} from "#domain/customers.ts";
import { membershipOf, membershipTimeline } from "#domain/membership.ts";
import { OUR_COLUMNS } from "#domain/imports.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { isErasedAddress } from "#domain/privacy.ts";
import { parseWith } from "#domain/validation.ts";
import { jobStatusOf } from "#domain/vocabulary.ts";
import { activityLog, customerNotes, customerTotals, orders, session, user } from "#server/db/schema.ts";
import { badRequest } from "#server/lib/errors.ts";
import { paginate } from "#server/lib/paging.ts";
import { describe } from "../activity";
import { table, type ExportTable } from "../exports";
import { JOBS_SCHEMA, MAIL_QUEUE, errorOf } from "../jobs";

import {
  CUSTOMERS_COUNT_LIMIT,
  CustomerMail,
  CustomerOrder,
  CustomerRecord,
  CustomerRow,
  CustomersDeps,
  RECORD_RECENT,
  buyerOf,
  columns,
  customerOf,
  dialect,
  iso,
  orderOf,
  rowOf,
  staffIds,
  stateOf,
  whereOf,
} from "./model";

/**
 * What a signed-in customer is called (their dashboard's greeting): the display name of domain/customers.ts, which
 * reads the name on their latest order from the figures (one read by key); their email when they have none.
 */
export async function displayNameOf(
  { db }: CustomersDeps,
  viewer: { id: string; name: string; email: string },
): Promise<string> {
  const [row] = await db
    .select({ latestName: customerTotals.latestName })
    .from(customerTotals)
    .where(eq(customerTotals.userId, viewer.id));
  return customerDisplayName({ ...viewer, latestOrderName: row?.latestName }) || viewer.email;
}

/** The filters of a REST call, strictly (400 naming the field). */
export function parseFilters(_deps: CustomersDeps, input: unknown): CustomerFilters {
  const parsed = parseWith(customerFiltersSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  return parsed.data;
}

/**
 * One page of customers, filtered and sorted in SQL, counted up to CUSTOMERS_COUNT_LIMIT (a bounded count: no
 * request counts every customer of a large shop).
 */
export async function list(
  { db, now }: CustomersDeps,
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
}

/** A customer's row of the CSV from its columns as read (`csv`'s select, in its order). */
function csvRowOf(row: unknown[], at: Date): unknown[] {
  const [email, name, latestName, joined, pkg, endsExact, letter, erased, ends, waiting, count, spent, last, id] = row;
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
}

/**
 * Every customer of a list (its filters and sort), as CSV rows streamed from a cursor. The first six columns are the
 * import's own format (domain/imports.ts OUR_COLUMNS, decision 079): email, name, joined and the membership's end as
 * exact UTC moments, the current membership's package, the newsletter state; so a file exported here imports back
 * into another install as the same customers, memberships and subscribers. The figures follow (ignored by an
 * import). `currency`: the site's (every order's, decision 072), named in the spending column's heading.
 */
export async function csv(
  { db, pool, now, timeZone }: CustomersDeps,
  filters: CustomerFilters,
  currency: Currency = "USD",
): Promise<ExportTable> {
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
    (row) => csvRowOf(row, at),
  );
}

/** The customer's latest mails, newest first (the mail queue's jobs addressed to them). */
const recentMails = (db: Db, email: string) =>
  db.execute<{
    id: string;
    state: string;
    data: { mail?: { subject?: string } } | null;
    output: unknown;
    created_on: Date;
    completed_on: Date | null;
  }>(sql`
    select id, state, data, output, created_on, completed_on from ${sql.identifier(JOBS_SCHEMA)}.job
    where name = ${MAIL_QUEUE} and lower(data->'mail'->>'to') = ${email.toLowerCase()}
    order by created_on desc limit ${RECORD_RECENT}`);

/** A mail of the record, as the record shows it. */
const recordMailOf = (m: Awaited<ReturnType<typeof recentMails>>["rows"][number]): CustomerMail => ({
  id: m.id,
  subject: m.data?.mail?.subject ?? "(no subject)",
  status: m.state === "completed" ? "Sent" : jobStatusOf(m.state),
  queuedAt: new Date(m.created_on).toISOString(),
  sentAt: m.state === "completed" && m.completed_on ? new Date(m.completed_on).toISOString() : null,
  error: errorOf(m.output),
});

/** The latest activity entries about the customer and their orders, newest first. */
const recentActivity = (db: Db, id: string, orderIds: string[]) =>
  db
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

/** An order of the record, as the record shows it. */
const recordOrderOf = (r: typeof orders.$inferSelect): CustomerOrder => ({
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
});

/** The customer's record: profile, membership and its timeline, orders, mails, log, note. */
export async function get({ db, now, timeZone }: CustomersDeps, id: string): Promise<CustomerRecord> {
  const customer = await customerOf(db, id);
  const at = now();
  const [rows, [totals], [note], [sessions], mailRows] = await Promise.all([
    db.select().from(orders).where(eq(orders.userId, id)).orderBy(asc(orders.createdAt), asc(orders.id)),
    db.select().from(customerTotals).where(eq(customerTotals.userId, id)),
    db.select().from(customerNotes).where(eq(customerNotes.userId, id)),
    db
      .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
      .from(session)
      .where(and(eq(session.userId, id), sql`${session.expiresAt} > ${at.toISOString()}::timestamptz`)),
    recentMails(db, customer.email),
  ]);
  const orderIds = rows.map((r) => r.id);
  const logRows = await recentActivity(db, id, orderIds);
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
    orders: rows.map(recordOrderOf).reverse(),
    mails: mailRows.rows.map(recordMailOf),
    activity: describe(logRows, new Map(), timeZone),
    note: note?.note ?? "",
    noteUpdatedAt: iso(note?.updatedAt ?? null),
  };
}

/** What the sale form starts with: the customer, and the buyer's details of their latest order (`buyerOf`). */
export async function saleDefaults({ db }: CustomersDeps, id: string) {
  const customer = await customerOf(db, id);
  const buyer = await buyerOf(db, customer);
  return {
    id: customer.id,
    name: customerDisplayName({ ...customer, latestOrderName: buyer.customerName || null }),
    email: shownEmail(customer.email),
    erased: isErasedAddress(customer.email),
    ...buyer,
  };
}
