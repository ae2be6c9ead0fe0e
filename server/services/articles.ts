import { and, asc, desc, eq, inArray, lte, ne, sql, type SQL } from "drizzle-orm";
import {
  articleInputSchema,
  articleStateSchema,
  bodyTooLong,
  transition,
  VERSIONED_FIELDS,
  type ArticleInput,
  type ArticleIntent,
  type ArticleTimes,
} from "#domain/article-edits.ts";
import {
  ARTICLE_STATES,
  articleSlug,
  hasMarker,
  MAX_BODY_CHARS,
  wordCount,
  type ArticleAccess,
  type ArticleState,
} from "#domain/articles.ts";
import { parseMediaUrl } from "#domain/media.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { parseWith, type FieldError } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { adminUsers, articles, articleSlugs, articleVersions, media, user } from "../db/schema";
import { cleanHtml } from "../lib/clean-html";
import { AppError, badRequest, isId, isUniqueViolation, notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { pageOf } from "../lib/paging";
import { audited, type Actor, type Audit } from "./activity";
import type { ContentService } from "./content";
import type { JobsService, Tx } from "./jobs";
import { putInTrash, type TrashedRow } from "./trash";

/**
 * Articles (issue 36, part 1): the only writer of `articles`, `article_versions` and `article_slugs`. Every save
 * cleans the body on the server, writes the whole article as a new numbered version and an activity-log entry, in one
 * transaction; a save that touches what the public site shows tells every instance to drop its cached pages (the
 * content change signal). Deleting puts the article, its versions and its old addresses in the trash, whole.
 */

/** The activity log's and the trash's name for an article. */
export const ARTICLE_ENTITY = "article";

/** Who published a scheduled article: the publishing job, as the history and the activity log name it. */
export const SCHEDULE_ACTOR: Actor = { id: "system", email: "Scheduled publishing" };

const NOT_FOUND = "No such article (it may have been deleted: look in the trash).";

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

type Row = typeof articles.$inferSelect;
type Values = Omit<typeof articles.$inferInsert, "id" | "createdAt">;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toRecord(row: Row, oldSlugs: string[] = []): ArticleRecord {
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
function versionData(v: Pick<Row, (typeof VERSIONED_FIELDS)[number] | "state" | "publishAt" | "publishedAt">) {
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
function loggedData(data: Record<string, unknown>, version: number): Record<string, unknown> {
  const { bodyHtml, ...rest } = data;
  return { ...rest, bodyHtml: `${wordCount(String(bodyHtml ?? ""))} words`, version };
}

const isPublic = (state: ArticleState) => state === "published";

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

export function createArticlesService({ db, content, logger, now, timeZone, jobs }: ArticlesServiceDeps) {
  const fail = (field: string, message: string) => badRequest([{ field, message }]);

  /**
   * Queues, in the transaction that scheduled it, the run that publishes a scheduled article at its time. Keyed by
   * the article and the time: a new time queues a new run, and a run whose time was changed or whose article is gone
   * finds nothing due.
   */
  async function publishOnTime(tx: Tx, row: Pick<Row, "id" | "state" | "publishAt">) {
    if (row.state !== "scheduled" || !row.publishAt) return;
    const seconds = Math.max(0, Math.ceil((row.publishAt.getTime() - now().getTime()) / 1000));
    await jobs.send(
      ARTICLE_PUBLISH_QUEUE,
      {},
      { singletonKey: `${row.id}@${row.publishAt.toISOString()}`, startAfterSeconds: seconds, tx },
    );
  }

  /** The article, locked for the transaction's write; 404 if it is not there. */
  async function locked(tx: Tx, id: string): Promise<Row> {
    if (!isId(id)) throw notFound(NOT_FOUND);
    const [row] = await tx.select().from(articles).where(eq(articles.id, id)).for("update");
    if (!row) throw notFound(NOT_FOUND);
    return row;
  }

  /**
   * The address an article may take: unique among articles' addresses now and earlier ones (an earlier address leads
   * to its article, so no other article may take it; the article it was earlier may take it back). Slug changes are
   * serialised (one advisory lock) so two saves cannot both take one address.
   */
  async function claimSlug(tx: Tx, slug: string, articleId: string | null): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('article-slugs'))`);
    const other = articleId ? ne(articles.id, articleId) : undefined;
    const [taken] = await tx
      .select({ title: articles.title })
      .from(articles)
      .where(other ? and(eq(articles.slug, slug), other) : eq(articles.slug, slug));
    if (taken) throw fail("slug", `Another article already has the address /blog/${slug}: choose another.`);
    const [old] = await tx
      .select({ articleId: articleSlugs.articleId, title: articles.title })
      .from(articleSlugs)
      .innerJoin(articles, eq(articles.id, articleSlugs.articleId))
      .where(eq(articleSlugs.slug, slug));
    if (old && old.articleId !== articleId)
      throw fail(
        "slug",
        `The address /blog/${slug} was an earlier address of “${old.title}” and still leads there: choose another.`,
      );
    // Taken back by the article it was earlier: it is its address again, no longer an old one.
    if (old) await tx.delete(articleSlugs).where(eq(articleSlugs.slug, slug));
  }

  /** The byline: the chosen staff member's name (blank: the writer's), kept as printed when the author is unchanged. */
  async function authorOf(
    tx: Tx,
    wanted: string,
    actor: Actor,
    before: Pick<Row, "authorId" | "authorName"> | null,
  ): Promise<{ authorId: string | null; authorName: string }> {
    // Unchanged (or left blank on a saved article): the byline as printed, even if its account has gone since.
    if (before && (!wanted || wanted === before.authorId))
      return { authorId: before.authorId, authorName: before.authorName };
    const id = wanted || actor.id;
    const [found] = await tx
      .select({ id: user.id, name: user.name, email: user.email })
      .from(user)
      .innerJoin(adminUsers, sql`lower(${adminUsers.userEmail}) = lower(${user.email})`)
      .where(eq(user.id, id));
    if (found) return { authorId: found.id, authorName: found.name.trim() || found.email };
    if (!wanted && id === actor.id) return { authorId: null, authorName: actor.email }; // a write no staff account made
    throw fail("authorId", "Choose the author from the staff list.");
  }

  /** Cover and share images are library images (their addresses, as the sections keep them), or none. */
  async function checkImages(tx: Tx, input: Pick<ArticleInput, "coverImage" | "seoImage">) {
    const wanted = (["coverImage", "seoImage"] as const).filter((f) => input[f] !== "");
    const keys = wanted.map((f) => parseMediaUrl(input[f])?.key).filter((k): k is string => Boolean(k));
    const found = new Set(
      keys.length
        ? (await tx.select({ key: media.key }).from(media).where(inArray(media.key, keys))).map((r) => r.key)
        : [],
    );
    const errors: FieldError[] = [];
    for (const f of wanted)
      if (!found.has(parseMediaUrl(input[f])?.key ?? ""))
        errors.push({ field: f, message: "Choose the image from the media library (this one is not in it)." });
    if (errors.length) throw badRequest(errors);
  }

  /** The input read and checked, its body cleaned: the values to store, without the state. */
  function parseInput(
    input: unknown,
    creating: boolean,
  ): { input: ArticleInput; slug: string | null; bodyHtml: string } {
    if (typeof input !== "object" || input === null || Array.isArray(input))
      throw fail("body", "Send the article as a JSON object of its fields.");
    const parsed = parseWith(articleInputSchema, input);
    if (!parsed.ok) throw badRequest(parsed.errors);
    // Blank: a new article's address is made from its title; a saved one keeps its own (a title edit moves nothing).
    const slug = parsed.data.slug ? articleSlug(parsed.data.slug) : creating ? articleSlug(parsed.data.title) : null;
    if (slug === "")
      throw fail(parsed.data.slug ? "slug" : "title", "The address needs at least one letter or digit (a-z, 0-9).");
    const bodyHtml = cleanHtml(parsed.data.bodyHtml);
    if (bodyHtml.length > MAX_BODY_CHARS) throw fail("bodyHtml", bodyTooLong(bodyHtml.length));
    if (parsed.data.access === "split" && !hasMarker(bodyHtml))
      throw fail(
        "access",
        "A members-only part starts at its marker: place “Members only below this line” in the body, or choose another access.",
      );
    return { input: parsed.data, slug, bodyHtml };
  }

  function applyTransition(current: ArticleTimes | null, intent: ArticleIntent, publishAt: string): ArticleTimes {
    const next = transition(current, intent, publishAt, { now: now(), timeZone });
    if (!next.ok) throw fail(next.field, next.message);
    return { state: next.state, publishAt: next.publishAt, publishedAt: next.publishedAt };
  }

  /** The version's row and the log entry of a write, then the signal when the public site may show it differently. */
  async function recordVersion(tx: Tx, audit: Audit, actor: Actor, row: Row, before: Row | null): Promise<void> {
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
  async function keepOldSlug(tx: Tx, before: Row, slug: string) {
    if (before.slug === slug) return;
    await tx
      .insert(articleSlugs)
      .values({ slug: before.slug, articleId: before.id, createdAt: now() })
      .onConflictDoNothing();
  }

  /** A write that may have changed what public pages show: this instance drops its pages now (the others on NOTIFY). */
  const after = <T>(work: Promise<T>): Promise<T> =>
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
  async function save(
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
      await keepOldSlug(tx, before, next.slug);
    }
    const [row] = await tx
      .update(articles)
      .set({ ...fields, ...times, tagSlugs: next.tagSlugs, version: before.version + 1, updatedAt: now() })
      .where(eq(articles.id, before.id))
      .returning();
    await recordVersion(tx, audit, actor, row!, before);
    if (row!.publishAt?.getTime() !== before.publishAt?.getTime() || row!.state !== before.state)
      await publishOnTime(tx, row!);
    return true;
  }

  async function oldSlugsOf(id: string): Promise<string[]> {
    const rows = await db
      .select({ slug: articleSlugs.slug })
      .from(articleSlugs)
      .where(eq(articleSlugs.articleId, id))
      .orderBy(desc(articleSlugs.createdAt));
    return rows.map((r) => r.slug);
  }

  const service = {
    /** The back office's list: last changed first, one page counted and cut in SQL, optionally of one state. */
    async list({
      page,
      perPage,
      state,
    }: {
      page: unknown;
      perPage: number;
      state?: unknown;
    }): Promise<{ articles: ArticleListRow[]; page: PageInfo }> {
      let where: SQL | undefined;
      if (state !== undefined && state !== "") {
        if (!(ARTICLE_STATES as readonly unknown[]).includes(state))
          throw fail("state", `Choose a state among ${ARTICLE_STATES.join(", ")}.`);
        where = eq(articles.state, state as ArticleState);
      }
      const { rows, page: info } = await pageOf(db, articles, {
        where,
        orderBy: [desc(articles.updatedAt), desc(articles.id)],
        page,
        perPage,
      });
      return {
        articles: rows.map((r) => ({
          id: r.id,
          slug: r.slug,
          title: r.title,
          state: r.state,
          access: r.access,
          tags: r.tags,
          authorName: r.authorName,
          publishAt: iso(r.publishAt),
          publishedAt: iso(r.publishedAt),
          updatedAt: r.updatedAt.toISOString(),
        })),
        page: info,
      };
    },

    /** One article, whole, with its earlier addresses. */
    async get(id: string): Promise<ArticleRecord> {
      if (!isId(id)) throw notFound(NOT_FOUND);
      const [row] = await db.select().from(articles).where(eq(articles.id, id));
      if (!row) throw notFound(NOT_FOUND);
      return toRecord(row, await oldSlugsOf(id));
    },

    /** The staff who may be named as author (the admin list's people with an account), by name. */
    async authors(): Promise<StaffAuthor[]> {
      const rows = await db
        .select({ id: user.id, name: user.name, email: user.email })
        .from(user)
        .innerJoin(adminUsers, sql`lower(${adminUsers.userEmail}) = lower(${user.email})`)
        .orderBy(asc(user.name), asc(user.email));
      return rows.map((r) => ({ id: r.id, name: r.name.trim() || r.email }));
    },

    /** A new article (version 1), a draft unless the input's intent says otherwise; its author is its writer by default. */
    async create(
      input: unknown,
      actor: Actor,
      { byline }: { byline?: string } = {},
    ): Promise<{ id: string; slug: string }> {
      const parsed = parseInput(input, true);
      const { input: fields, bodyHtml } = parsed;
      const slug = parsed.slug!;
      const times = applyTransition(null, fields.intent, fields.publishAt);
      return after(
        audited(db, actor, ARTICLE_ENTITY, async (tx, audit) => {
          await checkImages(tx, fields);
          await claimSlug(tx, slug, null);
          // A byline without an account (the demo articles): printed as given.
          const author =
            byline && !fields.authorId
              ? { authorId: null, authorName: byline }
              : await authorOf(tx, fields.authorId, actor, null);
          const at = now();
          const [row] = await tx
            .insert(articles)
            .values({
              slug,
              title: fields.title,
              excerpt: fields.excerpt,
              coverImage: fields.coverImage,
              bodyHtml,
              access: fields.access,
              tags: fields.tags,
              tagSlugs: fields.tags.map(articleSlug),
              ...author,
              seoTitle: fields.seoTitle,
              seoDescription: fields.seoDescription,
              seoImage: fields.seoImage,
              ...times,
              version: 1,
              createdAt: at,
              updatedAt: at,
            })
            .returning();
          await recordVersion(tx, audit, actor, row!, null);
          await publishOnTime(tx, row!);
          return { id: row!.id, slug: row!.slug };
        }),
      );
    },

    /**
     * Replaces an article's fields (all of them, as the form sends them) and applies the intent (save keeps the
     * state): a new version, unless nothing changed.
     */
    async update(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean; slug: string }> {
      const { input: fields, slug: typedSlug, bodyHtml } = parseInput(input, false);
      if (!isId(id)) throw notFound(NOT_FOUND);
      return after(
        audited(db, actor, ARTICLE_ENTITY, async (tx, audit) => {
          const before = await locked(tx, id);
          const slug = typedSlug ?? before.slug;
          const times = applyTransition(before, fields.intent, fields.publishAt);
          await checkImages(tx, fields);
          const author = await authorOf(tx, fields.authorId, actor, before);
          const modified = await save(
            tx,
            audit,
            actor,
            before,
            {
              slug,
              title: fields.title,
              excerpt: fields.excerpt,
              coverImage: fields.coverImage,
              bodyHtml,
              access: fields.access,
              tags: fields.tags,
              ...author,
              seoTitle: fields.seoTitle,
              seoDescription: fields.seoDescription,
              seoImage: fields.seoImage,
            },
            times,
          );
          return { modified, slug };
        }),
      );
    },

    /** Draft, schedule (a time to come, in the site's zone), publish now or unpublish: a new version. */
    async setState(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean; state: ArticleState }> {
      const parsed = parseWith(articleStateSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      if (!isId(id)) throw notFound(NOT_FOUND);
      return after(
        audited(db, actor, ARTICLE_ENTITY, async (tx, audit) => {
          const before = await locked(tx, id);
          const times = applyTransition(before, parsed.data.intent, parsed.data.publishAt);
          const modified = await save(tx, audit, actor, before, {}, times);
          return { modified, state: times.state };
        }),
      );
    },

    /** The history: every version, newest first (number, when, who, its title then). */
    async versions(id: string): Promise<ArticleVersion[]> {
      if (!isId(id)) throw notFound(NOT_FOUND);
      const [found] = await db.select({ id: articles.id }).from(articles).where(eq(articles.id, id));
      if (!found) throw notFound(NOT_FOUND);
      const rows = await db
        .select({
          version: articleVersions.version,
          savedAt: articleVersions.savedAt,
          savedBy: articleVersions.savedBy,
          title: sql<string>`${articleVersions.data} ->> 'title'`,
        })
        .from(articleVersions)
        .where(eq(articleVersions.articleId, id))
        .orderBy(desc(articleVersions.version));
      return rows.map((r) => ({ ...r, savedAt: r.savedAt.toISOString(), title: r.title ?? "" }));
    },

    /**
     * Writes a version's fields back as a new version (history is never rewritten; the state stays as it is: a
     * restore neither publishes nor takes down). Its address too, if it is free; its author as printed then.
     */
    async restoreVersion(id: string, version: unknown, actor: Actor): Promise<{ modified: boolean; version: number }> {
      const n = Number(version);
      if (!Number.isInteger(n) || n < 1) throw notFound("No such version of this article.");
      if (!isId(id)) throw notFound(NOT_FOUND);
      return after(
        audited(db, actor, ARTICLE_ENTITY, async (tx, audit) => {
          const before = await locked(tx, id);
          const [saved] = await tx
            .select({ data: articleVersions.data })
            .from(articleVersions)
            .where(and(eq(articleVersions.articleId, id), eq(articleVersions.version, n)));
          if (!saved) throw notFound("No such version of this article.");
          const d = saved.data;
          const fields = {
            title: String(d.title ?? before.title),
            slug: String(d.slug ?? before.slug),
            excerpt: String(d.excerpt ?? ""),
            coverImage: String(d.coverImage ?? ""),
            bodyHtml: cleanHtml(String(d.bodyHtml ?? "")),
            access: (d.access as ArticleAccess) ?? before.access,
            tags: Array.isArray(d.tags) ? (d.tags as string[]) : [],
            authorId: typeof d.authorId === "string" ? d.authorId : null,
            authorName: String(d.authorName ?? before.authorName),
            seoTitle: String(d.seoTitle ?? ""),
            seoDescription: String(d.seoDescription ?? ""),
            seoImage: String(d.seoImage ?? ""),
          };
          // The author's account may be gone since: the byline stays as printed, the link to the account goes.
          if (fields.authorId) {
            const [exists] = await tx.select({ id: user.id }).from(user).where(eq(user.id, fields.authorId));
            if (!exists) fields.authorId = null;
          }
          const times = { state: before.state, publishAt: before.publishAt, publishedAt: before.publishedAt };
          const modified = await save(tx, audit, actor, before, fields, times);
          return { modified, version: modified ? before.version + 1 : before.version };
        }),
      );
    },

    /**
     * Deleted to the trash (decision 039): the article with its versions and earlier addresses, so that a restore
     * brings it back whole; off the site at once.
     */
    async remove(id: string, actor: Actor): Promise<{ deleted: boolean }> {
      if (!isId(id)) throw notFound(NOT_FOUND);
      await after(
        audited(db, actor, ARTICLE_ENTITY, async (tx, audit) => {
          const row = await locked(tx, id);
          const versions = await tx
            .select()
            .from(articleVersions)
            .where(eq(articleVersions.articleId, id))
            .orderBy(asc(articleVersions.version));
          const slugs = await tx.select().from(articleSlugs).where(eq(articleSlugs.articleId, id));
          await tx.delete(articles).where(eq(articles.id, id)); // versions and old slugs go with it (cascade)
          await putInTrash(tx, {
            kind: "content",
            entity: ARTICLE_ENTITY,
            recordId: id,
            title: row.title,
            row: {
              // `data`: the fields the log keeps of it (the trash's loggedFields reads a content row's data).
              data: loggedData(versionData(row), row.version),
              article: { ...toRecord(row), tagSlugs: row.tagSlugs },
              versions: versions.map((v) => ({ ...v, savedAt: v.savedAt.toISOString() })),
              slugs: slugs.map((s) => ({ ...s, createdAt: s.createdAt.toISOString() })),
            },
            deletedAt: now(),
            deletedBy: actor,
          });
          await audit.deleted(id, loggedData(versionData(row), row.version));
          if (isPublic(row.state)) await content.changedIn(tx);
        }),
      );
      return { deleted: true };
    },

    /**
     * The trash's restore of an article (in its transaction): back with its id, fields, state, versions and earlier
     * addresses; refused (409) when another article took its address meanwhile. A scheduled article whose time passed
     * while it was in the trash is published by the next run of the publishing job.
     */
    async restoreIn(tx: Tx, { recordId, row }: TrashedRow): Promise<void> {
      const a = row.article as ArticleRecord & { tagSlugs: string[] };
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('article-slugs'))`);
      const [taken] = [
        ...(await tx.select({ id: articles.id }).from(articles).where(eq(articles.slug, a.slug))),
        ...(await tx.select({ id: articleSlugs.articleId }).from(articleSlugs).where(eq(articleSlugs.slug, a.slug))),
      ];
      if (taken)
        throw new AppError(
          409,
          `Another article has the address /blog/${a.slug} now: change its address first, then restore this one.`,
        );
      const date = (v: string | null) => (v ? new Date(v) : null);
      const [authorExists] = a.authorId
        ? await tx.select({ id: user.id }).from(user).where(eq(user.id, a.authorId))
        : [];
      await tx.insert(articles).values({
        id: recordId,
        slug: a.slug,
        title: a.title,
        excerpt: a.excerpt,
        coverImage: a.coverImage,
        bodyHtml: a.bodyHtml,
        access: a.access,
        tags: a.tags,
        tagSlugs: a.tagSlugs,
        authorId: authorExists ? a.authorId : null,
        authorName: a.authorName,
        seoTitle: a.seoTitle,
        seoDescription: a.seoDescription,
        seoImage: a.seoImage,
        state: a.state,
        publishAt: date(a.publishAt),
        publishedAt: date(a.publishedAt),
        version: a.version,
        createdAt: new Date(a.createdAt),
        updatedAt: new Date(a.updatedAt),
      });
      const versions = (row.versions ?? []) as (typeof articleVersions.$inferSelect & { savedAt: string })[];
      if (versions.length)
        await tx
          .insert(articleVersions)
          .values(versions.map((v) => ({ ...v, articleId: recordId, savedAt: new Date(v.savedAt) })));
      // Earlier addresses another article has taken since stay that article's.
      const slugs = (row.slugs ?? []) as { slug: string; createdAt: string }[];
      for (const old of slugs) {
        const [now] = await tx.select({ id: articles.id }).from(articles).where(eq(articles.slug, old.slug));
        if (now) continue;
        await tx
          .insert(articleSlugs)
          .values({ slug: old.slug, articleId: recordId, createdAt: new Date(old.createdAt) })
          .onConflictDoNothing();
      }
      if (a.state === "published") await content.changedIn(tx);
      await publishOnTime(tx, { id: recordId, state: a.state, publishAt: date(a.publishAt) });
    },

    /**
     * The publishing job's run: every scheduled article whose time has come is published, each exactly once whatever
     * the number of hosts running it (one UPDATE … WHERE state = 'scheduled' takes the rows: a second run waits on
     * their locks and finds them published), with its version and log entry in the same transaction.
     */
    async publishDue(): Promise<number> {
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
    },

    /** Whether there is no article at all (the demo articles go only into an empty database). */
    async isEmpty(): Promise<boolean> {
      return (await db.select({ id: articles.id }).from(articles).limit(1)).length === 0;
    },
  };
  jobs.worker(ARTICLE_PUBLISH_QUEUE, async () => void (await service.publishDue()), {
    title: "Articles: publish one at its scheduled time",
  });
  return service;
}

export type ArticlesService = ReturnType<typeof createArticlesService>;
