import { eq } from "drizzle-orm";
import { articleSlug } from "#domain/articles.ts";
import type { ArticleTimes } from "#domain/article-edits.ts";
import { articles, articleSlugs, articleVersions } from "#server/db/schema.ts";
import { isId, isUniqueViolation, notFound } from "#server/lib/errors.ts";
import type { Actor, Audit } from "#server/services/activity.ts";
import type { Tx } from "#server/services/jobs.ts";
import { claimSlug } from "./input.ts";
import {
  fail,
  isPublic,
  loggedData,
  NOT_FOUND,
  versionData,
  type ArticlesServiceDeps,
  type Row,
  type Values,
} from "./model.ts";
import { publishOnTime } from "./schedule.ts";

/** The article, locked for the transaction's write; 404 if it is not there. */
export async function locked(tx: Tx, id: string): Promise<Row> {
  if (!isId(id)) throw notFound(NOT_FOUND);
  const [row] = await tx.select().from(articles).where(eq(articles.id, id)).for("update");
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** The version's row and the log entry of a write, then the signal when the public site may show it differently. */
export async function recordVersion(
  { content }: ArticlesServiceDeps,
  tx: Tx,
  audit: Audit,
  actor: Actor,
  row: Row,
  before: Row | null,
): Promise<void> {
  const data = versionData(row);
  await tx.insert(articleVersions).values({
    articleId: row.id,
    version: row.version,
    data,
    savedAt: row.updatedAt,
    savedBy: actor.email,
  });
  if (before)
    await audit.updated(row.id, loggedData(versionData(before), before.version), loggedData(data, row.version));
  else await audit.created(row.id, loggedData(data, row.version));
  if (isPublic(row.state) || (before && isPublic(before.state))) await content.changedIn(tx);
}

/** An old slug is kept (it leads to the article) when a save changes the address. */
async function keepOldSlug({ now }: ArticlesServiceDeps, tx: Tx, before: Row, slug: string) {
  if (before.slug === slug) return;
  await tx
    .insert(articleSlugs)
    .values({ slug: before.slug, articleId: before.id, createdAt: now() })
    .onConflictDoNothing();
}

/** A write that may have changed what public pages show: this instance drops its pages now (the others on NOTIFY). */
export const after = <T>({ content }: ArticlesServiceDeps, work: Promise<T>): Promise<T> =>
  work.then(
    (value) => {
      content.invalidate();
      return value;
    },
    (error: unknown) => {
      if (isUniqueViolation(error))
        throw fail("slug", "Another article took this address a moment ago: choose another.");
      throw error;
    },
  );

/** Writes the fields (and state) over an article, as a new version; false when nothing would change. */
export async function save(
  deps: ArticlesServiceDeps,
  tx: Tx,
  audit: Audit,
  actor: Actor,
  before: Row,
  fields: Partial<Omit<Values, "version" | "updatedAt" | "state" | "publishAt" | "publishedAt" | "tagSlugs">>,
  times: ArticleTimes,
): Promise<boolean> {
  const next = { ...before, ...fields, ...times, tagSlugs: (fields.tags ?? before.tags).map(articleSlug) };
  if (JSON.stringify(versionData(next)) === JSON.stringify(versionData(before))) return false;
  if (next.slug !== before.slug) {
    await claimSlug(tx, next.slug, before.id);
    await keepOldSlug(deps, tx, before, next.slug);
  }
  const [row] = await tx
    .update(articles)
    .set({ ...fields, ...times, tagSlugs: next.tagSlugs, version: before.version + 1, updatedAt: deps.now() })
    .where(eq(articles.id, before.id))
    .returning();
  await recordVersion(deps, tx, audit, actor, row!, before);
  if (row!.publishAt?.getTime() !== before.publishAt?.getTime() || row!.state !== before.state)
    await publishOnTime(deps, tx, row!);
  return true;
}
