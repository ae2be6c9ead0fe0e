import { sql, type SQL } from "drizzle-orm";
import { NEWSLETTER_AUDIENCES, type NewsletterAudience } from "#domain/newsletters.ts";
import { ERASED_DOMAIN } from "#domain/privacy.ts";
import type { Db } from "#server/db/client.ts";
import type { newsletters } from "#server/db/schema.ts";
import type { Tx } from "../jobs";
import { NEWSLETTER_QUEUE, type NewslettersContext } from "./model";

/** The membership rule of domain/membership.ts (`membershipOf`: a Paid and Delivered order whose window holds now), in SQL. */
export const activeMemberOrder = (userId: SQL, at: Date) => sql`exists (
  select 1 from orders o where o.user_id = ${userId}
    and o.payment_status = 'Paid' and o.order_status = 'Delivered'
    and o.membership_valid > ${at} and (o.membership_starts is null or o.membership_starts <= ${at}))`;

/** Lower-cased addresses of active members (erased accounts' placeholders never among them). */
const memberAddresses = (at: Date) => sql`(
  select lower(u.email) from "user" u
  where ${activeMemberOrder(sql`u.id`, at)} and lower(u.email) not like ${`%@${ERASED_DOMAIN}`})`;

/**
 * Each audience's addresses as rows (address, subscriber id), lower-cased, not suppressed: confirmed subscribers;
 * active members; customers who agreed to mail, meaning accounts that have paid for a membership (UK PECR's soft
 * opt-in for existing customers: every mail offers the unsubscribe), erased ones never.
 */
function audienceRows(audience: NewsletterAudience, at: Date): SQL {
  const subscriberOf = (address: SQL) =>
    sql`(select s.id from subscribers s where lower(s.subemail) = ${address} and s.state = 'confirmed' limit 1)`;
  switch (audience) {
    case "subscribers":
      return sql`select lower(s.subemail) as address, s.id as subscriber_id from subscribers s
        where s.state = 'confirmed'`;
    case "members":
      return sql`select m.address, ${subscriberOf(sql`m.address`)} as subscriber_id
        from ${memberAddresses(at)} as m(address)`;
    case "customers":
      return sql`select lower(u.email) as address, ${subscriberOf(sql`lower(u.email)`)} as subscriber_id
        from "user" u join customer_totals t on t.user_id = u.id
        where t.paid_orders > 0 and not t.erased and lower(u.email) not like ${`%@${ERASED_DOMAIN}`}`;
  }
}

export const notSuppressed = (address: SQL) =>
  sql`not exists (select 1 from suppressions x where x.address = ${address})`;

/** How many distinct addresses an audience reaches now, suppressed ones left out. */
export async function audienceCount(
  ctx: NewslettersContext,
  audience: NewsletterAudience[],
  reader: Tx | Db = ctx.db,
): Promise<number> {
  if (!audience.length) return 0;
  const at = ctx.now();
  const union = sql.join(
    audience.map((a) => sql`(${audienceRows(a, at)})`),
    sql` union `,
  );
  const { rows } = await reader.execute<{ n: number }>(sql`
    select count(distinct a.address)::int as n from (${union}) a where ${notSuppressed(sql`a.address`)}`);
  return rows[0]?.n ?? 0;
}

/**
 * The audience as recipient rows: one INSERT … SELECT … ON CONFLICT DO NOTHING per source, in the caller's
 * transaction, so an address in two sources is there once. Members get the members-only part whatever the source
 * that added them. Returns the rows inserted.
 */
async function expand(tx: Tx, id: string, audience: NewsletterAudience[], at: Date): Promise<number> {
  let inserted = 0;
  for (const source of NEWSLETTER_AUDIENCES.filter((a) => audience.includes(a))) {
    const result = await tx.execute(sql`
      insert into newsletter_recipients (newsletter_id, address, member, subscriber_id)
      select ${id}, a.address, a.address in ${memberAddresses(at)}, a.subscriber_id
      from (${audienceRows(source, at)}) a
      where ${notSuppressed(sql`a.address`)}
      on conflict do nothing`);
    inserted += result.rowCount ?? 0;
  }
  return inserted;
}

/** Moves a newsletter to sending, expands its audience and queues its first job, in the caller's transaction. */
export async function begin(
  ctx: NewslettersContext,
  tx: Tx,
  n: typeof newsletters.$inferSelect,
  at: Date,
): Promise<number> {
  const recipients = await expand(tx, n.id, n.audience, at);
  await ctx.jobs.send(NEWSLETTER_QUEUE, { newsletterId: n.id }, { singletonKey: n.id, tx });
  return recipients;
}
