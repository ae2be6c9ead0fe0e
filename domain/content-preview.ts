import { getSection, limitReachedText, recordLimit, type ContentSnapshot, type SectionType } from "./registry";

/**
 * The preview of an unsaved change (issue 36, part 6; decision 074): the site's content as it would be once the
 * change is saved, worked out from the content snapshot without writing anything. The preview page draws the public
 * page from it with the page's own components, so what the studio sees is what a save would show.
 */

/** The id an added record has in a preview (a saved one gets its id from the database). */
export const PREVIEW_RECORD_ID = "preview";

/** A change as a content screen's form would save it: its fields already checked by the section's schema. */
export type UnsavedChange =
  | { type: SectionType; op: "add"; fields: Record<string, unknown> }
  | { type: SectionType; op: "update"; id: string; fields: Record<string, unknown> }
  | { type: SectionType; op: "remove"; id: string };

export type PreviewContent =
  | { ok: true; snapshot: ContentSnapshot }
  /** What a save would refuse, with the status the service would answer. */
  | { ok: false; status: 404 | 409; message: string };

const GONE = "This record is no longer on the site: someone may have deleted it. Reload the screen to see it as it is.";

/**
 * The snapshot with one unsaved change in it, as the content service would store it: an edit replaces the record's
 * fields (a field left empty is gone), an add goes at the end of its list (a singleton's is its one record), a delete
 * leaves the record out. What a save would refuse is refused here too: a record that is no longer there, an add past
 * the section's limit. The snapshot given is shared by every page: it is never written to; the lists that change
 * are new ones, the others the same.
 */
export function withUnsavedChange(snapshot: ContentSnapshot, change: UnsavedChange): PreviewContent {
  const section = getSection(change.type)!;
  const records = snapshot[change.type] as readonly { _id: string }[];
  let next: { _id: string }[];
  if (change.op === "add") {
    const limit = recordLimit(section);
    if (limit !== undefined && records.length >= limit)
      return { ok: false, status: 409, message: limitReachedText(section) };
    next = [...records, { _id: PREVIEW_RECORD_ID, ...change.fields }];
  } else {
    if (!records.some((r) => r._id === change.id)) return { ok: false, status: 404, message: GONE };
    next =
      change.op === "remove"
        ? records.filter((r) => r._id !== change.id)
        : records.map((r) => (r._id === change.id ? { _id: r._id, ...change.fields } : r));
  }
  return { ok: true, snapshot: { ...snapshot, [change.type]: next } as ContentSnapshot };
}
