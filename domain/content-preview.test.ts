import { describe, expect, it } from "vitest";
import { PREVIEW_RECORD_ID, withUnsavedChange } from "./content-preview";
import { sectionTypes, type ContentSnapshot } from "./registry";

/** A snapshot with every section empty but the banner, the FAQ items and the about blocks. */
function snapshot(): ContentSnapshot {
  const empty = Object.fromEntries(sectionTypes.map((t) => [t, []])) as unknown as ContentSnapshot;
  return {
    ...empty,
    banner: [{ _id: "b1", bannerHeading: "Saved heading", bannerDetails: "Saved text" }],
    faqItem: [
      { _id: "f1", accodingTitle: "One?", accodingText: "Yes." },
      { _id: "f2", accodingTitle: "Two?", accodingText: "No." },
    ],
    about: [
      { _id: "a1", aboutHeading: "First" },
      { _id: "a2", aboutHeading: "Second" },
    ],
  } as unknown as ContentSnapshot;
}

/** Freezes a snapshot and its lists and records, so that any write to them throws. */
function frozen(s: ContentSnapshot): ContentSnapshot {
  for (const list of Object.values(s)) {
    for (const record of list as object[]) Object.freeze(record);
    Object.freeze(list);
  }
  return Object.freeze(s);
}

const titles = (s: ContentSnapshot) => s.faqItem.map((r) => r.accodingTitle);

describe("withUnsavedChange", () => {
  it("puts an edited record in its place with the typed fields only, leaving the snapshot as it was", () => {
    const saved = frozen(snapshot());
    const result = withUnsavedChange(saved, {
      type: "faqItem",
      op: "update",
      id: "f1",
      fields: { accodingTitle: "One, edited?", accodingText: "Still yes." },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.snapshot.faqItem).toEqual([
      { _id: "f1", accodingTitle: "One, edited?", accodingText: "Still yes." },
      { _id: "f2", accodingTitle: "Two?", accodingText: "No." },
    ]);
    expect(titles(saved)).toEqual(["One?", "Two?"]);
    // The other sections are the very same lists (nothing copied that did not change).
    expect(result.snapshot.banner).toBe(saved.banner);
  });

  it("replaces every field, so that a field emptied in the form is empty in the preview (as a save does)", () => {
    const result = withUnsavedChange(snapshot(), {
      type: "banner",
      op: "update",
      id: "b1",
      fields: { bannerHeading: "New heading" },
    });
    expect(result.ok && result.snapshot.banner).toEqual([{ _id: "b1", bannerHeading: "New heading" }]);
  });

  it("adds a list's record at the end, where a save puts it, and a singleton's as its one record", () => {
    const list = withUnsavedChange(snapshot(), {
      type: "faqItem",
      op: "add",
      fields: { accodingTitle: "Three?", accodingText: "Maybe." },
    });
    expect(list.ok && titles(list.snapshot)).toEqual(["One?", "Two?", "Three?"]);
    expect(list.ok && list.snapshot.faqItem[2]!._id).toBe(PREVIEW_RECORD_ID);

    const single = withUnsavedChange(snapshot(), { type: "copyright", op: "add", fields: { copyrightText: "© 2026" } });
    expect(single.ok && single.snapshot.copyright).toEqual([{ _id: PREVIEW_RECORD_ID, copyrightText: "© 2026" }]);
  });

  it("shows the page without a record that would be deleted", () => {
    const result = withUnsavedChange(snapshot(), { type: "faqItem", op: "remove", id: "f1" });
    expect(result.ok && titles(result.snapshot)).toEqual(["Two?"]);
  });

  it("refuses what a save would refuse: a record no longer there, an add past the section's limit", () => {
    expect(withUnsavedChange(snapshot(), { type: "faqItem", op: "update", id: "gone", fields: {} })).toEqual({
      ok: false,
      status: 404,
      message:
        "This record is no longer on the site: someone may have deleted it. Reload the screen to see it as it is.",
    });
    expect(withUnsavedChange(snapshot(), { type: "faqItem", op: "remove", id: "gone" }).ok).toBe(false);
    expect(withUnsavedChange(snapshot(), { type: "about", op: "add", fields: { aboutHeading: "Third" } })).toEqual({
      ok: false,
      status: 409,
      message: "You have reached the maximum of 2 About sections.",
    });
    expect(withUnsavedChange(snapshot(), { type: "banner", op: "add", fields: { bannerHeading: "Another" } })).toEqual({
      ok: false,
      status: 409,
      message: "Banner already exists: edit it instead of adding another.",
    });
  });
});
