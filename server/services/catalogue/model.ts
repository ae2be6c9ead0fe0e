import { asc } from "drizzle-orm";
import { itemFormSchema, type SimpleItemForm } from "#domain/catalogue.ts";
import { opens } from "#domain/capabilities.ts";
import { hasAccess, type Membership } from "#domain/membership.ts";
import { parseWith } from "#domain/validation.ts";
import { categoryLabel, type CategoryKey } from "#domain/vocabulary.ts";
import type { Db } from "#server/db/client.ts";
import { catalogueItems, type simpleItems } from "#server/db/schema.ts";
import { badRequest, conflict, forbidden, isId, isUniqueViolation, notFound } from "#server/lib/errors.ts";
import type { Viewer } from "#server/services/accounts.ts";
import type { ContentService } from "#server/services/content.ts";
import type { OrdersService } from "#server/services/orders/index.ts";

export type Row = typeof catalogueItems.$inferSelect;

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
export const ITEM_NOT_FOUND = "Item not found";

export const toItem = (r: Row): CatalogueItem => ({
  _id: r.id,
  itemName: r.itemName,
  itemsDescription: r.itemsDescription,
  itemDatabaseUrl: r.itemDatabaseUrl as CategoryKey,
  itemsGuideline: r.itemsGuideline,
  itemURL: r.itemUrl,
});

export function toSimpleItem(r: typeof simpleItems.$inferSelect): SimpleItem {
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

/** The dependencies, and the items kept in memory (built once by the factory). */
export interface Catalogue extends CatalogueServiceDeps {
  /**
   * Every item, oldest first, read once per generation of the change signal: a dashboard or item page costs no query
   * for them. A read started before a change is shared only with readers of its own generation.
   */
  items: { generation: number; rows: Promise<Row[]> } | undefined;
}

export const catalogueOf = (deps: CatalogueServiceDeps): Catalogue => ({ ...deps, items: undefined });

export function allRows(catalogue: Catalogue): Promise<Row[]> {
  const generation = catalogue.changes.generation();
  if (catalogue.items?.generation !== generation) {
    const started = {
      generation,
      rows: Promise.resolve(
        catalogue.db.select().from(catalogueItems).orderBy(asc(catalogueItems.createdAt), asc(catalogueItems.id)),
      ),
    };
    catalogue.items = started;
    // A failed read is not kept: the next reader asks the database again.
    started.rows.catch(() => (catalogue.items === started ? (catalogue.items = undefined) : undefined));
  }
  return catalogue.items.rows;
}

/** Runs a change to the items and tells every instance once it is committed. */
export async function changing<T>({ changes }: Catalogue, change: () => Promise<T>): Promise<T> {
  const result = await change();
  changes.invalidate();
  return result;
}

export async function access({ orders }: Catalogue, viewer: Viewer, membership?: Membership): Promise<boolean> {
  if (opens(viewer, "items")) return true;
  return hasAccess(membership ?? (await orders.membership(viewer)));
}

export function assertAdmin(viewer: Viewer) {
  if (!opens(viewer, "items")) throw forbidden();
}

export async function row(catalogue: Catalogue, id: string): Promise<Row> {
  if (!isId(id)) throw notFound(ITEM_NOT_FOUND);
  const found = (await allRows(catalogue)).find((r) => r.id === id);
  if (!found) throw notFound(ITEM_NOT_FOUND);
  return found;
}

/** A unique-category violation as a 409 that says what to do. */
export function categoryTaken(error: unknown, key: string): never {
  if (isUniqueViolation(error)) {
    throw conflict(
      `The category ${categoryLabel(key)} is already used by another item. Choose another category, or delete that item first.`,
    );
  }
  throw error;
}

export function parseItem(input: unknown) {
  const parsed = parseWith(itemFormSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  return parsed.data;
}
