import { and, asc, eq, gt, isNull, lte, sql } from "drizzle-orm";
import { can, type StaffRole } from "#domain/capabilities.ts";
import { dayKey } from "#domain/dates.ts";
import { DAY_MS } from "#domain/membership.ts";
import type { Db } from "../db/client";
import { customerTotals, messages, user } from "../db/schema";
import { boundedCount } from "../lib/paging";
import { withDeps } from "../lib/with-deps";
import { JOBS_SCHEMA } from "./jobs";
import { REMINDER_DAYS } from "./reminders";
import type { OrdersService } from "./orders";
import type { WebhooksService } from "./webhooks";

/** A count shown on the back office: exact up to `COUNT_CAP`, then "100+" (`capped`). */
export interface Count {
  total: number;
  capped: boolean;
}

/** Counts stop here: past it, a number needs no more precision to say "look at this". */
export const COUNT_CAP = 100;

/** "Memberships ending soon": ends within this many days from now (the reminder mail's days). */
export const ENDING_SOON_DAYS = REMINDER_DAYS;

/** How many of the memberships ending soon Today names (the rest are behind the link). */
export const ENDING_SOON_SHOWN = 5;

export interface EndingMembership {
  userId: string;
  customerName: string;
  customerEmail: string;
  endsAt: string;
}

export interface TodaySummary {
  /** The site's calendar day (YYYY-MM-DD) the sales are of, and its month's first day. */
  day: string;
  monthStart: string;
  toDeliver?: Count;
  unread?: Count;
  endingSoon?: Count & { first: EndingMembership[] };
  failedJobs?: Count;
  /** Webhook endpoints whose deliveries failed for good since the last one delivered (docs/decisions/078). */
  failingWebhooks?: { id: string; url: string; description: string; failingSince: string; state: string }[];
  /** Today's revenue, its payments, and the memberships the studio gave today (counted apart: no money came). */
  sales?: { today: number; paidToday: number; givenToday: number; month: number };
}

interface BackOfficeDeps {
  db: Db;
  orders: Pick<OrdersService, "toDeliverCount" | "sales">;
  timeZone: string;
  now: () => Date;
  webhooks?: Pick<WebhooksService, "failing">;
}

/**
 * Unread contact messages in the inbox (an archived one does not count), through messages_inbox_idx: at most
 * COUNT_CAP + 1 index entries.
 */
const unreadCount = ({ db }: BackOfficeDeps) =>
  boundedCount(db, messages, and(eq(messages.messageStatus, "UnRead"), isNull(messages.archivedAt)), COUNT_CAP);

/**
 * Failed background jobs (mails among them), queue by queue through pg-boss's index of live jobs (name, state, …):
 * at most COUNT_CAP + 1 entries a queue, whatever the number of jobs done.
 */
async function failedJobsCount({ db }: BackOfficeDeps): Promise<Count> {
  const schema = sql.identifier(JOBS_SCHEMA);
  const { rows } = await db.execute<{ n: number }>(sql`
      select coalesce(sum(c.n), 0)::int as n
      from ${schema}.queue q
      cross join lateral (
        select count(*)::int as n
        from (select 1 from ${schema}.job j where j.name = q.name and j.state = 'failed' limit ${COUNT_CAP + 1}) f
      ) c`);
  const n = Number(rows[0]?.n ?? 0);
  return n > COUNT_CAP ? { total: COUNT_CAP, capped: true } : { total: n, capped: false };
}

/**
 * Customers whose membership ends within ENDING_SOON_DAYS: the end kept per customer in customer_totals (the latest
 * end of their paid and delivered orders' windows, migration 0021), the figure the customers list's "ending soon"
 * filter reads, through customer_totals_ends_idx: that week's ends only, however many customers there are.
 */
async function endingSoon({ db }: BackOfficeDeps, at: Date): Promise<Count & { first: EndingMembership[] }> {
  const to = new Date(at.getTime() + ENDING_SOON_DAYS * DAY_MS);
  const range = and(gt(customerTotals.membershipEnds, at), lte(customerTotals.membershipEnds, to));
  const [counted, first] = await Promise.all([
    boundedCount(db, customerTotals, range, COUNT_CAP),
    db
      .select({
        userId: customerTotals.userId,
        customerName: user.name,
        customerEmail: user.email,
        endsAt: customerTotals.membershipEnds,
      })
      .from(customerTotals)
      .innerJoin(user, eq(user.id, customerTotals.userId))
      .where(range)
      .orderBy(asc(customerTotals.membershipEnds), asc(customerTotals.userId))
      .limit(ENDING_SOON_SHOWN),
  ]);
  return { ...counted, first: first.map((r) => ({ ...r, endsAt: r.endsAt!.toISOString() })) };
}

/**
 * Sales of the site's day `day` (one row of the report tallies kept by triggers on orders, migration 0022: payments
 * by the day they came, in the site's zone) and of its month (the month tally the dashboard's chart reads).
 */
async function sales(
  { db, orders }: BackOfficeDeps,
  day: string,
): Promise<{ today: number; paidToday: number; givenToday: number; month: number }> {
  const [{ rows }, { months }] = await Promise.all([
    db.execute<{ revenue: string; n: number; given: number }>(sql`
        select revenue::text as revenue, paid_orders::int as n, given_orders::int as given
        from report_days where day = ${day}::date`),
    orders.sales(),
  ]);
  return {
    today: Number(rows[0]?.revenue ?? 0),
    paidToday: Number(rows[0]?.n ?? 0),
    givenToday: Number(rows[0]?.given ?? 0),
    month: months.at(-1)?.total ?? 0,
  };
}

/** The navigation's counts, on every back-office page: only those of the areas the role opens. */
async function navCounts(deps: BackOfficeDeps, role: StaffRole): Promise<{ toDeliver?: Count; unread?: Count }> {
  const [toDeliver, unread] = await Promise.all([
    can(role, "orders") ? deps.orders.toDeliverCount() : undefined,
    can(role, "messages") ? unreadCount(deps) : undefined,
  ]);
  return { toDeliver, unread };
}

/** What needs doing today, and today's and this month's sales (the site's time zone). */
async function today(deps: BackOfficeDeps, role: StaffRole): Promise<TodaySummary> {
  const { orders, timeZone, now } = deps;
  const at = now();
  const day = dayKey(at, timeZone);
  const seesOrders = can(role, "orders");
  const [toDeliver, unread, ending, failedJobs, sold, failing] = await Promise.all([
    seesOrders ? orders.toDeliverCount() : undefined,
    can(role, "messages") ? unreadCount(deps) : undefined,
    can(role, "customers") ? endingSoon(deps, at) : undefined,
    can(role, "settings") ? failedJobsCount(deps) : undefined,
    seesOrders ? sales(deps, day) : undefined,
    can(role, "settings") ? deps.webhooks?.failing() : undefined,
  ]);
  return {
    day,
    monthStart: `${day.slice(0, 8)}01`,
    toDeliver,
    unread,
    endingSoon: ending,
    failedJobs,
    failingWebhooks: failing?.map((e) => ({
      id: e.id,
      url: e.url,
      description: e.description,
      failingSince: e.failingSince!,
      state: e.state,
    })),
    sales: sold,
  };
}

/**
 * The back office's own reads (the navigation's counts and the Today page): each one a tally or an index range that
 * stops at COUNT_CAP rows, so a page of the back office costs the same with a thousand orders or a million. The
 * figures a role may not see are not read at all.
 */
export function createBackOfficeService(deps: BackOfficeDeps) {
  return {
    navCounts: withDeps(deps, navCounts),
    today: withDeps(deps, today),
  };
}

export type BackOfficeService = ReturnType<typeof createBackOfficeService>;
