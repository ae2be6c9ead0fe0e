import { sql } from "drizzle-orm";
import { DAY_MS } from "../../domain/membership";
import type { Db } from "../db/client";
import { membershipReminders } from "../db/schema";
import { jobKey } from "./jobs";
import type { MailsService } from "./mails";

/** "Your membership ends in 7 days" goes out once the end is this close. */
export const REMINDER_DAYS = 7;
/**
 * "Your membership has ended" is sent for ends at most this long ago: a scan after some downtime still sends it,
 * and memberships that ended long before (e.g. before this feature) are left alone.
 */
export const ENDED_LOOKBACK_DAYS = 7;
/** Candidates per query; the scan repeats until none is left. */
const BATCH = 200;

export type Reminder = "membershipEndingSoon" | "membershipEnded";

type Candidate = {
  user_id: string;
  customer_email: string;
  customer_name: string;
  package_name: string;
  membership_valid: Date;
};

/**
 * Customers whose membership ends in (from, to] at the end of a delivered paid order, with no later paid order (a
 * renewal) and no reminder of this kind for that end yet; one row per customer, at most BATCH.
 */
export function candidatesSql(kind: Reminder, from: Date, to: Date) {
  return sql`
  select distinct on (o.user_id) o.user_id, o.customer_email, o.customer_name, o.package_name, o.membership_valid
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
      where r.user_id = o.user_id and r.kind = ${kind} and r.ends_at = o.membership_valid)
  order by o.user_id, o.membership_valid desc
  limit ${BATCH}`;
}

/**
 * The membership reminders (docs/decisions/023): a customer's membership ends at the latest end of their paid and
 * delivered orders (domain/membership.ts). Each scan finds the ends within REMINDER_DAYS ahead and those passed within
 * ENDED_LOOKBACK_DAYS, skips a customer who has a later paid order (a renewal: no reminder for the old end), and
 * queues each reminder once per customer and end (membership_reminders, and the job key). The clock is `now`, so
 * tests move time instead of sleeping. The ranges are read through the partial index orders_membership_end_idx.
 */
export function createMembershipReminders(deps: { db: Db; mails: Pick<MailsService, "queue">; now: () => Date }) {
  const { db, mails, now } = deps;

  async function candidates(kind: Reminder, from: Date, to: Date): Promise<Candidate[]> {
    const result = await db.execute<Candidate>(candidatesSql(kind, from, to));
    return result.rows.map((r) => ({ ...r, membership_valid: new Date(r.membership_valid) }));
  }

  async function remind(kind: Reminder, c: Candidate): Promise<boolean> {
    return db.transaction(async (tx) => {
      const marked = await tx
        .insert(membershipReminders)
        .values({ userId: c.user_id, kind, endsAt: c.membership_valid, queuedAt: now() })
        .onConflictDoNothing()
        .returning({ userId: membershipReminders.userId });
      if (!marked.length) return false;
      const key = jobKey("membership", c.user_id, kind, String(c.membership_valid.getTime()));
      const base = { customerName: c.customer_name, packageName: c.package_name };
      return kind === "membershipEndingSoon"
        ? mails.queue(tx, kind, { ...base, expiresAt: c.membership_valid }, c.customer_email, key)
        : mails.queue(tx, kind, { ...base, endedAt: c.membership_valid }, c.customer_email, key);
    });
  }

  async function run(kind: Reminder, from: Date, to: Date): Promise<number> {
    let queued = 0;
    for (;;) {
      const batch = await candidates(kind, from, to);
      for (const c of batch) if (await remind(kind, c)) queued++;
      if (batch.length < BATCH) return queued;
    }
  }

  return {
    /** One scan: the reminders due at `now()`, each queued once. */
    async scan(): Promise<{ endingSoon: number; ended: number }> {
      const t = now();
      const ended = await run("membershipEnded", new Date(t.getTime() - ENDED_LOOKBACK_DAYS * DAY_MS), t);
      const endingSoon = await run("membershipEndingSoon", t, new Date(t.getTime() + REMINDER_DAYS * DAY_MS));
      return { endingSoon, ended };
    },
  };
}

export type MembershipReminders = ReturnType<typeof createMembershipReminders>;
