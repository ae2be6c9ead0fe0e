import { asc, desc, eq, sql } from "drizzle-orm";
import type { PageInfo } from "#domain/pagination.ts";
import { subscriberStates, type SubscriberState } from "#domain/vocabulary.ts";
import { newsletterRecipients, subscribers } from "#server/db/schema.ts";
import { confirmLinkState, hashToken, readUnsubscribeToken } from "../newsletter-tokens";
import { toSubscriber, type ConfirmLink, type NewsletterContext, type SubscriberRecord } from "./model";

/**
 * Whom an unsubscribe link names and whether they are still on the list; null for a link that is not ours. A
 * newsletter's recipient who is no subscriber (a member, a customer) has a link of the same kind naming their
 * recipient row: "unsubscribed" once their address is on the suppression list.
 */
export async function unsubscribeLink(
  { db, secret }: NewsletterContext,
  token: string,
): Promise<{ email: string; state: SubscriberState } | null> {
  const id = readUnsubscribeToken(secret, token);
  if (!id) return null;
  const [row] = await db
    .select({ email: subscribers.subemail, state: subscribers.state })
    .from(subscribers)
    .where(eq(subscribers.id, id));
  if (row) return row;
  const { rows } = await db.execute<{ email: string; suppressed: boolean }>(sql`
    select r.address as email, exists (select 1 from suppressions x where x.address = r.address) as suppressed
    from ${newsletterRecipients} r where r.id = ${id}`);
  const recipient = rows[0];
  return recipient ? { email: recipient.email, state: recipient.suppressed ? "unsubscribed" : "confirmed" } : null;
}

/** One state's addresses, newest signup first, one page (paged in SQL on subscribers_state_subscribed_idx). */
export async function list(
  { inState }: NewsletterContext,
  state: SubscriberState,
  page: unknown,
  perPage: number,
): Promise<{ subscribers: SubscriberRecord[]; page: PageInfo }> {
  const { rows, page: info } = await inState({ state }, page, perPage);
  return { subscribers: rows.map(toSubscriber), page: info };
}

/** How many addresses are in each state. */
export async function counts({ db }: NewsletterContext): Promise<Record<SubscriberState, number>> {
  const rows = await db
    .select({ state: subscribers.state, n: sql<number>`count(*)::int` })
    .from(subscribers)
    .groupBy(subscribers.state);
  const counts = Object.fromEntries(subscriberStates.values.map((s) => [s, 0])) as Record<SubscriberState, number>;
  for (const r of rows) counts[r.state] = r.n;
  return counts;
}

/** Every address with its state and dates (the CSV export), newest signup first. */
export async function all({ db }: NewsletterContext): Promise<SubscriberRecord[]> {
  return (await db.select().from(subscribers).orderBy(desc(subscribers.subscribedAt), asc(subscribers.subemail))).map(
    toSubscriber,
  );
}

async function byConfirmToken({ db }: NewsletterContext, token: string) {
  if (token.length > 200) return undefined;
  const [row] = await db
    .select()
    .from(subscribers)
    .where(eq(subscribers.confirmTokenHash, hashToken(token)));
  return row;
}

/** What a confirmation link is, without using it (the page shows a button; a GET changes nothing). */
export async function confirmLink(ctx: NewsletterContext, token: string): Promise<ConfirmLink> {
  const row = await byConfirmToken(ctx, token);
  const state = confirmLinkState(row, ctx.now());
  return state === "invalid" ? { state } : { state, email: row!.subemail };
}
