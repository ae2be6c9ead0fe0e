import { desc } from "drizzle-orm";
import type { Membership } from "#domain/membership.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { loadTemplates, type EmailTemplate } from "#server/catalogue/categories.ts";
import { simpleItems } from "#server/db/schema.ts";
import { AppError } from "#server/lib/errors.ts";
import { pageOf } from "#server/lib/paging.ts";
import type { Viewer } from "#server/services/accounts.ts";
import {
  access,
  allRows,
  assertAdmin,
  NO_MEMBERSHIP,
  row,
  toItem,
  toSimpleItem,
  type Catalogue,
  type CatalogueItem,
  type LockedItem,
  type SimpleItem,
} from "./model.ts";

/**
 * The dashboard grid, oldest first: full items for those with access, names and descriptions for the others.
 * A membership already computed by the caller is reused.
 */
export async function list(
  catalogue: Catalogue,
  viewer: Viewer,
  membership?: Membership,
): Promise<{ access: true; items: CatalogueItem[] } | { access: false; items: LockedItem[] }> {
  const [allowed, rows] = await Promise.all([access(catalogue, viewer, membership), allRows(catalogue)]);
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
}

/** One item, for a member or an admin; anyone else: 403 'No active membership found' (whether it exists or not). */
export async function get(catalogue: Catalogue, viewer: Viewer, id: string): Promise<CatalogueItem> {
  if (!(await access(catalogue, viewer))) throw new AppError(403, NO_MEMBERSHIP);
  return toItem(await row(catalogue, id));
}

/** The templates of an item's category, under the same rule as `get`. */
export async function templatesFor(catalogue: Catalogue, viewer: Viewer, id: string): Promise<EmailTemplate[]> {
  const item = await get(catalogue, viewer, id);
  return loadTemplates(item.itemDatabaseUrl);
}

/** The stored simple items, newest first, one page of them. */
export async function listSimpleItems(
  { db }: Catalogue,
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
}
