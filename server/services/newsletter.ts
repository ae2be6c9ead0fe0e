import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { subscriberSchema } from "#domain/public-forms.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { parseWith } from "#domain/validation.ts";
import { subscriberStates, type SubscriberState } from "#domain/vocabulary.ts";
import type { Person } from "#domain/privacy.ts";
import type { Db } from "../db/client";
import { newsletterRecipients, subscribers } from "../db/schema";
import { badRequest, tooMany } from "../lib/errors";
import { preparedPages } from "../lib/paging";
import type { JobsService, Tx } from "./jobs";
import { jobKey } from "./jobs";
import type { MailsService } from "./mails";
import {
  confirmLinkState,
  hashToken,
  newConfirmToken,
  readUnsubscribeToken,
  RESEND_AFTER_MS,
  unsubscribeToken,
  type ConfirmLinkState,
} from "./newsletter-tokens";
import type { Visitor } from "./inbox";
import type { RateLimiter } from "./rate-limit";
import type { SuppressionsService } from "./suppressions";
import type { WebhookEmitter } from "./webhooks";

export interface SubscriberRecord {
  _id: string;
  subemail: string;
  state: SubscriberState;
  subscribedAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  createdAt: string;
}
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const toSubscriber = (r: typeof subscribers.$inferSelect): SubscriberRecord => ({
  _id: r.id,
  subemail: r.subemail,
  state: r.state,
  subscribedAt: r.subscribedAt.toISOString(),
  confirmedAt: iso(r.confirmedAt),
  unsubscribedAt: iso(r.unsubscribedAt),
  createdAt: r.createdAt.toISOString(),
});

/** Where the newsletter's links lead (app/routes.ts). */
export const confirmPath = (token: string) => `/newsletter/confirm/${token}`;
export const unsubscribePath = (token: string) => `/newsletter/unsubscribe/${token}`;

/** RFC 8058: the headers that let a mail provider offer "Unsubscribe" and unsubscribe with one POST. */
export const unsubscribeHeaders = (unsubscribeUrl: string): Record<string, string> => ({
  "List-Unsubscribe": `<${unsubscribeUrl}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});

const TEN_MINUTES = 10 * 60_000;

/** What a confirmation link page shows; `email` only for a link that names its address. */
export type ConfirmLink = { state: ConfirmLinkState; email?: string };

/**
 * The newsletter, double opt-in: a footer signup is pending until its emailed link is used (7 days); only confirmed
 * addresses are subscribers; every newsletter mail carries a stable one-click unsubscribe link (RFC 8058).
 * The answer to a signup never says whether the address was known.
 */
export function createNewsletterService(options: {
  db: Db;
  limiter: RateLimiter;
  perIpLimit: number;
  jobs: Pick<JobsService, "queueMail">;
  mails: Pick<MailsService, "compose">;
  /** Unsubscribes are listed there too, so that no audience (members, customers) mails the person again. */
  suppressions: Pick<SuppressionsService, "suppress" | "liftUnsubscribe">;
  secret: string;
  publicUrl: string;
  now: () => Date;
  /** subscriber.confirmed and subscriber.unsubscribed, in the change's transaction (docs/decisions/078). */
  webhooks?: Pick<WebhookEmitter, "emitTx" | "emitManyTx">;
}) {
  const { db, limiter, perIpLimit, jobs, mails, suppressions, secret, publicUrl, now, webhooks } = options;
  const url = (path: string) => new URL(path, publicUrl).toString();
  const unsubscribeUrl = (id: string) => url(unsubscribePath(unsubscribeToken(secret, id)));
  /** The addresses in a state, newest first: the back office's home shows the first page on every view, and
   * (state, subscribed_at, id) serves every state, so one plan does (prepared). */
  const inState = preparedPages(db, subscribers, {
    where: eq(subscribers.state, sql.placeholder("state")),
    orderBy: [desc(subscribers.subscribedAt), desc(subscribers.id)],
  });

  async function byConfirmToken(token: string) {
    if (token.length > 200) return undefined;
    const [row] = await db
      .select()
      .from(subscribers)
      .where(eq(subscribers.confirmTokenHash, hashToken(token)));
    return row;
  }

  /** What a confirmation link is, without using it (the page shows a button; a GET changes nothing). */
  async function confirmLink(token: string): Promise<ConfirmLink> {
    const row = await byConfirmToken(token);
    const state = confirmLinkState(row, now());
    return state === "invalid" ? { state } : { state, email: row!.subemail };
  }

  return {
    unsubscribeUrl,
    confirmLink,

    /**
     * A footer signup. A new, pending (last mail over 10 minutes ago) or unsubscribed address becomes pending with a
     * fresh 7-day link, and its mail is queued in the same transaction; a confirmed address is left alone and gets no
     * mail. One statement either way (the queued mail is one insert more), the same answer either way.
     */
    async subscribe(input: unknown, visitor: Visitor): Promise<void> {
      const parsed = parseWith(subscriberSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const { allowed } = await limiter.hit(
        { name: "subscribe", limit: perIpLimit, windowMs: TEN_MINUTES },
        visitor.ip,
      );
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
        const unsubscribe = unsubscribeUrl(row?.id ?? randomUUID());
        const mail = await mails.compose(
          "newsletterConfirm",
          { confirmUrl: url(confirmPath(token)), unsubscribeUrl: unsubscribe },
          to,
          tx,
        );
        if (!row || !mail) return;
        const headers = { ...mail.headers, ...unsubscribeHeaders(unsubscribe) };
        await jobs.queueMail(tx, { ...mail, headers }, jobKey("newsletter-confirm", row.id, at.getTime()));
      });
    },

    /**
     * Subscribers brought from a CSV file (decision 079), in one transaction: an address the file says confirmed is a
     * subscriber (confirmed now; a pending one here is confirmed too; one who unsubscribed here stays unsubscribed);
     * an address not confirmed gets the double opt-in mail, as a footer signup does, only with `sendOptIn` and only
     * when the address is new here (each at most once: keyed by its row). Answers how many rows changed something.
     */
    async importMany(
      rows: readonly { email: string; consent: "confirmed" | "unconfirmed" }[],
      sendOptIn: boolean,
    ): Promise<number> {
      const confirmed = rows.filter((r) => r.consent === "confirmed").map((r) => r.email.toLowerCase());
      const asked = sendOptIn ? rows.filter((r) => r.consent === "unconfirmed").map((r) => r.email.toLowerCase()) : [];
      if (!confirmed.length && !asked.length) return 0;
      const at = now();
      return db.transaction(async (tx) => {
        let changed = 0;
        if (confirmed.length) {
          const r = await tx.execute(sql`
            insert into subscribers (subemail, state, subscribed_at, confirmed_at, created_at)
            select x.email, 'confirmed', ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz,
              ${at.toISOString()}::timestamptz
            from unnest(${sql.param(confirmed)}::text[]) as x(email)
            on conflict ((lower(subemail))) do update set state = 'confirmed', confirmed_at = excluded.confirmed_at,
              confirm_token_hash = null, confirm_expires_at = null
            where subscribers.state = 'pending'
            returning id`);
          changed += r.rowCount ?? 0;
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
        }
        for (const email of asked) {
          const { token, hash, expiresAt } = newConfirmToken(at);
          const result = await tx.execute<{ id: string; subemail: string }>(sql`
            insert into subscribers
              (subemail, state, subscribed_at, confirm_token_hash, confirm_expires_at, confirm_sent_at, created_at)
            values (${email}, 'pending', ${at}, ${hash}, ${expiresAt}, ${at}, ${at})
            on conflict ((lower(subemail))) do nothing
            returning id, subemail`);
          const row = result.rows[0];
          if (!row) continue;
          changed++;
          const unsubscribe = unsubscribeUrl(row.id);
          const mail = await mails.compose(
            "newsletterConfirm",
            { confirmUrl: url(confirmPath(token)), unsubscribeUrl: unsubscribe },
            row.subemail,
            tx,
          );
          if (!mail) continue;
          const headers = { ...mail.headers, ...unsubscribeHeaders(unsubscribe) };
          await jobs.queueMail(tx, { ...mail, headers }, jobKey("newsletter-confirm", row.id, "imported"));
        }
        return changed;
      });
    },

    /** Uses a confirmation link: the address counts as a subscriber from now on. */
    async confirm(token: string): Promise<ConfirmLink> {
      const at = now();
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
      return confirmLink(token);
    },

    /**
     * Whom an unsubscribe link names and whether they are still on the list; null for a link that is not ours. A
     * newsletter's recipient who is no subscriber (a member, a customer) has a link of the same kind naming their
     * recipient row: "unsubscribed" once their address is on the suppression list.
     */
    async unsubscribeLink(token: string): Promise<{ email: string; state: SubscriberState } | null> {
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
    },

    /**
     * Takes the address off the list (pending or confirmed) and onto the suppression list, so that no newsletter
     * reaches it through another audience either; doing it again changes nothing.
     */
    async unsubscribe(token: string): Promise<{ email: string } | null> {
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
    },

    /** One state's addresses, newest signup first, one page (paged in SQL on subscribers_state_subscribed_idx). */
    async list(
      state: SubscriberState,
      page: unknown,
      perPage: number,
    ): Promise<{ subscribers: SubscriberRecord[]; page: PageInfo }> {
      const { rows, page: info } = await inState({ state }, page, perPage);
      return { subscribers: rows.map(toSubscriber), page: info };
    },

    /** How many addresses are in each state. */
    async counts(): Promise<Record<SubscriberState, number>> {
      const rows = await db
        .select({ state: subscribers.state, n: sql<number>`count(*)::int` })
        .from(subscribers)
        .groupBy(subscribers.state);
      const counts = Object.fromEntries(subscriberStates.values.map((s) => [s, 0])) as Record<SubscriberState, number>;
      for (const r of rows) counts[r.state] = r.n;
      return counts;
    },

    /** Every address with its state and dates (the CSV export), newest signup first. */
    async all(): Promise<SubscriberRecord[]> {
      return (
        await db.select().from(subscribers).orderBy(desc(subscribers.subscribedAt), asc(subscribers.subemail))
      ).map(toSubscriber);
    },
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;

/** Forgets a person's newsletter signups (decision 086): the subscriber rows of any of their addresses, any case. */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  if (!person.emails.length) return;
  await tx.delete(subscribers).where(sql`lower(${subscribers.subemail}) = any(${sql.param(person.emails)}::text[])`);
}
