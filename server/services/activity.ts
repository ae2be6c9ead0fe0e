import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { activityKind, shownValue, type ActivityFilters } from "#domain/activity.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { ERASED_NAME, ERASURE_ENTITY, withoutAnyOf, type Person } from "#domain/privacy.ts";
import type { Db } from "../db/client";
import {
  discountCodes,
  activityLog,
  apiKeys,
  adminUsers,
  articles,
  catalogueItems,
  contentEntries,
  media,
  messages,
  newsletters,
  orders,
  paymentAccounts,
  simpleItems,
} from "../db/schema";
import { isId } from "../lib/errors";
import { pageOf } from "../lib/paging";

/**
 * Who made a change: the signed-in staff member, or an API key (decision 077: id `api-key:{id}`, and as "email" the
 * key's name and label, `API key “Bookkeeping” (atl_…)`, which the log shows as who).
 */
export interface Actor {
  id: string;
  email: string;
}

export type Changes = Record<string, { before: unknown; after: unknown }>;

/** The fields whose values differ, with both values (a created record: every field, before null). */
export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Changes {
  const out: Changes = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const k of keys) {
    const b = before?.[k] ?? null;
    const a = after?.[k] ?? null;
    if (JSON.stringify(b) !== JSON.stringify(a)) out[k] = { before: b, after: a };
  }
  return out;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Fields = Record<string, unknown>;

/** What a write reports to the activity log: each record it created, updated or deleted, with its fields. */
export interface Audit {
  created(recordId: string, after: object): Promise<void>;
  updated(recordId: string, before: object, after: object): Promise<void>;
  deleted(recordId: string, before: object): Promise<void>;
  /** Taken back out of the trash, with the fields it has again (decision 039). */
  restored(recordId: string, after: object): Promise<void>;
  /** Deleted for good from the trash: what it was. */
  purged(recordId: string, before: object): Promise<void>;
}

/**
 * An audited write: `work` runs in one transaction and reports each change it makes through `audit`, which writes
 * the activity-log entry (who, what, the fields that changed before and after) in that same transaction, so a change
 * and its entry stand or fall together. Without an actor (a write no administrator made) nothing is logged.
 */
export function audited<T>(
  db: Db,
  actor: Actor | undefined,
  entity: string,
  work: (tx: Tx, audit: Audit) => Promise<T>,
): Promise<T> {
  return db.transaction((tx) => {
    const log = async (
      action: (typeof activityLog.$inferSelect)["action"],
      recordId: string,
      before: object | null,
      after: object | null,
    ) => {
      if (!actor) return;
      await tx.insert(activityLog).values({
        actorId: actor.id,
        actorEmail: actor.email,
        action,
        entity,
        recordId,
        changes: diff(withoutId(before), withoutId(after)),
      });
    };
    return work(tx, {
      created: (recordId, after) => log("create", recordId, null, after),
      updated: (recordId, before, after) => log("update", recordId, before, after),
      deleted: (recordId, before) => log("delete", recordId, before, null),
      restored: (recordId, after) => log("restore", recordId, null, after),
      purged: (recordId, before) => log("purge", recordId, before, null),
    });
  });
}

/** A record's own id is the entry's recordId, not one of its changed fields. */
function withoutId(fields: object | null): Fields | null {
  if (!fields) return null;
  const rest: Fields = { ...fields };
  delete rest._id;
  return rest;
}

/** An entry as a person reads it: who, when, the kind's title, the record's title, each field's label before → after. */
export interface DescribedEntry {
  id: string;
  createdAt: string;
  actorEmail: string;
  action: (typeof activityLog.$inferSelect)["action"];
  entity: string;
  kind: string;
  recordId: string;
  recordTitle: string;
  /** The record's edit screen (none once it is deleted). */
  href: string | null;
  changes: { field: string; label: string; before: string; after: string }[];
}

type Row = typeof activityLog.$inferSelect;

/** The kinds of record whose current fields the log reads back (their own tables). */
const TABLES = [
  ["order", orders, orders.id],
  ["message", messages, messages.id],
  ["admin_user", adminUsers, adminUsers.id],
  ["payment_account", paymentAccounts, paymentAccounts.id],
  ["discount_code", discountCodes, discountCodes.id],
  ["catalogue_item", catalogueItems, catalogueItems.id],
  ["simple_item", simpleItems, simpleItems.id],
  ["media", media, media.id],
  ["article", articles, articles.id],
  ["api_key", apiKeys, apiKeys.id],
  ["newsletter", newsletters, newsletters.id],
] as const;
const isLookedUp = (entity: string) => entity.startsWith("content:") || TABLES.some(([e]) => e === entity);

/** The fields of the records a page of entries names, read with one query per kind of record (never one per entry). */
async function currentRecords(db: Db, rows: Row[]): Promise<Map<string, Fields>> {
  const out = new Map<string, Fields>();
  const idsOf = (match: (entity: string) => boolean) => [
    ...new Set(rows.filter((r) => match(r.entity) && isId(r.recordId)).map((r) => r.recordId)),
  ];
  const content = idsOf((e) => e.startsWith("content:"));
  await Promise.all([
    content.length
      ? db
          .select({ id: contentEntries.id, type: contentEntries.type, data: contentEntries.data })
          .from(contentEntries)
          .where(inArray(contentEntries.id, content))
          .then((found) => found.forEach((r) => out.set(`content:${r.type} ${r.id}`, r.data)))
      : undefined,
    ...TABLES.map(async ([entity, table, id]) => {
      const ids = idsOf((e) => e === entity);
      if (!ids.length) return;
      const found = (await db.select().from(table).where(inArray(id, ids))) as ({ id: string } & Fields)[];
      for (const r of found) out.set(`${entity} ${r.id}`, r);
    }),
  ]);
  return out;
}

/** The fields the log itself kept of a record (a deleted record's last values, a created one's first). */
function loggedFields(row: Row): Fields {
  const out: Fields = {};
  for (const [field, c] of Object.entries(row.changes)) out[field] = c.after ?? c.before;
  return out;
}

export function describe(rows: Row[], current: Map<string, Fields>, timeZone: string): DescribedEntry[] {
  return rows.map((row) => {
    const kind = activityKind(row.entity);
    const now = current.get(`${row.entity} ${row.recordId}`);
    const title = kind.recordTitle({ ...loggedFields(row), ...now }, row.recordId);
    return {
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      actorEmail: row.actorEmail,
      action: row.action,
      entity: row.entity,
      kind: kind.title,
      recordId: row.recordId,
      recordTitle: title,
      // A record read back links to its edit screen; one that no longer exists does not.
      href: kind.href && (now || !isLookedUp(row.entity)) ? kind.href(row.recordId) : null,
      changes: Object.entries(row.changes).map(([field, c]) => ({
        field,
        label: kind.label(field),
        before: shownValue(field, c.before, timeZone),
        after: shownValue(field, c.after, timeZone),
      })),
    };
  });
}

/** The SQL of the log's filters: each served by an index (actor_email/entity with created_at, or created_at). */
function filterWhere(filters: ActivityFilters, timeZone: string): SQL | undefined {
  const where: SQL[] = [];
  if (filters.who) where.push(eq(activityLog.actorEmail, filters.who));
  if (filters.kind) where.push(eq(activityLog.entity, filters.kind));
  if (filters.from)
    where.push(sql`${activityLog.createdAt} >= (${filters.from}::date)::timestamp at time zone ${timeZone}`);
  if (filters.to)
    where.push(sql`${activityLog.createdAt} < (${filters.to}::date + 1)::timestamp at time zone ${timeZone}`);
  return where.length ? and(...where) : undefined;
}

/** The most entries the log's pages count (it grows without bound). */
export const ACTIVITY_COUNT_LIMIT = 10_000;

export function createActivityService({ db, timeZone }: { db: Db; timeZone: string }) {
  return {
    /** One page of entries, newest first, filtered, described for people. */
    async list(
      page: unknown,
      perPage: number,
      filters: ActivityFilters = {},
    ): Promise<{ entries: DescribedEntry[]; page: PageInfo }> {
      const { rows, page: info } = await pageOf(db, activityLog, {
        where: filterWhere(filters, timeZone),
        orderBy: [desc(activityLog.createdAt), desc(activityLog.id)],
        page,
        perPage,
        countLimit: ACTIVITY_COUNT_LIMIT,
      });
      return { entries: describe(rows, await currentRecords(db, rows), timeZone), page: info };
    },

    /** The people who can appear in the log (the admin list), for its filter. */
    async people(): Promise<string[]> {
      const rows = await db.select({ email: adminUsers.userEmail }).from(adminUsers).orderBy(asc(adminUsers.userEmail));
      return rows.map((r) => r.email);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;

/**
 * Forgets a person in the log (decisions 045, 086): their own entries' actor becomes ERASED_NAME (the actor id stays,
 * linked to nothing), as does a record named by one of their addresses, and every value that holds one of their addresses, or in their own entries one of their names,
 * is rewritten with the placeholder. The entries on their customer record (the studio's note, mails sent again,
 * sessions ended) keep which fields changed and lose the values, which were about them. The entries stay: what
 * happened is kept, without whom it happened to. A scan of the log's values, once per erasure.
 */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  const emails = sql.param(person.emails);
  await tx
    .update(activityLog)
    .set({ actorEmail: ERASED_NAME })
    .where(sql`${activityLog.actorId} = ${person.userId} or lower(${activityLog.actorEmail}) = any(${emails}::text[])`);
  // A record named by an address (an address put on the suppression list) is named by the placeholder.
  await tx
    .update(activityLog)
    .set({ recordId: ERASED_NAME })
    .where(sql`lower(${activityLog.recordId}) = any(${emails}::text[])`);
  await tx.execute(sql`
    update ${activityLog} set changes = coalesce(
      (select jsonb_object_agg(k, '{"before": null, "after": null}'::jsonb) from jsonb_object_keys(changes) as k), '{}')
    where ${activityLog.entity} = ${ERASURE_ENTITY} and ${activityLog.recordId} = ${person.userId}`);
  const theirOwn = person.names.length ? sql` or ${activityLog.actorId} = ${person.userId}` : sql``;
  const rows = await tx
    .select({ id: activityLog.id, changes: activityLog.changes })
    .from(activityLog)
    .where(
      sql`exists (select 1 from unnest(${emails}::text[]) as e(email)
                  where position(e.email in lower(${activityLog.changes}::text)) > 0)${theirOwn}`,
    );
  const scrub = (value: unknown): unknown => {
    if (typeof value === "string") return withoutAnyOf(value, person);
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
    return value;
  };
  const changed = rows
    .map((r) => ({ id: r.id, before: JSON.stringify(r.changes), changes: scrub(r.changes) }))
    .filter((r) => JSON.stringify(r.changes) !== r.before)
    .map(({ id, changes }) => ({ id, changes }));
  if (changed.length)
    await tx.execute(sql`
      update ${activityLog} set changes = v.changes
      from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as v(id uuid, changes jsonb)
      where ${activityLog.id} = v.id`);
}
