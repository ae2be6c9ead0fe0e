import { asc, desc, eq, sql } from "drizzle-orm";
import { parseWith } from "#domain/validation.ts";
import { itemFormSchema, simpleItemSchema, slugify, type SimpleItemForm } from "#domain/catalogue.ts";
import { hasAccess, type Membership } from "#domain/membership.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { categories, categoryLabel, type CategoryKey } from "#domain/vocabulary.ts";
import { loadTemplates, type EmailTemplate } from "../catalogue/categories";
import type { Db } from "../db/client";
import { catalogueItems, simpleItems } from "../db/schema";
import { AppError, badRequest, conflict, forbidden, isId, isUniqueViolation, notFound } from "../lib/errors";
import { pageOf } from "../lib/paging";
import { audited } from "./activity";
import type { Tx } from "./jobs";
import { putInTrash, type TrashedRow } from "./trash";
import type { Viewer } from "./accounts";
import type { ContentService } from "./content";
import type { OrdersService } from "./orders";
import { opens } from "#domain/capabilities.ts";

type Row = typeof catalogueItems.$inferSelect;

/** A catalogue item as members and admins see it: the spec's field names, `_id`. */
export interface CatalogueItem {
  _id: string;
  itemName: string;
  itemsDescription: string;
  /** The category key, e.g. "web-design" (the template file's name without .json). */
  itemDatabaseUrl: CategoryKey;
  itemsGuideline: string;
  itemURL: string;
}

/** What someone without access sees of an item on the dashboard: its name and description, nothing to use. */
export type LockedItem = Pick<CatalogueItem, "_id" | "itemName" | "itemsDescription" | "itemURL">;

export interface SimpleItem extends SimpleItemForm {
  _id: string;
  createdAt: string;
}

export const NO_MEMBERSHIP = "No active membership found";
const ITEM_NOT_FOUND = "Item not found";

const toItem = (r: Row): CatalogueItem => ({
  _id: r.id,
  itemName: r.itemName,
  itemsDescription: r.itemsDescription,
  itemDatabaseUrl: r.itemDatabaseUrl as CategoryKey,
  itemsGuideline: r.itemsGuideline,
  itemURL: r.itemUrl,
});

export interface CatalogueServiceDeps {
  db: Db;
  orders: Pick<OrdersService, "membership">;
  /**
   * The signal every instance hears when what pages show changes (content's LISTEN/NOTIFY): the items are kept in
   * memory until it says they changed, as public content is.
   */
  changes: Pick<ContentService, "generation" | "changedIn" | "invalidate">;
  now: () => Date;
}

/**
 * The catalogue of cold-email generators. Anyone signed in sees the items' names; their guidelines, categories and
 * templates only an admin or a customer with an active membership (the same rule as the dashboard's banner).
 */
export function createCatalogueService({ db, orders, changes, now }: CatalogueServiceDeps) {
  /**
   * Every item, oldest first, read once per generation of the change signal: a dashboard or item page costs no query
   * for them. A read started before a change is shared only with readers of its own generation.
   */
  let items: { generation: number; rows: Promise<Row[]> } | undefined;
  function allRows(): Promise<Row[]> {
    const generation = changes.generation();
    if (items?.generation !== generation) {
      const started = {
        generation,
        rows: Promise.resolve(
          db.select().from(catalogueItems).orderBy(asc(catalogueItems.createdAt), asc(catalogueItems.id)),
        ),
      };
      items = started;
      // A failed read is not kept: the next reader asks the database again.
      started.rows.catch(() => (items === started ? (items = undefined) : undefined));
    }
    return items.rows;
  }

  /** Runs a change to the items and tells every instance once it is committed. */
  async function changing<T>(change: () => Promise<T>): Promise<T> {
    const result = await change();
    changes.invalidate();
    return result;
  }

  async function access(viewer: Viewer, membership?: Membership): Promise<boolean> {
    if (opens(viewer, "items")) return true;
    return hasAccess(membership ?? (await orders.membership(viewer)));
  }

  function assertAdmin(viewer: Viewer) {
    if (!opens(viewer, "items")) throw forbidden();
  }

  async function row(id: string): Promise<Row> {
    if (!isId(id)) throw notFound(ITEM_NOT_FOUND);
    const found = (await allRows()).find((r) => r.id === id);
    if (!found) throw notFound(ITEM_NOT_FOUND);
    return found;
  }

  /** A unique-category violation as a 409 that says what to do. */
  function categoryTaken(error: unknown, key: string): never {
    if (isUniqueViolation(error)) {
      throw conflict(
        `The category ${categoryLabel(key)} is already used by another item. Choose another category, or delete that item first.`,
      );
    }
    throw error;
  }

  /** One item, for a member or an admin; anyone else: 403 'No active membership found' (whether it exists or not). */
  async function get(viewer: Viewer, id: string): Promise<CatalogueItem> {
    if (!(await access(viewer))) throw new AppError(403, NO_MEMBERSHIP);
    return toItem(await row(id));
  }

  function parseItem(input: unknown) {
    const parsed = parseWith(itemFormSchema, input ?? {});
    if (!parsed.ok) throw badRequest(parsed.errors);
    return parsed.data;
  }

  return {
    /** Whether this viewer may open items (an admin always; a customer with an active membership). */
    access,

    /**
     * The dashboard grid, oldest first: full items for those with access, names and descriptions for the others.
     * A membership already computed by the caller is reused.
     */
    async list(
      viewer: Viewer,
      membership?: Membership,
    ): Promise<{ access: true; items: CatalogueItem[] } | { access: false; items: LockedItem[] }> {
      const [allowed, rows] = await Promise.all([access(viewer, membership), allRows()]);
      if (allowed) return { access: true, items: rows.map(toItem) };
      return {
        access: false,
        items: rows.map((r) => ({
          _id: r.id,
          itemName: r.itemName,
          itemsDescription: r.itemsDescription,
          itemURL: r.itemUrl,
        })),
      };
    },

    get,

    /** The templates of an item's category, under the same rule as `get`. */
    async templatesFor(viewer: Viewer, id: string): Promise<EmailTemplate[]> {
      const item = await get(viewer, id);
      return loadTemplates(item.itemDatabaseUrl);
    },

    async add(viewer: Viewer, input: unknown): Promise<CatalogueItem> {
      assertAdmin(viewer);
      const data = parseItem(input);
      const t = now();
      try {
        return await changing(() =>
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
    },

    async update(viewer: Viewer, id: string, input: unknown): Promise<CatalogueItem> {
      assertAdmin(viewer);
      const data = parseItem(input);
      if (!isId(id)) throw notFound(ITEM_NOT_FOUND);
      try {
        return await changing(() =>
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
    },

    async remove(viewer: Viewer, id: string): Promise<void> {
      assertAdmin(viewer);
      if (!isId(id)) throw notFound(ITEM_NOT_FOUND);
      await changing(() =>
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
    },

    /**
     * An item taken out of the trash (the trash service's restore, in its transaction): back as it was, unless its
     * category has been given to another item since (409). Every instance drops its copy once it commits.
     */
    async restoreIn(tx: Tx, { recordId, row }: TrashedRow): Promise<void> {
      const category = String(row.itemDatabaseUrl);
      if (!categories.includes(category))
        throw conflict("This item's category no longer exists: it cannot be restored.");
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
    },

    /**
     * The demo catalogue of a fresh install (not an administrator's change, so not in the activity log): only into
     * an empty catalogue, each item checked by the item form's rules. Answers how many items it added.
     */
    async seedIfEmpty(items: readonly unknown[]): Promise<number> {
      const values = items.map((input) => {
        const data = parseItem(input);
        return { ...data, itemUrl: slugify(data.itemName) };
      });
      return changing(() =>
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
    },

    /** /add-item: format, Canva link, image link, category, Paid or Free. */
    async addSimpleItem(viewer: Viewer, input: unknown): Promise<SimpleItem> {
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
    },

    /** The stored simple items, newest first, one page of them. */
    async listSimpleItems(
      viewer: Viewer,
      options: { page?: unknown; perPage: number },
    ): Promise<{ items: SimpleItem[]; page: PageInfo }> {
      assertAdmin(viewer);
      const { rows, page } = await pageOf(db, simpleItems, {
        orderBy: [desc(simpleItems.createdAt), desc(simpleItems.id)],
        page: options.page,
        perPage: options.perPage,
      });
      return { items: rows.map(toSimpleItem), page };
    },
  };
}

function toSimpleItem(r: typeof simpleItems.$inferSelect): SimpleItem {
  return {
    _id: r.id,
    format: r.format as SimpleItem["format"],
    canvaLink: r.canvaLink,
    imageLink: r.imageLink,
    category: r.category,
    freeOrPaid: r.freeOrPaid as SimpleItem["freeOrPaid"],
    createdAt: r.createdAt.toISOString(),
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
