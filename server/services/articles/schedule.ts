import { and, eq, lte, sql } from "drizzle-orm";
import { articles, articleVersions } from "#server/db/schema.ts";
import { audited } from "#server/services/activity.ts";
import type { Tx } from "#server/services/jobs.ts";
import {
  ARTICLE_ENTITY,
  ARTICLE_PUBLISH_QUEUE,
  SCHEDULE_ACTOR,
  versionData,
  type ArticlesServiceDeps,
  type Row,
} from "./model.ts";

/**
 * Queues, in the transaction that scheduled it, the run that publishes a scheduled article at its time. Keyed by
 * the article and the time: a new time queues a new run, and a run whose time was changed or whose article is gone
 * finds nothing due.
 */
export async function publishOnTime(
  { now, jobs }: ArticlesServiceDeps,
  tx: Tx,
  row: Pick<Row, "id" | "state" | "publishAt">,
) {
  if (row.state !== "scheduled" || !row.publishAt) return;
  const seconds = Math.max(0, Math.ceil((row.publishAt.getTime() - now().getTime()) / 1000));
  await jobs.send(
    ARTICLE_PUBLISH_QUEUE,
    {},
    { singletonKey: `${row.id}@${row.publishAt.toISOString()}`, startAfterSeconds: seconds, tx },
  );
}

/**
 * The publishing job's run: every scheduled article whose time has come is published, each exactly once whatever
 * the number of hosts running it (one UPDATE … WHERE state = 'scheduled' takes the rows: a second run waits on
 * their locks and finds them published), with its version and log entry in the same transaction.
 */
export async function publishDue({ db, content, logger, now }: ArticlesServiceDeps): Promise<number> {
  const at = now();
  const published = await audited(db, SCHEDULE_ACTOR, ARTICLE_ENTITY, async (tx, audit) => {
    const rows = await tx
      .update(articles)
      .set({
        state: "published",
        publishedAt: sql`coalesce(${articles.publishedAt}, ${at})`,
        publishAt: null,
        version: sql`${articles.version} + 1`,
        updatedAt: at,
      })
      .where(and(eq(articles.state, "scheduled"), lte(articles.publishAt, at)))
      .returning();
    for (const row of rows) {
      await tx.insert(articleVersions).values({
        articleId: row.id,
        version: row.version,
        data: versionData(row),
        savedAt: at,
        savedBy: SCHEDULE_ACTOR.email,
      });
      await audit.updated(
        row.id,
        { state: "scheduled", version: row.version - 1 },
        { state: "published", version: row.version },
      );
    }
    if (rows.length) await content.changedIn(tx);
    return rows;
  });
  if (published.length) {
    content.invalidate();
    logger.info({ published: published.map((r) => r.slug) }, "scheduled articles published");
  }
  return published.length;
}
