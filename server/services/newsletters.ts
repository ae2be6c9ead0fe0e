import { sql } from "drizzle-orm";
import { ERASED_DOMAIN, type Person } from "#domain/privacy.ts";
import { newsletterRecipients } from "../db/schema";
import { withDeps } from "../lib/with-deps";
import type { Tx } from "./jobs";
import { audienceCount } from "./newsletters/audience";
import { create, remove, retryFailed, send, sendTest, unschedule, update } from "./newsletters/commands";
import { runJob, tick } from "./newsletters/job";
import { contextOf, NEWSLETTER_QUEUE, type NewslettersDeps } from "./newsletters/model";
import { count, get, list, publishedArticles, recipientAddress } from "./newsletters/queries";

export { activeMemberOrder } from "./newsletters/audience";
export {
  NEWSLETTER_ENTITY,
  NEWSLETTER_NO_AUDIENCE,
  NEWSLETTER_QUEUE,
  newsletterAudienceSchema,
  newsletterDraftSchema,
  newsletterSendSchema,
  type NewsletterRecord,
  type NewslettersDeps,
} from "./newsletters/model";

/**
 * Newsletters (issue 36, part 4): drafts, test sends, and the send itself. A send starts once (a conditional update of
 * the state), expands its audience in SQL into one recipient row per address, and a job on the queue hands the mails
 * to SMTP one at a time at NEWSLETTER_RATE_PER_MINUTE, marking each row `sending` (with the attempt's id) before and
 * `sent` after. The only writer of newsletters and newsletter_recipients. The reads are in newsletters/queries.ts,
 * staff's actions in newsletters/commands.ts, the audience in newsletters/audience.ts, the mail in newsletters/draw.ts
 * and the sending job in newsletters/job.ts, each a function over the context this factory builds once (decision 085).
 */
export function createNewslettersService(deps: NewslettersDeps) {
  const ctx = contextOf(deps);
  ctx.jobs.worker(NEWSLETTER_QUEUE, withDeps(ctx, runJob), { title: "Newsletter: the next mails handed to SMTP" });
  ctx.jobs.every("newsletters-due", "* * * * *", withDeps(ctx, tick), {
    title: "Newsletters: scheduled sends start, stopped ones go on",
  });

  return {
    audienceCount: withDeps(ctx, audienceCount),
    tick: withDeps(ctx, tick),
    publishedArticles: withDeps(ctx, publishedArticles),
    get: withDeps(ctx, get),
    list: withDeps(ctx, list),
    count: withDeps(ctx, count),
    create: withDeps(ctx, create),
    update: withDeps(ctx, update),
    remove: withDeps(ctx, remove),
    sendTest: withDeps(ctx, sendTest),
    send: withDeps(ctx, send),
    unschedule: withDeps(ctx, unschedule),
    retryFailed: withDeps(ctx, retryFailed),
    recipientAddress: withDeps(ctx, recipientAddress),
  };
}

export type NewslettersService = ReturnType<typeof createNewslettersService>;

/**
 * Forgets a person's place in the newsletters' audiences (decision 086): each row of their addresses keeps its status
 * (what was sent still counts) under its own id's placeholder address (`<row id>@erased.invalid`, never mailed), and
 * one still waiting is not sent (suppressed). SMTP's answer, which may quote the address, goes.
 */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  if (!person.emails.length) return;
  await tx.execute(sql`
    update ${newsletterRecipients} set
      address = ${newsletterRecipients.id}::text || ${"@" + ERASED_DOMAIN},
      status = case when ${newsletterRecipients.status} in ('queued', 'sending') then 'suppressed'
               else ${newsletterRecipients.status} end,
      subscriber_id = null, attempt_id = null, error = null
    where ${newsletterRecipients.address} = any(${sql.param(person.emails)}::text[])`);
}
