import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import {
  finishedState,
  NEWSLETTER_BATCH,
  NEWSLETTER_IN_FLIGHT,
  paceMs,
  recipientMessageId,
} from "#domain/newsletters.ts";
import { newsletterRecipients, newsletters } from "#server/db/schema.ts";
import { isId } from "#server/lib/errors.ts";
import { begin, notSuppressed } from "./audience";
import { mailFor, unsubscribeUrlOf, variants, type Drawn } from "./draw";
import { NEWSLETTER_QUEUE, type NewslettersContext } from "./model";
import { counts } from "./queries";

/** How long one job hands mails to SMTP before it queues the next and lets go (well inside its 15 minutes). */
const JOB_BUDGET_MS = 60_000;

/** A recipient row claimed by a job's attempt. */
type Claimed = {
  address: string;
  id: string;
  member: boolean;
  subscriber_id: string | null;
};

/** What SMTP answered for one recipient's mail. */
interface Delivery {
  address: string;
  error: (Error & { responseCode?: number }) | undefined;
}

const journalOf = ({ journalDir }: NewslettersContext, id: string) => path.join(journalDir, `${id}.accepted`);

/** Notes a recipient's mail as taken by SMTP: synchronous, so nothing runs between SMTP's answer and the note. */
const noteAccepted = (ctx: NewslettersContext, id: string, recipientId: string) => {
  mkdirSync(ctx.journalDir, { recursive: true, mode: 0o700 });
  appendFileSync(journalOf(ctx, id), `${recipientId}\n`);
};

const acceptedOf = (ctx: NewslettersContext, id: string): Set<string> => {
  try {
    return new Set(readFileSync(journalOf(ctx, id), "utf8").split("\n").filter(Boolean));
  } catch {
    return new Set();
  }
};

// ── The sending job ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * One job of a newsletter's send: rows left `sending` by a dead attempt go back to the queue first (their mail was
 * in flight when the app died: sent again with the same Message-ID), then batches of NEWSLETTER_BATCH rows are
 * claimed (FOR UPDATE SKIP LOCKED), each row moved to `sending` by a conditional update just before its mail goes
 * to SMTP and to `sent` just after, at the configured rate. After JOB_BUDGET_MS the next job is queued; when no row
 * waits, the newsletter is sent (or partly sent).
 */
export async function runJob(ctx: NewslettersContext, data: unknown): Promise<void> {
  const { db, jobs } = ctx;
  const id = (data as { newsletterId?: unknown } | null)?.newsletterId;
  if (typeof id !== "string" || !isId(id)) return;
  const [n] = await db.select().from(newsletters).where(eq(newsletters.id, id));
  if (!n || n.state !== "sending") return;
  await settleInDoubt(ctx, id);
  const drawn = await variants(ctx, n);
  const started = Date.now();
  const attempt = randomUUID();
  for (;;) {
    if (Date.now() - started > JOB_BUDGET_MS) {
      await jobs.send(NEWSLETTER_QUEUE, { newsletterId: id }, { singletonKey: id });
      return;
    }
    const batch = await claimBatch(ctx, id, attempt);
    if (!batch.length) break;
    const open = await withoutSuppressed(ctx, id, attempt, batch);
    for (let at = 0; at < open.length; at += NEWSLETTER_IN_FLIGHT) {
      await sendGroup(ctx, id, attempt, drawn, open.slice(at, at + NEWSLETTER_IN_FLIGHT));
    }
  }
  await finish(ctx, id);
}

/**
 * One job runs per newsletter (the queue's singleton key): a row still `sending` is a dead attempt's. Its mail was in
 * flight at a crash: sent if this host noted SMTP's acceptance, else queued again (same Message-ID).
 */
async function settleInDoubt(ctx: NewslettersContext, id: string): Promise<void> {
  const { db, logger, now } = ctx;
  const inDoubt = await db
    .select({ address: newsletterRecipients.address, id: newsletterRecipients.id })
    .from(newsletterRecipients)
    .where(and(eq(newsletterRecipients.newsletterId, id), eq(newsletterRecipients.status, "sending")));
  if (!inDoubt.length) return;
  const accepted = acceptedOf(ctx, id);
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

/** The next NEWSLETTER_BATCH queued rows, claimed for this attempt (FOR UPDATE SKIP LOCKED). */
async function claimBatch({ db }: NewslettersContext, id: string, attempt: string): Promise<Claimed[]> {
  const { rows: batch } = await db.execute<Claimed>(sql`
    with batch as (
      select newsletter_id, address from newsletter_recipients
      where newsletter_id = ${id} and status = 'queued'
      limit ${NEWSLETTER_BATCH}
      for update skip locked)
    update newsletter_recipients r set attempt_id = ${attempt}
    from batch where r.newsletter_id = batch.newsletter_id and r.address = batch.address
    returning r.address, r.id, r.member, r.subscriber_id`);
  return batch;
}

/** Addresses suppressed since the audience was expanded are never sent to (checked again per mail in sendGroup). */
async function withoutSuppressed(
  { db }: NewslettersContext,
  id: string,
  attempt: string,
  batch: Claimed[],
): Promise<Claimed[]> {
  const { rows: suppressed } = await db.execute<{ address: string }>(sql`
    update newsletter_recipients r set status = 'suppressed'
    where r.newsletter_id = ${id} and r.address in (${sql.join(
      batch.map((b) => sql`${b.address}`),
      sql`, `,
    )})
      and r.attempt_id = ${attempt} and r.status = 'queued' and not ${notSuppressed(sql`r.address`)}
    returning r.address`);
  if (!suppressed.length) return batch;
  const gone = new Set(suppressed.map((r) => r.address));
  return batch.filter((r) => !gone.has(r.address));
}

/** Up to NEWSLETTER_IN_FLIGHT mails at once, their answers recorded, then a pause that keeps the configured rate. */
async function sendGroup(
  ctx: NewslettersContext,
  id: string,
  attempt: string,
  drawn: Drawn,
  group: Claimed[],
): Promise<void> {
  const t0 = Date.now();
  const results = await deliverGroup(ctx, id, attempt, drawn, group);
  await recordDeliveries(ctx, id, results);
  const wait = paceMs(ctx.ratePerMinute / group.length, Date.now() - t0);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Moves the group's rows to `sending` and hands their mails to SMTP, each noted in the journal once taken. */
async function deliverGroup(
  ctx: NewslettersContext,
  id: string,
  attempt: string,
  drawn: Drawn,
  group: Claimed[],
): Promise<Delivery[]> {
  // The gate: only the attempt that claimed them, only while queued, only if not suppressed meanwhile.
  const { rows: claimed } = await ctx.db.execute<{ address: string }>(sql`
    update newsletter_recipients r set status = 'sending', attempts = attempts + 1
    where r.newsletter_id = ${id} and r.status = 'queued' and r.attempt_id = ${attempt}
      and r.address in (${sql.join(
        group.map((g) => sql`${g.address}`),
        sql`, `,
      )})
      and ${notSuppressed(sql`r.address`)}
    returning r.address`);
  const going = new Set(claimed.map((c) => c.address));
  return Promise.all(
    group
      .filter((r) => going.has(r.address))
      .map(async (r) => {
        const mail = mailFor(
          r.member ? drawn.member : drawn.other,
          r.address,
          unsubscribeUrlOf(ctx, { id: r.id, subscriberId: r.subscriber_id }),
          recipientMessageId(id, r.id, ctx.domain),
        );
        try {
          await ctx.mailer.deliverBulk(mail);
          noteAccepted(ctx, id, r.id);
          return { address: r.address, error: undefined };
        } catch (error) {
          return { address: r.address, error: error as Error & { responseCode?: number } };
        }
      }),
  );
}

/** The group's rows as SMTP answered: sent, failed for good (5xx), or back in the queue (throws: the job retries). */
async function recordDeliveries({ db, now }: NewslettersContext, id: string, results: Delivery[]): Promise<void> {
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
}

/** Sent or partly sent once no recipient waits (a conditional update: one job finishes it). */
async function finish(ctx: NewslettersContext, id: string): Promise<void> {
  const { db, now } = ctx;
  const c = await counts(ctx, id);
  const state = finishedState(c);
  if (!state) return;
  await db
    .update(newsletters)
    .set({ state, finishedAt: now(), updatedAt: now() })
    .where(and(eq(newsletters.id, id), eq(newsletters.state, "sending")));
  rmSync(journalOf(ctx, id), { force: true });
}

/**
 * Every minute: scheduled newsletters whose time has come start (once: the conditional update), and every
 * newsletter still sending gets a job if none waits (a chain broken by a crash between two jobs goes on).
 */
export async function tick(ctx: NewslettersContext): Promise<void> {
  const { db, jobs, now } = ctx;
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
      if (moved) await begin(ctx, tx, moved, at);
    });
  }
  const sending = await db
    .select({ id: newsletters.id })
    .from(newsletters)
    .where(eq(newsletters.state, "sending"))
    .limit(100);
  for (const n of sending) await jobs.send(NEWSLETTER_QUEUE, { newsletterId: n.id }, { singletonKey: n.id });
}
