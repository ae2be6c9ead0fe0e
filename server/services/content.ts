import type { SectionType } from "#domain/registry.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Actor } from "./activity";
import { add, insertMany, movedOrder, reorder, update } from "./content/commands.ts";
import { close, invalidate, listen, snapshot } from "./content/live.ts";
import { liveOf, notifyChanged, type ContentRecord, type ContentServiceOptions } from "./content/model.ts";
import { get, isEmpty } from "./content/queries.ts";
import { remove, restoreIn } from "./content/trash.ts";

export type { ContentRecord, ContentServiceOptions } from "./content/model.ts";

/**
 * Public content. Pages read one in-memory snapshot of every section, loaded with one query and dropped when any
 * instance changes content (PostgreSQL LISTEN/NOTIFY), so an anonymous page view costs no database round trip.
 *
 * The snapshot and the listening connection are in content/live.ts, over the state the factory builds once
 * (content/model.ts); the edits in content/commands.ts and content/trash.ts, the reads in content/queries.ts.
 */
export function createContentService(options: ContentServiceOptions) {
  const live = liveOf(options);
  return {
    /** A number that changes whenever content may have changed (for caches built on the snapshot). */
    generation: () => live.generation,

    /** Starts listening for changes made by any instance. */
    start: withDeps(live, listen),

    /** Another service changed what public pages show (an image's alt text): tells every instance, inside `tx`. */
    changedIn: notifyChanged,
    /** Drops this instance's snapshot at once (after the transaction that called changedIn committed). */
    invalidate: withDeps(live, invalidate),

    /** Whether changes made by other instances are being heard right now. */
    listening: () => live.listener !== undefined,

    close: withDeps(live, close),
    snapshot: withDeps(live, snapshot),

    async list(type: SectionType): Promise<ContentRecord[]> {
      return (await this.snapshot())[type] as unknown as ContentRecord[];
    },

    get: withDeps(live, get),
    add: withDeps(live, add),
    update: withDeps(live, update),
    remove: withDeps(live, remove),
    reorder: withDeps(live, reorder),

    /** Moves one record of a list one place up or down (the admin screens' buttons): a reorder of the whole list. */
    async move(type: string, id: string, direction: "up" | "down", actor?: Actor): Promise<{ modified: boolean }> {
      const ids = await movedOrder(live, type, id, direction);
      return ids ? this.reorder(type, ids, actor) : { modified: false };
    },

    restoreIn,
    isEmpty: withDeps(live, isEmpty),
    insertMany: withDeps(live, insertMany),
  };
}

export type ContentService = ReturnType<typeof createContentService>;
