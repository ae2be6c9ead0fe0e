import { VERSIONED_FIELDS } from "#domain/article-edits.ts";
import { wordCount, type ArticleAccess, type ArticleState } from "#domain/articles.ts";
import type { Db } from "#server/db/client.ts";
import type { articles } from "#server/db/schema.ts";
import { badRequest } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { Actor } from "#server/services/activity.ts";
import type { ContentService } from "#server/services/content.ts";
import type { JobsService } from "#server/services/jobs.ts";

/** The activity log's and the trash's name for an article. */
export const ARTICLE_ENTITY = "article";

/** Who published a scheduled article: the publishing job, as the history and the activity log name it. */
export const SCHEDULE_ACTOR: Actor = { id: "system", email: "Scheduled publishing" };

export const NOT_FOUND = "No such article (it may have been deleted: look in the trash).";

/** An article as the back office edits it. */
export interface ArticleRecord {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  coverImage: string;
  bodyHtml: string;
  access: ArticleAccess;
  tags: string[];
  authorId: string | null;
  authorName: string;
  seoTitle: string;
  seoDescription: string;
  seoImage: string;
  state: ArticleState;
  publishAt: string | null;
  publishedAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** Its earlier addresses, which lead to it (301). */
  oldSlugs: string[];
}

/** A row of the back office's list (no body). */
export interface ArticleListRow {
  id: string;
  slug: string;
  title: string;
  state: ArticleState;
  access: ArticleAccess;
  tags: string[];
  authorName: string;
  publishAt: string | null;
  publishedAt: string | null;
  updatedAt: string;
}

/** One saved version: its number, when and by whom (the history); `data` only when one version is asked for. */
export interface ArticleVersion {
  version: number;
  savedAt: string;
  savedBy: string;
  title: string;
}

/** A staff member who can be named as an article's author. */
export interface StaffAuthor {
  id: string;
  name: string;
}

export type Row = typeof articles.$inferSelect;
export type Values = Omit<typeof articles.$inferInsert, "id" | "createdAt">;

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const fail = (field: string, message: string) => badRequest([{ field, message }]);

export function toRecord(row: Row, oldSlugs: string[] = []): ArticleRecord {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    coverImage: row.coverImage,
    bodyHtml: row.bodyHtml,
    access: row.access,
    tags: row.tags,
    authorId: row.authorId,
    authorName: row.authorName,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    seoImage: row.seoImage,
    state: row.state,
    publishAt: iso(row.publishAt),
    publishedAt: iso(row.publishedAt),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    oldSlugs,
  };
}

/** A version's data: the editable fields, and the state the article had once saved (for the history's reader). */
export function versionData(v: Pick<Row, (typeof VERSIONED_FIELDS)[number] | "state" | "publishAt" | "publishedAt">) {
  const data: Record<string, unknown> = {};
  for (const f of VERSIONED_FIELDS) data[f] = v[f];
  data.state = v.state;
  data.publishAt = iso(v.publishAt ?? null);
  data.publishedAt = iso(v.publishedAt ?? null);
  return data;
}

/**
 * What the activity log keeps of a version: its fields, the body as its length in words (the versions keep the body
 * itself; a 1 MB body twice in every log entry would swamp the log).
 */
export function loggedData(data: Record<string, unknown>, version: number): Record<string, unknown> {
  const { bodyHtml, ...rest } = data;
  return { ...rest, bodyHtml: `${wordCount(String(bodyHtml ?? ""))} words`, version };
}

export const isPublic = (state: ArticleState) => state === "published";

export interface ArticlesServiceDeps {
  db: Db;
  /** The content change signal (LISTEN/NOTIFY): every instance drops its cached pages. */
  content: Pick<ContentService, "changedIn" | "invalidate">;
  logger: Logger;
  now: () => Date;
  timeZone: string;
  /** The job queue: a scheduled article's own publishing run, due at its time. */
  jobs: Pick<JobsService, "send" | "worker">;
}

/**
 * One-off publishing runs, each due at a scheduled article's time, so that it goes out then (within the queue's
 * polling interval) rather than at the next minute's run; the every-minute run stays as the net for any run lost.
 */
export const ARTICLE_PUBLISH_QUEUE = "article-publish-at";
