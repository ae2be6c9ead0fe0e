import { withDeps } from "#server/lib/with-deps.ts";
import { add, addSimpleItem, remove, restoreIn, seedIfEmpty, update } from "./catalogue/commands.ts";
import { access, catalogueOf, type CatalogueServiceDeps } from "./catalogue/model.ts";
import { get, list, listSimpleItems, templatesFor } from "./catalogue/queries.ts";

export {
  NO_MEMBERSHIP,
  type CatalogueItem,
  type CatalogueServiceDeps,
  type LockedItem,
  type SimpleItem,
} from "./catalogue/model.ts";

/**
 * The catalogue of cold-email generators. Anyone signed in sees the items' names; their guidelines, categories and
 * templates only an admin or a customer with an active membership (the same rule as the dashboard's banner).
 *
 * The reads are in catalogue/queries.ts, the changes in catalogue/commands.ts: functions over the dependencies and
 * the items kept in memory (catalogue/model.ts), which this factory only wires (decision 085).
 */
export function createCatalogueService(deps: CatalogueServiceDeps) {
  const catalogue = catalogueOf(deps);
  return {
    /** Whether this viewer may open items (an admin always; a customer with an active membership). */
    access: withDeps(catalogue, access),
    list: withDeps(catalogue, list),
    get: withDeps(catalogue, get),
    templatesFor: withDeps(catalogue, templatesFor),
    add: withDeps(catalogue, add),
    update: withDeps(catalogue, update),
    remove: withDeps(catalogue, remove),
    restoreIn: withDeps(catalogue, restoreIn),
    seedIfEmpty: withDeps(catalogue, seedIfEmpty),
    addSimpleItem: withDeps(catalogue, addSimpleItem),
    listSimpleItems: withDeps(catalogue, listSimpleItems),
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
