import { eq, sql } from "drizzle-orm";
import { simpleItemSchema, slugify } from "#domain/catalogue.ts";
import { parseWith } from "#domain/validation.ts";
import { categories, categoryLabel, type CategoryKey } from "#domain/vocabulary.ts";
import { catalogueItems, simpleItems } from "#server/db/schema.ts";
import { badRequest, conflict, isId, notFound } from "#server/lib/errors.ts";
import type { Viewer } from "#server/services/accounts.ts";
import { audited } from "#server/services/activity.ts";
import type { Tx } from "#server/services/jobs.ts";
import { putInTrash, type TrashedRow } from "#server/services/trash.ts";
import {
  assertAdmin,
  categoryTaken,
  changing,
  ITEM_NOT_FOUND,
  parseItem,
  toItem,
  toSimpleItem,
  type Catalogue,
  type CatalogueItem,
  type SimpleItem,
} from "./model.ts";

export async function add(catalogue: Catalogue, viewer: Viewer, input: unknown): Promise<CatalogueItem> {
  const { db, changes, now } = catalogue;
  assertAdmin(viewer);
  const data = parseItem(input);
  const t = now();
  try {
    return await changing(catalogue, () =>
      audited(db, viewer, "catalogue_item", async (tx, audit) => {
        const [created] = await tx
          .insert(catalogueItems)
          .values({ ...data, itemUrl: slugify(data.itemName), createdAt: t, updatedAt: t })
          .returning();
        const item = toItem(created!);
        await audit.created(item._id, item);
        await changes.changedIn(tx);
        return item;
      }),
    );
  } catch (error) {
    categoryTaken(error, data.itemDatabaseUrl);
  }
}

export async function update(catalogue: Catalogue, viewer: Viewer, id: string, input: unknown): Promise<CatalogueItem> {
  const { db, changes, now } = catalogue;
  assertAdmin(viewer);
  const data = parseItem(input);
  if (!isId(id)) throw notFound(ITEM_NOT_FOUND);
  try {
    return await changing(catalogue, () =>
      audited(db, viewer, "catalogue_item", async (tx, audit) => {
        const [before] = await tx.select().from(catalogueItems).where(eq(catalogueItems.id, id)).for("update");
        if (!before) throw notFound(ITEM_NOT_FOUND);
        const [updated] = await tx
          .update(catalogueItems)
          .set({ ...data, itemUrl: slugify(data.itemName), updatedAt: now() })
          .where(eq(catalogueItems.id, id))
          .returning();
        const item = toItem(updated!);
        await audit.updated(id, toItem(before), item);
        await changes.changedIn(tx);
        return item;
      }),
    );
  } catch (error) {
    categoryTaken(error, data.itemDatabaseUrl);
  }
}

export async function remove(catalogue: Catalogue, viewer: Viewer, id: string): Promise<void> {
  const { db, changes, now } = catalogue;
  assertAdmin(viewer);
  if (!isId(id)) throw notFound(ITEM_NOT_FOUND);
  await changing(catalogue, () =>
    audited(db, viewer, "catalogue_item", async (tx, audit) => {
      const [deleted] = await tx.delete(catalogueItems).where(eq(catalogueItems.id, id)).returning();
      if (!deleted) throw notFound(ITEM_NOT_FOUND);
      // Kept 30 days in the trash (decision 039); its category is free meanwhile.
      await putInTrash(tx, {
        kind: "items",
        entity: "catalogue_item",
        recordId: id,
        title: deleted.itemName,
        row: { ...deleted, createdAt: deleted.createdAt.toISOString(), updatedAt: deleted.updatedAt.toISOString() },
        deletedAt: now(),
        deletedBy: viewer,
      });
      await audit.deleted(id, toItem(deleted));
      await changes.changedIn(tx);
    }),
  );
}

/**
 * An item taken out of the trash (the trash service's restore, in its transaction): back as it was, unless its
 * category has been given to another item since (409). Every instance drops its copy once it commits.
 */
export async function restoreIn({ changes }: Catalogue, tx: Tx, { recordId, row }: TrashedRow): Promise<void> {
  const category = String(row.itemDatabaseUrl);
  if (!categories.includes(category)) throw conflict("This item's category no longer exists: it cannot be restored.");
  const [taken] = await tx
    .select({ id: catalogueItems.id })
    .from(catalogueItems)
    .where(eq(catalogueItems.itemDatabaseUrl, category as CategoryKey));
  if (taken)
    throw conflict(
      `The category ${categoryLabel(category)} is used by another item now. Delete that item or give it another category first, then restore this one.`,
    );
  await tx.insert(catalogueItems).values({
    id: recordId,
    itemName: String(row.itemName),
    itemsDescription: String(row.itemsDescription),
    itemDatabaseUrl: category as CategoryKey,
    itemsGuideline: String(row.itemsGuideline),
    itemUrl: String(row.itemUrl),
    createdAt: new Date(String(row.createdAt)),
    updatedAt: new Date(String(row.updatedAt)),
  });
  await changes.changedIn(tx);
}

/**
 * The demo catalogue of a fresh install (not an administrator's change, so not in the activity log): only into
 * an empty catalogue, each item checked by the item form's rules. Answers how many items it added.
 */
export async function seedIfEmpty(catalogue: Catalogue, items: readonly unknown[]): Promise<number> {
  const { db, changes, now } = catalogue;
  const values = items.map((input) => {
    const data = parseItem(input);
    return { ...data, itemUrl: slugify(data.itemName) };
  });
  return changing(catalogue, () =>
    db.transaction(async (tx) => {
      // Two instances starting at once seed once.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('catalogue_items:seed'))`);
      const [any] = await tx.select({ id: catalogueItems.id }).from(catalogueItems).limit(1);
      if (any || values.length === 0) return 0;
      const t = now();
      const rows = values.map((v, i) => ({ ...v, createdAt: new Date(t.getTime() + i), updatedAt: t }));
      const added = (await tx.insert(catalogueItems).values(rows).returning({ id: catalogueItems.id })).length;
      await changes.changedIn(tx);
      return added;
    }),
  );
}

/** /add-item: format, Canva link, image link, category, Paid or Free. */
export async function addSimpleItem({ db, now }: Catalogue, viewer: Viewer, input: unknown): Promise<SimpleItem> {
  assertAdmin(viewer);
  const parsed = parseWith(simpleItemSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  return audited(db, viewer, "simple_item", async (tx, audit) => {
    const [created] = await tx
      .insert(simpleItems)
      .values({ ...parsed.data, createdAt: now() })
      .returning();
    const item = toSimpleItem(created!);
    await audit.created(item._id, item);
    return item;
  });
}
