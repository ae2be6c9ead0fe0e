import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { textToHtml, type NewsletterState } from "#domain/newsletters.ts";
import { parseWith } from "#domain/validation.ts";
import { articles, newsletterRecipients, newsletters } from "#server/db/schema.ts";
import { cleanHtml } from "#server/lib/clean-html.ts";
import { AppError, badRequest, conflict } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { jobKey } from "../jobs";
import { audienceCount, begin } from "./audience";
import { mailFor, variants } from "./draw";
import {
  NEWSLETTER_ENTITY,
  NEWSLETTER_NO_AUDIENCE,
  NEWSLETTER_QUEUE,
  newsletterDraftSchema,
  newsletterSendSchema,
  type NewslettersContext,
} from "./model";
import { row } from "./queries";

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

/** A draft's fields from its input: a published article checked, a standalone body cleaned. */
async function draftValues({ db }: NewslettersContext, input: unknown) {
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

export async function create(ctx: NewslettersContext, input: unknown, viewer: Actor): Promise<string> {
  const values = await draftValues(ctx, input);
  const at = ctx.now();
  return audited(ctx.db, viewer, NEWSLETTER_ENTITY, async (tx, audit) => {
    const [created] = await tx
      .insert(newsletters)
      .values({ ...values, createdBy: viewer.email, createdAt: at, updatedAt: at })
      .returning({ id: newsletters.id });
    await audit.created(created!.id, loggedNewsletter({ ...values, state: "draft" }));
    return created!.id;
  });
}

/** Changes a draft; a newsletter that is scheduled or sent is no longer a draft (409). */
export async function update(
  ctx: NewslettersContext,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  const before = await row(ctx, id);
  const values = await draftValues(ctx, input);
  return audited(ctx.db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
    const done = await tx
      .update(newsletters)
      .set({ ...values, updatedAt: ctx.now() })
      .where(and(eq(newsletters.id, id), eq(newsletters.state, "draft")))
      .returning({ id: newsletters.id });
    if (!done.length) throw conflict("This newsletter is no longer a draft: it cannot be changed.");
    await audit.updated(id, loggedNewsletter(before), loggedNewsletter(values));
    return { modified: true };
  });
}

/** Deletes a draft (a newsletter that went out stays, with its recipients). */
export async function remove(ctx: NewslettersContext, id: string, actor: Actor): Promise<void> {
  const before = await row(ctx, id);
  await audited(ctx.db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
    const done = await tx
      .delete(newsletters)
      .where(and(eq(newsletters.id, id), eq(newsletters.state, "draft")))
      .returning({ id: newsletters.id });
    if (!done.length) throw conflict("Only a draft can be deleted.");
    await audit.deleted(id, loggedNewsletter(before));
  });
}

/** "Send a test to me": the members' version to the signed-in staff member only; no recipient row, no count. */
export async function sendTest(
  ctx: NewslettersContext,
  id: string,
  viewer: { email: string },
): Promise<{ queued: boolean }> {
  const n = await row(ctx, id);
  const drawn = await variants(ctx, n);
  const mail = mailFor(drawn.member, viewer.email, ctx.url("/newsletters"), `<nl-test-${randomUUID()}@${ctx.domain}>`);
  const test = { ...mail, subject: `[Test] ${mail.subject}`, headers: undefined };
  const queued = await ctx.jobs.queueMail(ctx.db, test, jobKey("newsletter-test", id, randomUUID()));
  return { queued };
}

/**
 * Sends now or at a time: one transaction moves the draft to sending (or scheduled) by a conditional update, so
 * a double click or two staff at once start it once (the other gets 409). Sending now expands the audience in the
 * same transaction; an empty audience is refused and nothing changes.
 */
export async function send(
  ctx: NewslettersContext,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ state: NewsletterState; recipients: number }> {
  const parsed = parseWith(newsletterSendSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const at = ctx.now();
  const when = parsed.data.at;
  if (when && when.getTime() <= at.getTime())
    throw badRequest([{ field: "at", message: "The time to send is in the past. Choose a later time." }]);
  await row(ctx, id);
  return audited(ctx.db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
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
      const reach = await audienceCount(ctx, moved.audience, tx);
      if (!reach) throw new AppError(400, NEWSLETTER_NO_AUDIENCE);
      return { state: "scheduled" as const, recipients: reach };
    }
    const recipients = await begin(ctx, tx, moved, at);
    if (!recipients) throw new AppError(400, NEWSLETTER_NO_AUDIENCE);
    return { state: "sending" as const, recipients };
  });
}

/** A scheduled newsletter back to a draft (before its time). */
export async function unschedule(ctx: NewslettersContext, id: string, actor: Actor): Promise<void> {
  const before = await row(ctx, id);
  await audited(ctx.db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
    const done = await tx
      .update(newsletters)
      .set({ state: "draft", sendAt: null, updatedAt: ctx.now() })
      .where(and(eq(newsletters.id, id), eq(newsletters.state, "scheduled")))
      .returning({ id: newsletters.id });
    if (!done.length) throw conflict("This newsletter is not scheduled.");
    await audit.updated(
      id,
      { state: before.state, sendAt: before.sendAt?.toISOString() ?? null },
      { state: "draft", sendAt: null },
    );
  });
}

/** "Retry the failed ones": those SMTP refused go back to the queue; nobody already sent is mailed again. */
export async function retryFailed(ctx: NewslettersContext, id: string, actor: Actor): Promise<{ retried: number }> {
  await row(ctx, id);
  return audited(ctx.db, actor, NEWSLETTER_ENTITY, async (tx, audit) => {
    const [moved] = await tx
      .update(newsletters)
      .set({ state: "sending", finishedAt: null, updatedAt: ctx.now() })
      .where(and(eq(newsletters.id, id), eq(newsletters.state, "partly-sent")))
      .returning({ id: newsletters.id });
    if (!moved) throw conflict("Only a partly sent newsletter has failed recipients to retry.");
    const retried = await tx
      .update(newsletterRecipients)
      .set({ status: "queued", attemptId: null, error: null })
      .where(and(eq(newsletterRecipients.newsletterId, id), eq(newsletterRecipients.status, "failed")))
      .returning({ address: newsletterRecipients.address });
    await ctx.jobs.send(NEWSLETTER_QUEUE, { newsletterId: id }, { singletonKey: id, tx });
    await audit.updated(id, { state: "partly-sent" }, { state: "sending", retried: retried.length });
    return { retried: retried.length };
  });
}
