import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { articleView } from "#domain/article-access.ts";
import { MEMBERS_MARKER } from "#domain/articles.ts";
import {
  finishedState,
  NEWSLETTER_AUDIENCES,
  NEWSLETTER_BATCH,
  NEWSLETTER_IN_FLIGHT,
  paceMs,
  recipientMessageId,
  textToHtml,
  type NewsletterAudience,
  type NewsletterState,
  type RecipientCounts,
} from "#domain/newsletters.ts";
import { ERASED_DOMAIN, type Person } from "#domain/privacy.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { articles, newsletterRecipients, newsletters } from "../db/schema";
import { cleanHtml } from "../lib/clean-html";
import { AppError, badRequest, conflict, isId, notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { pageOf } from "../lib/paging";
import { absoluteUrl } from "../mail/brand";
import { renderNewsletter, UNSUBSCRIBE_PLACEHOLDER } from "../mail/templates/newsletter";
import { audited, type Actor } from "./activity";
import { jobKey, type JobsService, type Tx } from "./jobs";
import type { Mail, Mailer } from "./mailer";
import type { MailsService } from "./mails";
import { unsubscribeHeaders, unsubscribePath } from "./newsletter";
import { unsubscribeToken } from "./newsletter-tokens";

/** The queue a newsletter's batches run on, one job waiting and one running per newsletter. */
export const NEWSLETTER_QUEUE = "newsletter-send";
/** The activity log's name for a newsletter: staff's changes to one (written, scheduled, sent, deleted) are logged. */
export const NEWSLETTER_ENTITY = "newsletter";

/** What the log keeps of a newsletter: its fields, the message as its length (the newsletter keeps the text). */
function loggedNewsletter(n: {
  subject: string;
  previewText: string;
  articleId: string | null;
  bodyHtml: string;
  audience: string[];
  state?: string;
  sendAt?: Date | null;
}): Record<string, unknown> {
  return {
    subject: n.subject,
    previewText: n.previewText,
    articleId: n.articleId,
    bodyHtml: n.bodyHtml ? `${n.bodyHtml.length} characters` : "",
    audience: n.audience,
    ...(n.state ? { state: n.state } : {}),
    ...(n.sendAt !== undefined ? { sendAt: n.sendAt?.toISOString() ?? null } : {}),
  };
}
/** How long one job hands mails to SMTP before it queues the next and lets go (well inside its 15 minutes). */
const JOB_BUDGET_MS = 60_000;
const MAX_SUBJECT = 200;
const MAX_PREVIEW = 200;
const MAX_BODY_TEXT = 100_000;

export const NEWSLETTER_NO_AUDIENCE = "Nobody in this audience can be mailed.";

const audienceSchema = z.preprocess(
  (v) => (typeof v === "string" ? [v] : v),
  z
    .array(z.enum(NEWSLETTER_AUDIENCES, { error: "Audience must be subscribers, members or customers" }))
    .min(1, { error: "Choose at least one audience" })
    .max(3)
    .transform((a) => [...new Set(a)]),
);

/** A draft: its subject and preview, from an article or a standalone body (plain text or the editor's HTML). */
export const newsletterDraftSchema = z
  .object({
    subject: z
      .string({ error: "Subject is required" })
      .trim()
      .min(1, { error: "Subject is required" })
      .max(MAX_SUBJECT, { error: `Subject must be at most ${MAX_SUBJECT} characters` }),
    previewText: z
      .string()
      .trim()
      .max(MAX_PREVIEW, { error: `Preview text must be at most ${MAX_PREVIEW} characters` })
      .optional()
      .transform((v) => v ?? ""),
    articleId: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || isId(v), { error: "Choose a published article" }),
    /** Plain text, made into paragraphs. */
    bodyText: z
      .string()
      .max(MAX_BODY_TEXT, { error: `The message must be at most ${MAX_BODY_TEXT} characters` })
      .optional(),
    /** Rich text from the editor, cleaned on the server. */
    bodyHtml: z
      .string()
      .max(MAX_BODY_TEXT * 2, { error: "The message is too long" })
      .optional(),
    audience: audienceSchema,
  })
  .refine((d) => d.articleId || (d.bodyText ?? "").trim() || (d.bodyHtml ?? "").trim(), {
    error: "Choose an article or write a message",
    path: ["articleId"],
  });

/** "Send now" (no `at`) or "Send at" a time (ISO, or the form's site-time value converted by the page). */
export const newsletterSendSchema = z.object({
  at: z
    .union([z.string().trim(), z.null()])
    .optional()
    .transform((v) => (v ? new Date(v) : null))
    .refine((d) => d === null || !Number.isNaN(d.getTime()), { error: "The time to send is not a valid date" }),
});

export const newsletterAudienceSchema = z.object({ audience: audienceSchema });

export interface NewsletterRecord {
  _id: string;
  subject: string;
  previewText: string;
  articleId: string | null;
  articleTitle: string | null;
  bodyHtml: string;
  audience: NewsletterAudience[];
  state: NewsletterState;
  sendAt: string | null;
  createdBy: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  counts: RecipientCounts & { unsubscribed: number };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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

const notSuppressed = (address: SQL) => sql`not exists (select 1 from suppressions x where x.address = ${address})`;

/**
 * Newsletters (issue 36, part 4): drafts, test sends, and the send itself. A send starts once (a conditional update of
 * the state), expands its audience in SQL into one recipient row per address, and a job on the queue hands the mails
 * to SMTP one at a time at NEWSLETTER_RATE_PER_MINUTE, marking each row `sending` (with the attempt's id) before and
 * `sent` after. The only writer of newsletters and newsletter_recipients.
 */
export function createNewslettersService(deps: {
  db: Db;
  jobs: Pick<JobsService, "queueMail" | "worker" | "send" | "every">;
  mails: Pick<MailsService, "brand">;
  mailer: Pick<Mailer, "deliverBulk">;
  secret: string;
  publicUrl: string;
  mailFrom: string;
  ratePerMinute: number;
  /**
   * Where this host notes each mail SMTP accepted, the moment it answers (DATA_DIR/newsletters/<id>.accepted): a kill
   * -9 cannot lose what was appended, so after a restart on this host a row left `sending` whose mail SMTP had taken
   * is known to be sent and is not sent again.
   */
  journalDir: string;
  logger: Logger;
  now: () => Date;
}) {
  const { db, jobs, mails, mailer, secret, publicUrl, ratePerMinute, logger, now } = deps;
  const journalOf = (id: string) => path.join(deps.journalDir, `${id}.accepted`);
  /** Notes a recipient's mail as taken by SMTP: synchronous, so nothing runs between SMTP's answer and the note. */
  const noteAccepted = (id: string, recipientId: string) => {
    mkdirSync(deps.journalDir, { recursive: true, mode: 0o700 });
    appendFileSync(journalOf(id), `${recipientId}\n`);
  };
  const acceptedOf = (id: string): Set<string> => {
    try {
      return new Set(readFileSync(journalOf(id), "utf8").split("\n").filter(Boolean));
    } catch {
      return new Set();
    }
  };
  const url = (path: string) => absoluteUrl(publicUrl, path);
  const domain = /@([^>\s]+)>?\s*$/.exec(deps.mailFrom)?.[1] ?? new URL(publicUrl).hostname;

  async function row(id: string) {
    if (!isId(id)) throw notFound("No newsletter with this id.");
    const [found] = await db.select().from(newsletters).where(eq(newsletters.id, id));
    if (!found) throw notFound("No newsletter with this id.");
    return found;
  }

  async function counts(id: string): Promise<NewsletterRecord["counts"]> {
    const { rows } = await db.execute<{ status: string; n: number; unsubscribed: number }>(sql`
      select r.status, count(*)::int as n,
        count(*) filter (where exists (select 1 from suppressions x where x.address = r.address
          and x.reason = 'unsubscribe'))::int as unsubscribed
      from newsletter_recipients r where r.newsletter_id = ${id} group by r.status`);
    const c = { queued: 0, sending: 0, sent: 0, failed: 0, suppressed: 0, unsubscribed: 0 };
    for (const r of rows) {
      c[r.status as keyof RecipientCounts] = r.n;
      c.unsubscribed += r.unsubscribed;
    }
    return c;
  }

  async function toRecord(r: typeof newsletters.$inferSelect): Promise<NewsletterRecord> {
    const [article] = r.articleId
      ? await db.select({ title: articles.title }).from(articles).where(eq(articles.id, r.articleId))
      : [];
    return {
      _id: r.id,
      subject: r.subject,
      previewText: r.previewText,
      articleId: r.articleId,
      articleTitle: article?.title ?? null,
      bodyHtml: r.bodyHtml,
      audience: r.audience,
      state: r.state,
      sendAt: iso(r.sendAt),
      createdBy: r.createdBy,
      createdAt: r.createdAt.toISOString(),
      startedAt: iso(r.startedAt),
      finishedAt: iso(r.finishedAt),
      counts: await counts(r.id),
    };
  }

  /** A draft's fields from its input: a published article checked, a standalone body cleaned. */
  async function draftValues(input: unknown) {
    const parsed = parseWith(newsletterDraftSchema, input ?? {});
    if (!parsed.ok) throw badRequest(parsed.errors);
    const d = parsed.data;
    if (d.articleId) {
      const [article] = await db
        .select({ id: articles.id })
        .from(articles)
        .where(and(eq(articles.id, d.articleId), eq(articles.state, "published")));
      if (!article) throw badRequest([{ field: "articleId", message: "Choose a published article" }]);
    }
    const bodyHtml = d.articleId ? "" : cleanHtml(d.bodyHtml?.trim() ? d.bodyHtml : textToHtml(d.bodyText ?? ""));
    if (!d.articleId && !bodyHtml.trim())
      throw badRequest([{ field: "bodyText", message: "Choose an article or write a message" }]);
    return {
      subject: d.subject,
      previewText: d.previewText,
      articleId: d.articleId ?? null,
      bodyHtml,
      audience: d.audience,
    };
  }

  /** How many distinct addresses an audience reaches now, suppressed ones left out. */
  async function audienceCount(audience: NewsletterAudience[], reader: Tx | Db = db): Promise<number> {
    if (!audience.length) return 0;
    const at = now();
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
  async function begin(tx: Tx, n: typeof newsletters.$inferSelect, at: Date): Promise<number> {
    const recipients = await expand(tx, n.id, n.audience, at);
    await jobs.send(NEWSLETTER_QUEUE, { newsletterId: n.id }, { singletonKey: n.id, tx });
    return recipients;
  }

  // ── Drawing the mail ──────────────────────────────────────────────────────────────────────────────────────────

  const absolute = (html: string) =>
    html.replace(/(\s(?:src|href)=")\/(?!\/)/g, `$1${publicUrl.replace(/\/$/, "")}/`).replace(MEMBERS_MARKER, "<hr>");

  /** The mail's two variants (members, everyone else), drawn once per job with the unsubscribe link left open. */
  async function variants(n: typeof newsletters.$inferSelect) {
    const brand = await mails.brand();
    const [article] = n.articleId ? await db.select().from(articles).where(eq(articles.id, n.articleId)) : [];
    const draw = async (member: boolean) => {
      if (!article) {
        return renderNewsletter(
          { subject: n.subject, preview: n.previewText, heading: n.subject, bodyHtml: absolute(n.bodyHtml) },
          brand,
        );
      }
      const view = articleView(article, {
        staff: false,
        membership: member
          ? { state: "active", packageName: "", expiresAt: new Date(8.64e15), daysLeft: 1 }
          : { state: "none" },
      });
      return renderNewsletter(
        {
          subject: n.subject,
          preview: n.previewText || article.excerpt,
          heading: article.title,
          bodyHtml: absolute(view.html || `<p>${escapeHtml(article.excerpt)}</p>`),
          readMore: { url: url(`/blog/${article.slug}`), locked: view.locked !== null },
        },
        brand,
      );
    };
    return { member: await draw(true), other: await draw(false) };
  }

  /** A recipient's own unsubscribe link: the subscriber's (decision 024) or, for anyone else, their recipient row's. */
  const unsubscribeUrlOf = (r: { id: string; subscriberId: string | null }) =>
    url(unsubscribePath(unsubscribeToken(secret, r.subscriberId ?? r.id)));

  function mailFor(
    drawn: { subject: string; html: string; text: string },
    to: string,
    unsubscribe: string,
    messageId: string,
  ): Mail {
    return {
      to,
      subject: drawn.subject,
      html: drawn.html.split(UNSUBSCRIBE_PLACEHOLDER).join(escapeHtml(unsubscribe)),
      text: drawn.text.split(UNSUBSCRIBE_PLACEHOLDER).join(unsubscribe),
      headers: unsubscribeHeaders(unsubscribe),
      messageId,
    };
  }

  // ── The sending job ───────────────────────────────────────────────────────────────────────────────────────────

  /**
   * One job of a newsletter's send: rows left `sending` by a dead attempt go back to the queue first (their mail was
   * in flight when the app died: sent again with the same Message-ID), then batches of NEWSLETTER_BATCH rows are
   * claimed (FOR UPDATE SKIP LOCKED), each row moved to `sending` by a conditional update just before its mail goes
   * to SMTP and to `sent` just after, at the configured rate. After JOB_BUDGET_MS the next job is queued; when no row
   * waits, the newsletter is sent (or partly sent).
   */
  async function runJob(data: unknown): Promise<void> {
    const id = (data as { newsletterId?: unknown } | null)?.newsletterId;
    if (typeof id !== "string" || !isId(id)) return;
    const [n] = await db.select().from(newsletters).where(eq(newsletters.id, id));
    if (!n || n.state !== "sending") return;
    // One job runs per newsletter (the queue's singleton key): a row still `sending` is a dead attempt's. Its mail
    // was in flight at a crash: sent if this host noted SMTP's acceptance, else queued again (same Message-ID).
    const inDoubt = await db
      .select({ address: newsletterRecipients.address, id: newsletterRecipients.id })
      .from(newsletterRecipients)
      .where(and(eq(newsletterRecipients.newsletterId, id), eq(newsletterRecipients.status, "sending")));
    if (inDoubt.length) {
      const accepted = acceptedOf(id);
      const taken = inDoubt.filter((r) => accepted.has(r.id)).map((r) => r.address);
      const again = inDoubt.filter((r) => !accepted.has(r.id)).map((r) => r.address);
      if (taken.length)
        await db
          .update(newsletterRecipients)
          .set({ status: "sent", sentAt: now(), error: null })
          .where(and(eq(newsletterRecipients.newsletterId, id), inArray(newsletterRecipients.address, taken)));
      if (again.length)
        await db
          .update(newsletterRecipients)
          .set({ status: "queued", attemptId: null })
          .where(and(eq(newsletterRecipients.newsletterId, id), inArray(newsletterRecipients.address, again)));
      logger.warn(
        { newsletter: id, accepted: taken.length, again: again.length },
        "newsletter mails in flight at a crash: those SMTP took are sent, the others go again",
      );
    }
    const drawn = await variants(n);
    const started = Date.now();
    const attempt = randomUUID();
    for (;;) {
      if (Date.now() - started > JOB_BUDGET_MS) {
        await jobs.send(NEWSLETTER_QUEUE, { newsletterId: id }, { singletonKey: id });
        return;
      }
      const { rows: batch } = await db.execute<{
        address: string;
        id: string;
        member: boolean;
        subscriber_id: string | null;
      }>(sql`
        with batch as (
          select newsletter_id, address from newsletter_recipients
          where newsletter_id = ${id} and status = 'queued'
          limit ${NEWSLETTER_BATCH}
          for update skip locked)
        update newsletter_recipients r set attempt_id = ${attempt}
        from batch where r.newsletter_id = batch.newsletter_id and r.address = batch.address
        returning r.address, r.id, r.member, r.subscriber_id`);
      if (!batch.length) break;
      // Addresses suppressed since the audience was expanded are never sent to (checked again per mail below).
      const { rows: suppressed } = await db.execute<{ address: string }>(sql`
        update newsletter_recipients r set status = 'suppressed'
        where r.newsletter_id = ${id} and r.address in (${sql.join(
          batch.map((b) => sql`${b.address}`),
          sql`, `,
        )})
          and r.attempt_id = ${attempt} and r.status = 'queued' and not ${notSuppressed(sql`r.address`)}
        returning r.address`);
      if (suppressed.length) {
        const gone = new Set(suppressed.map((r) => r.address));
        batch.splice(0, batch.length, ...batch.filter((r) => !gone.has(r.address)));
      }
      for (let at = 0; at < batch.length; at += NEWSLETTER_IN_FLIGHT) {
        const t0 = Date.now();
        const group = batch.slice(at, at + NEWSLETTER_IN_FLIGHT);
        // The gate: only the attempt that claimed them, only while queued, only if not suppressed meanwhile.
        const { rows: claimed } = await db.execute<{ address: string }>(sql`
          update newsletter_recipients r set status = 'sending', attempts = attempts + 1
          where r.newsletter_id = ${id} and r.status = 'queued' and r.attempt_id = ${attempt}
            and r.address in (${sql.join(
              group.map((g) => sql`${g.address}`),
              sql`, `,
            )})
            and ${notSuppressed(sql`r.address`)}
          returning r.address`);
        const going = new Set(claimed.map((c) => c.address));
        const results = await Promise.all(
          group
            .filter((r) => going.has(r.address))
            .map(async (r) => {
              const mail = mailFor(
                r.member ? drawn.member : drawn.other,
                r.address,
                unsubscribeUrlOf({ id: r.id, subscriberId: r.subscriber_id }),
                recipientMessageId(id, r.id, domain),
              );
              try {
                await mailer.deliverBulk(mail);
                noteAccepted(id, r.id);
                return { address: r.address, error: undefined };
              } catch (error) {
                return { address: r.address, error: error as Error & { responseCode?: number } };
              }
            }),
        );
        const ok = results.filter((r) => !r.error).map((r) => r.address);
        if (ok.length)
          await db
            .update(newsletterRecipients)
            .set({ status: "sent", sentAt: now(), error: null })
            .where(
              and(
                eq(newsletterRecipients.newsletterId, id),
                inArray(newsletterRecipients.address, ok),
                eq(newsletterRecipients.status, "sending"),
              ),
            );
        let transient: Error | undefined;
        for (const r of results) {
          if (!r.error) continue;
          const where = and(eq(newsletterRecipients.newsletterId, id), eq(newsletterRecipients.address, r.address));
          if (r.error.responseCode !== undefined && r.error.responseCode >= 500) {
            // Refused for good (no such mailbox): failed, with SMTP's reason; "Retry the failed ones" tries again.
            await db
              .update(newsletterRecipients)
              .set({ status: "failed", error: String(r.error.message).slice(0, 500) })
              .where(where);
          } else {
            // SMTP unreachable or busy (4xx): back in the queue; the job fails and pg-boss retries it with backoff.
            await db.update(newsletterRecipients).set({ status: "queued", attemptId: null }).where(where);
            transient = r.error;
          }
        }
        if (transient) throw transient;
        const wait = paceMs(ratePerMinute / group.length, Date.now() - t0);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    await finish(id);
  }

  /** Sent or partly sent once no recipient waits (a conditional update: one job finishes it). */
  async function finish(id: string): Promise<void> {
    const c = await counts(id);
    const state = finishedState(c);
    if (!state) return;
    await db
      .update(newsletters)
      .set({ state, finishedAt: now(), updatedAt: now() })
      .where(and(eq(newsletters.id, id), eq(newsletters.state, "sending")));
    rmSync(journalOf(id), { force: true });
  }

  /**
   * Every minute: scheduled newsletters whose time has come start (once: the conditional update), and every
   * newsletter still sending gets a job if none waits (a chain broken by a crash between two jobs goes on).
   */
  async function tick(): Promise<void> {
    const at = now();
    const due = await db
      .select()
      .from(newsletters)
      .where(and(eq(newsletters.state, "scheduled"), sql`${newsletters.sendAt} <= ${at}`))
      .limit(20);
    for (const n of due) {
      await db.transaction(async (tx) => {
        const [moved] = await tx
          .update(newsletters)
          .set({ state: "sending", startedAt: at, updatedAt: at })
          .where(and(eq(newsletters.id, n.id), eq(newsletters.state, "scheduled")))
          .returning();
        if (moved) await begin(tx, moved, at);
      });
    }
    const sending = await db
      .select({ id: newsletters.id })
      .from(newsletters)
      .where(eq(newsletters.state, "sending"))
      .limit(100);
    for (const n of sending) await jobs.send(NEWSLETTER_QUEUE, { newsletterId: n.id }, { singletonKey: n.id });
  }

  jobs.worker(NEWSLETTER_QUEUE, runJob, { title: "Newsletter: the next mails handed to SMTP" });
  jobs.every("newsletters-due", "* * * * *", tick, { title: "Newsletters: scheduled sends start, stopped ones go on" });

  return {
    audienceCount,
    tick,
    /** The published articles a newsletter can be drawn from, newest first (the form's choice). */
    async publishedArticles(): Promise<{ id: string; title: string }[]> {
      return db
        .select({ id: articles.id, title: articles.title })
        .from(articles)
        .where(eq(articles.state, "published"))
        .orderBy(desc(articles.publishedAt), desc(articles.id))
        .limit(200);
    },
    /** One newsletter with its recipients' counts. */
    async get(id: string): Promise<NewsletterRecord> {
      return toRecord(await row(id));
    },

    /** One page of newsletters, newest first. */
    async list(page: unknown, perPage: number): Promise<{ newsletters: NewsletterRecord[]; page: PageInfo }> {
      const { rows, page: info } = await pageOf(db, newsletters, {
        orderBy: [desc(newsletters.createdAt), desc(newsletters.id)],
        page,
        perPage,
      });
      return { newsletters: await Promise.all(rows.map(toRecord)), page: info };
    },

    /** How many distinct addresses an audience reaches now (the form's live count). */
    async count(input: unknown): Promise<{ count: number }> {
      const parsed = parseWith(newsletterAudienceSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      return { count: await audienceCount(parsed.data.audience) };
    },

    async create(input: unknown, viewer: Actor): Promise<string> {
      const values = await draftValues(input);
      const at = now();
      return audited(db, viewer, NEWSLETTER_ENTITY, async (tx, audit) => {
        const [created] = await tx
          .insert(newsletters)
          .values({ ...values, createdBy: viewer.email, createdAt: at, updatedAt: at })
          .returning({ id: newsletters.id });
        await audit.created(created!.id, loggedNewsletter({ ...values, state: "draft" }));
        return created!.id;
      });
    },

    /** Changes a draft; a newsletter that is scheduled or sent is no longer a draft (409). */
    async update(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      const before = await row(id);
      const values = await draftValues(input);
      return audited(db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
        const done = await tx
          .update(newsletters)
          .set({ ...values, updatedAt: now() })
          .where(and(eq(newsletters.id, id), eq(newsletters.state, "draft")))
          .returning({ id: newsletters.id });
        if (!done.length) throw conflict("This newsletter is no longer a draft: it cannot be changed.");
        await audit.updated(id, loggedNewsletter(before), loggedNewsletter(values));
        return { modified: true };
      });
    },

    /** Deletes a draft (a newsletter that went out stays, with its recipients). */
    async remove(id: string, actor: Actor): Promise<void> {
      const before = await row(id);
      await audited(db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
        const done = await tx
          .delete(newsletters)
          .where(and(eq(newsletters.id, id), eq(newsletters.state, "draft")))
          .returning({ id: newsletters.id });
        if (!done.length) throw conflict("Only a draft can be deleted.");
        await audit.deleted(id, loggedNewsletter(before));
      });
    },

    /** "Send a test to me": the members' version to the signed-in staff member only; no recipient row, no count. */
    async sendTest(id: string, viewer: { email: string }): Promise<{ queued: boolean }> {
      const n = await row(id);
      const drawn = await variants(n);
      const mail = mailFor(drawn.member, viewer.email, url("/newsletters"), `<nl-test-${randomUUID()}@${domain}>`);
      const test = { ...mail, subject: `[Test] ${mail.subject}`, headers: undefined };
      const queued = await jobs.queueMail(db, test, jobKey("newsletter-test", id, randomUUID()));
      return { queued };
    },

    /**
     * Sends now or at a time: one transaction moves the draft to sending (or scheduled) by a conditional update, so
     * a double click or two staff at once start it once (the other gets 409). Sending now expands the audience in the
     * same transaction; an empty audience is refused and nothing changes.
     */
    async send(id: string, input: unknown, actor: Actor): Promise<{ state: NewsletterState; recipients: number }> {
      const parsed = parseWith(newsletterSendSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const at = now();
      const when = parsed.data.at;
      if (when && when.getTime() <= at.getTime())
        throw badRequest([{ field: "at", message: "The time to send is in the past. Choose a later time." }]);
      await row(id);
      return audited(db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
        const [moved] = await tx
          .update(newsletters)
          .set(
            when
              ? { state: "scheduled", sendAt: when, updatedAt: at }
              : { state: "sending", sendAt: null, startedAt: at, updatedAt: at },
          )
          .where(and(eq(newsletters.id, id), eq(newsletters.state, "draft")))
          .returning();
        if (!moved) throw conflict("This newsletter is already scheduled or sent: it is sent once.");
        await audit.updated(
          id,
          { state: "draft", sendAt: null },
          { state: moved.state, sendAt: when?.toISOString() ?? null },
        );
        if (when) {
          const reach = await audienceCount(moved.audience, tx);
          if (!reach) throw new AppError(400, NEWSLETTER_NO_AUDIENCE);
          return { state: "scheduled" as const, recipients: reach };
        }
        const recipients = await begin(tx, moved, at);
        if (!recipients) throw new AppError(400, NEWSLETTER_NO_AUDIENCE);
        return { state: "sending" as const, recipients };
      });
    },

    /** A scheduled newsletter back to a draft (before its time). */
    async unschedule(id: string, actor: Actor): Promise<void> {
      const before = await row(id);
      await audited(db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
        const done = await tx
          .update(newsletters)
          .set({ state: "draft", sendAt: null, updatedAt: now() })
          .where(and(eq(newsletters.id, id), eq(newsletters.state, "scheduled")))
          .returning({ id: newsletters.id });
        if (!done.length) throw conflict("This newsletter is not scheduled.");
        await audit.updated(
          id,
          { state: before.state, sendAt: before.sendAt?.toISOString() ?? null },
          { state: "draft", sendAt: null },
        );
      });
    },

    /** "Retry the failed ones": those SMTP refused go back to the queue; nobody already sent is mailed again. */
    async retryFailed(id: string, actor: Actor): Promise<{ retried: number }> {
      await row(id);
      return audited(db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
        const [moved] = await tx
          .update(newsletters)
          .set({ state: "sending", finishedAt: null, updatedAt: now() })
          .where(and(eq(newsletters.id, id), eq(newsletters.state, "partly-sent")))
          .returning({ id: newsletters.id });
        if (!moved) throw conflict("Only a partly sent newsletter has failed recipients to retry.");
        const retried = await tx
          .update(newsletterRecipients)
          .set({ status: "queued", attemptId: null, error: null })
          .where(and(eq(newsletterRecipients.newsletterId, id), eq(newsletterRecipients.status, "failed")))
          .returning({ address: newsletterRecipients.address });
        await jobs.send(NEWSLETTER_QUEUE, { newsletterId: id }, { singletonKey: id, tx });
        await audit.updated(id, { state: "partly-sent" }, { state: "sending", retried: retried.length });
        return { retried: retried.length };
      });
    },

    /** The address a non-subscriber's unsubscribe link names (its recipient row), or null. */
    async recipientAddress(recipientId: string): Promise<string | null> {
      const [r] = await db
        .select({ address: newsletterRecipients.address })
        .from(newsletterRecipients)
        .where(eq(newsletterRecipients.id, recipientId));
      return r?.address ?? null;
    },
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

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
