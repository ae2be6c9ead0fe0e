import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { subscriberSchema } from "#domain/public-forms.ts";
import { parseWith } from "#domain/validation.ts";
import { newsletterRecipients, subscribers } from "#server/db/schema.ts";
import { badRequest, tooMany } from "#server/lib/errors.ts";
import type { Visitor } from "../inbox";
import { jobKey, type Tx } from "../jobs";
import { hashToken, newConfirmToken, readUnsubscribeToken, RESEND_AFTER_MS } from "../newsletter-tokens";
import { confirmPath, toSubscriber, unsubscribeHeaders, type ConfirmLink, type NewsletterContext } from "./model";
import { confirmLink } from "./queries";

const TEN_MINUTES = 10 * 60_000;

/** The double opt-in mail to an address, with its confirmation link and the unsubscribe link of subscriber `id`. */
async function confirmMail(ctx: NewsletterContext, tx: Tx, token: string, to: string, id: string) {
  const unsubscribe = ctx.unsubscribeUrl(id);
  const mail = await ctx.mails.compose(
    "newsletterConfirm",
    { confirmUrl: ctx.url(confirmPath(token)), unsubscribeUrl: unsubscribe },
    to,
    tx,
  );
  return mail && { ...mail, headers: { ...mail.headers, ...unsubscribeHeaders(unsubscribe) } };
}

/**
 * A footer signup. A new, pending (last mail over 10 minutes ago) or unsubscribed address becomes pending with a
 * fresh 7-day link, and its mail is queued in the same transaction; a confirmed address is left alone and gets no
 * mail. One statement either way (the queued mail is one insert more), the same answer either way.
 */
export async function subscribe(ctx: NewsletterContext, input: unknown, visitor: Visitor): Promise<void> {
  const { db, limiter, perIpLimit, jobs, now } = ctx;
  const parsed = parseWith(subscriberSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { allowed } = await limiter.hit({ name: "subscribe", limit: perIpLimit, windowMs: TEN_MINUTES }, visitor.ip);
  if (!allowed) throw tooMany("You have sent this form too many times. Please wait a few minutes and try again.");
  if (visitor.isBot) return;
  const at = now();
  const { token, hash, expiresAt } = newConfirmToken(at);
  const resendBefore = new Date(at.getTime() - RESEND_AFTER_MS);
  await db.transaction(async (tx) => {
    const result = await tx.execute<{ id: string; subemail: string }>(sql`
    insert into subscribers
      (subemail, state, subscribed_at, confirm_token_hash, confirm_expires_at, confirm_sent_at, created_at)
    values (${parsed.data.subemail}, 'pending', ${at}, ${hash}, ${expiresAt}, ${at}, ${at})
    on conflict ((lower(subemail))) do update set
      state = 'pending',
      subscribed_at = case when subscribers.state = 'unsubscribed' then excluded.subscribed_at
                           else subscribers.subscribed_at end,
      confirmed_at = null,
      unsubscribed_at = null,
      confirm_token_hash = excluded.confirm_token_hash,
      confirm_expires_at = excluded.confirm_expires_at,
      confirm_sent_at = excluded.confirm_sent_at
    where subscribers.state = 'unsubscribed'
       or (subscribers.state = 'pending'
           and (subscribers.confirm_sent_at is null or subscribers.confirm_sent_at <= ${resendBefore}))
    returning id, subemail`);
    const row = result.rows[0];
    // A confirmed address gets no mail, but its answer costs the same: the mail is composed and dropped.
    const to = row?.subemail ?? parsed.data.subemail;
    const mail = await confirmMail(ctx, tx, token, to, row?.id ?? randomUUID());
    if (!row || !mail) return;
    await jobs.queueMail(tx, mail, jobKey("newsletter-confirm", row.id, at.getTime()));
  });
}

/**
 * Subscribers brought from a CSV file (decision 079), in one transaction: an address the file says confirmed is a
 * subscriber (confirmed now; a pending one here is confirmed too; one who unsubscribed here stays unsubscribed);
 * an address not confirmed gets the double opt-in mail, as a footer signup does, only with `sendOptIn` and only
 * when the address is new here (each at most once: keyed by its row). Answers how many rows changed something.
 */
export async function importMany(
  ctx: NewsletterContext,
  rows: readonly { email: string; consent: "confirmed" | "unconfirmed" }[],
  sendOptIn: boolean,
): Promise<number> {
  const confirmed = rows.filter((r) => r.consent === "confirmed").map((r) => r.email.toLowerCase());
  const asked = sendOptIn ? rows.filter((r) => r.consent === "unconfirmed").map((r) => r.email.toLowerCase()) : [];
  if (!confirmed.length && !asked.length) return 0;
  const at = ctx.now();
  return ctx.db.transaction(async (tx) => {
    let changed = 0;
    if (confirmed.length) changed += await confirmImported(ctx, tx, confirmed, at);
    for (const email of asked) {
      if (await askImported(ctx, tx, email, at)) changed++;
    }
    return changed;
  });
}

/** The file's confirmed addresses as subscribers; how many rows that changed. */
async function confirmImported({ webhooks }: NewsletterContext, tx: Tx, confirmed: string[], at: Date) {
  const r = await tx.execute(sql`
    insert into subscribers (subemail, state, subscribed_at, confirmed_at, created_at)
    select x.email, 'confirmed', ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz,
      ${at.toISOString()}::timestamptz
    from unnest(${sql.param(confirmed)}::text[]) as x(email)
    on conflict ((lower(subemail))) do update set state = 'confirmed', confirmed_at = excluded.confirmed_at,
      confirm_token_hash = null, confirm_expires_at = null
    where subscribers.state = 'pending'
    returning id`);
  // As a confirmation does: subscriber.confirmed for each address confirmed here, in this transaction.
  if (webhooks && r.rows.length) {
    const ids = r.rows.map((x) => String((x as { id: string }).id));
    const rowsNow = await tx.select().from(subscribers).where(inArray(subscribers.id, ids));
    await webhooks.emitManyTx(
      tx,
      "subscriber.confirmed",
      rowsNow.map((row) => ({ subscriber: toSubscriber(row) })),
    );
  }
  return r.rowCount ?? 0;
}

/** An unconfirmed address new here: pending, with its opt-in mail queued once (keyed by its row). true if new. */
async function askImported(ctx: NewsletterContext, tx: Tx, email: string, at: Date): Promise<boolean> {
  const { token, hash, expiresAt } = newConfirmToken(at);
  const result = await tx.execute<{ id: string; subemail: string }>(sql`
    insert into subscribers
      (subemail, state, subscribed_at, confirm_token_hash, confirm_expires_at, confirm_sent_at, created_at)
    values (${email}, 'pending', ${at}, ${hash}, ${expiresAt}, ${at}, ${at})
    on conflict ((lower(subemail))) do nothing
    returning id, subemail`);
  const row = result.rows[0];
  if (!row) return false;
  const mail = await confirmMail(ctx, tx, token, row.subemail, row.id);
  if (mail) await ctx.jobs.queueMail(tx, mail, jobKey("newsletter-confirm", row.id, "imported"));
  return true;
}

/** Uses a confirmation link: the address counts as a subscriber from now on. */
export async function confirm(ctx: NewsletterContext, token: string): Promise<ConfirmLink> {
  const { db, suppressions, webhooks } = ctx;
  const at = ctx.now();
  if (token.length <= 200) {
    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(subscribers)
        .set({ state: "confirmed", confirmedAt: at, confirmExpiresAt: null })
        .where(
          and(
            eq(subscribers.confirmTokenHash, hashToken(token)),
            eq(subscribers.state, "pending"),
            sql`${subscribers.confirmExpiresAt} > ${at}`,
          ),
        )
        .returning();
      if (row) await webhooks?.emitTx(tx, "subscriber.confirmed", { subscriber: toSubscriber(row) });
      return row;
    });
    if (done) {
      // Asked again, by double opt-in: their earlier unsubscribe no longer stands (a bounce or complaint does).
      await suppressions.liftUnsubscribe(done.subemail);
      return { state: "confirmed", email: done.subemail };
    }
  }
  return confirmLink(ctx, token);
}

/**
 * Takes the address off the list (pending or confirmed) and onto the suppression list, so that no newsletter
 * reaches it through another audience either; doing it again changes nothing.
 */
export async function unsubscribe(ctx: NewsletterContext, token: string): Promise<{ email: string } | null> {
  const { db, secret, suppressions, webhooks, now } = ctx;
  const id = readUnsubscribeToken(secret, token);
  if (!id) return null;
  return db.transaction(async (tx) => {
    const [left] = await tx
      .update(subscribers)
      .set({ state: "unsubscribed", unsubscribedAt: now() })
      .where(and(eq(subscribers.id, id), sql`${subscribers.state} <> 'unsubscribed'`))
      .returning();
    if (left) await webhooks?.emitTx(tx, "subscriber.unsubscribed", { subscriber: toSubscriber(left) });
    const [row] = await tx.select({ email: subscribers.subemail }).from(subscribers).where(eq(subscribers.id, id));
    const email =
      row?.email ??
      (
        await tx
          .select({ email: newsletterRecipients.address })
          .from(newsletterRecipients)
          .where(eq(newsletterRecipients.id, id))
      )[0]?.email;
    if (!email) return null;
    await suppressions.suppress([email], "unsubscribe", "unsubscribe link", "", tx);
    return { email };
  });
}
