import { desc, eq, sql } from "drizzle-orm";
import type { RecipientCounts } from "#domain/newsletters.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { parseWith } from "#domain/validation.ts";
import { articles, newsletterRecipients, newsletters } from "#server/db/schema.ts";
import { badRequest, isId, notFound } from "#server/lib/errors.ts";
import { pageOf } from "#server/lib/paging.ts";
import { audienceCount } from "./audience";
import { newsletterAudienceSchema, type NewsletterRecord, type NewslettersContext } from "./model";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function row({ db }: NewslettersContext, id: string) {
  if (!isId(id)) throw notFound("No newsletter with this id.");
  const [found] = await db.select().from(newsletters).where(eq(newsletters.id, id));
  if (!found) throw notFound("No newsletter with this id.");
  return found;
}

export async function counts({ db }: NewslettersContext, id: string): Promise<NewsletterRecord["counts"]> {
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

async function toRecord(ctx: NewslettersContext, r: typeof newsletters.$inferSelect): Promise<NewsletterRecord> {
  const [article] = r.articleId
    ? await ctx.db.select({ title: articles.title }).from(articles).where(eq(articles.id, r.articleId))
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
    counts: await counts(ctx, r.id),
  };
}

/** The published articles a newsletter can be drawn from, newest first (the form's choice). */
export async function publishedArticles({ db }: NewslettersContext): Promise<{ id: string; title: string }[]> {
  return db
    .select({ id: articles.id, title: articles.title })
    .from(articles)
    .where(eq(articles.state, "published"))
    .orderBy(desc(articles.publishedAt), desc(articles.id))
    .limit(200);
}

/** One newsletter with its recipients' counts. */
export async function get(ctx: NewslettersContext, id: string): Promise<NewsletterRecord> {
  return toRecord(ctx, await row(ctx, id));
}

/** One page of newsletters, newest first. */
export async function list(
  ctx: NewslettersContext,
  page: unknown,
  perPage: number,
): Promise<{ newsletters: NewsletterRecord[]; page: PageInfo }> {
  const { rows, page: info } = await pageOf(ctx.db, newsletters, {
    orderBy: [desc(newsletters.createdAt), desc(newsletters.id)],
    page,
    perPage,
  });
  return { newsletters: await Promise.all(rows.map((r) => toRecord(ctx, r))), page: info };
}

/** How many distinct addresses an audience reaches now (the form's live count). */
export async function count(ctx: NewslettersContext, input: unknown): Promise<{ count: number }> {
  const parsed = parseWith(newsletterAudienceSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  return { count: await audienceCount(ctx, parsed.data.audience) };
}

/** The address a non-subscriber's unsubscribe link names (its recipient row), or null. */
export async function recipientAddress({ db }: NewslettersContext, recipientId: string): Promise<string | null> {
  const [r] = await db
    .select({ address: newsletterRecipients.address })
    .from(newsletterRecipients)
    .where(eq(newsletterRecipients.id, recipientId));
  return r?.address ?? null;
}
