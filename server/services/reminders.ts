import type { Currency } from "#domain/currency.ts";
import { eq, sql } from "drizzle-orm";
import { DAY_MS } from "#domain/membership.ts";
import type { Person } from "#domain/privacy.ts";
import { renewalOf, type Renewal } from "#domain/subscription-renewal.ts";
import type { Db } from "../db/client";
import { membershipReminders } from "../db/schema";
import { jobKey, type Tx } from "./jobs";
import type { MailsService } from "./mails";
import type { SubscriptionsService } from "./subscriptions";

/** "Your membership ends (or renews) in 7 days" goes out once the end is this close. */
export const REMINDER_DAYS = 7;
/**
 * "Your membership has ended" is sent for ends at most this long ago: a scan after some downtime still sends it,
 * and memberships that ended long before (e.g. before this feature) are left alone.
 */
export const ENDED_LOOKBACK_DAYS = 7;
/** Candidates per query; the scan repeats until none is left. */
const BATCH = 200;

export type Reminder = "membershipEndingSoon" | "membershipRenewsSoon" | "membershipEnded";

/**
 * The kinds that count as one reminder for an end: an end gets one 7-day reminder, "renews" or "ends" as it stood when
 * it was due (a cancellation after a "renews" mail sends no second one).
 */
const SAME_REMINDER: Record<Reminder, Reminder[]> = {
  membershipEndingSoon: ["membershipEndingSoon", "membershipRenewsSoon"],
  membershipRenewsSoon: ["membershipEndingSoon", "membershipRenewsSoon"],
  membershipEnded: ["membershipEnded"],
};

type Candidate = {
  user_id: string;
  customer_email: string;
  customer_name: string;
  package_name: string;
  /** The latest order's currency: a renewal reminder prints its amount in it (issue 35). */
  currency: Currency;
  membership_valid: Date;
};

/**
 * Customers whose membership ends in (from, to] at the end of a delivered paid order, with no later paid order (a
 * renewal) and no reminder of this kind for that end yet; one row per customer, at most BATCH. "Ended" also waits while
 * an active PayPal subscription will renew it (a monthly payment may come a day or two after the window's end).
 */
export function candidatesSql(kind: Reminder, from: Date, to: Date) {
  const kinds = sql.join(
    SAME_REMINDER[kind].map((k) => sql`${k}`),
    sql`, `,
  );
  const renewing =
    kind === "membershipEnded"
      ? sql`and not exists (
      select 1 from subscriptions s join orders first on first.id = s.order_id
      where s.user_id = o.user_id and s.status = 'active' and first.payment_status = 'Paid')`
      : sql``;
  return sql`
  select distinct on (o.user_id) o.user_id, o.customer_email, o.customer_name, o.package_name, o.currency, o.membership_valid
  from orders o
  where o.payment_status = 'Paid' and o.order_status = 'Delivered'
    and o.membership_valid > ${from.toISOString()}::timestamptz
    and o.membership_valid <= ${to.toISOString()}::timestamptz
    and not exists (
      select 1 from orders later
      where later.user_id = o.user_id and later.payment_status = 'Paid'
        and later.membership_valid > o.membership_valid)
    and not exists (
      select 1 from membership_reminders r
      where r.user_id = o.user_id and r.kind in (${kinds}) and r.ends_at = o.membership_valid)
    ${renewing}
  order by o.user_id, o.membership_valid desc
  limit ${BATCH}`;
}

/**
 * The membership reminders (docs/decisions/023): a customer's membership ends at the latest end of their paid and
 * delivered orders (domain/membership.ts). Each scan finds the ends within REMINDER_DAYS ahead and those passed within
 * ENDED_LOOKBACK_DAYS, skips a customer who has a later paid order (a renewal: no reminder for the old end), and
 * queues each reminder once per customer and end (membership_reminders, and the job key). An end an active PayPal
 * subscription renews gets "renews in 7 days" (its date and amount) instead of "ends in 7 days", and no "ended" while
 * it stays active (decision 052). The clock is `now`, so tests move time instead of sleeping. The ranges are read
 * through the partial index orders_membership_end_idx; a batch's subscriptions in two reads (activeOf).
 */
export function createMembershipReminders(deps: {
  db: Db;
  mails: Pick<MailsService, "queue">;
  subscriptions: Pick<SubscriptionsService, "activeOf">;
  now: () => Date;
}) {
  const { db, mails, subscriptions, now } = deps;

  async function candidates(kind: Reminder, from: Date, to: Date): Promise<Candidate[]> {
    const result = await db.execute<Candidate>(candidatesSql(kind, from, to));
    return result.rows.map((r) => ({ ...r, membership_valid: new Date(r.membership_valid) }));
  }

  /** The renewal of each customer of a batch whose active subscription renews their membership (one batch read). */
  async function renewals(batch: Candidate[]): Promise<Map<string, Renewal>> {
    const active = await subscriptions.activeOf([...new Set(batch.map((c) => c.user_id))]);
    const out = new Map<string, Renewal>();
    for (const userId of new Set(active.map((s) => s.userId))) {
      const renewal = renewalOf(active.filter((s) => s.userId === userId));
      if (renewal) out.set(userId, renewal);
    }
    return out;
  }

  async function remind(kind: Reminder, c: Candidate, renewal?: Renewal): Promise<boolean> {
    return db.transaction(async (tx) => {
      const marked = await tx
        .insert(membershipReminders)
        .values({ userId: c.user_id, kind, endsAt: c.membership_valid, queuedAt: now() })
        .onConflictDoNothing()
        .returning({ userId: membershipReminders.userId });
      if (!marked.length) return false;
      const key = jobKey("membership", c.user_id, kind, String(c.membership_valid.getTime()));
      const base = { customerName: c.customer_name, packageName: c.package_name };
      if (kind === "membershipRenewsSoon" && renewal)
        return mails.queue(
          tx,
          kind,
          { ...base, renewsAt: renewal.at, amount: renewal.amount, currency: c.currency },
          c.customer_email,
          key,
        );
      return kind === "membershipEnded"
        ? mails.queue(tx, kind, { ...base, endedAt: c.membership_valid }, c.customer_email, key)
        : mails.queue(tx, "membershipEndingSoon", { ...base, expiresAt: c.membership_valid }, c.customer_email, key);
    });
  }

  async function run(kind: Reminder, from: Date, to: Date): Promise<number> {
    let queued = 0;
    for (;;) {
      const batch = await candidates(kind, from, to);
      const renewing = kind === "membershipEnded" ? new Map<string, Renewal>() : await renewals(batch);
      for (const c of batch) {
        const renewal = renewing.get(c.user_id);
        if (await remind(renewal ? "membershipRenewsSoon" : kind, c, renewal)) queued++;
      }
      if (batch.length < BATCH) return queued;
    }
  }

  return {
    /** One scan: the reminders due at `now()`, each queued once. */
    /** One scan: the reminders due at `now()`, each queued once ("endingSoon" counts "renews" and "ends" in 7 days). */
    async scan(): Promise<{ endingSoon: number; ended: number }> {
      const t = now();
      const ended = await run("membershipEnded", new Date(t.getTime() - ENDED_LOOKBACK_DAYS * DAY_MS), t);
      const endingSoon = await run("membershipEndingSoon", t, new Date(t.getTime() + REMINDER_DAYS * DAY_MS));
      return { endingSoon, ended };
    },
  };
}

export type MembershipReminders = ReturnType<typeof createMembershipReminders>;

/** Forgets which reminders a person was sent (decision 086): nothing more is sent to an erased account anyway. */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  await tx.delete(membershipReminders).where(eq(membershipReminders.userId, person.userId));
}
