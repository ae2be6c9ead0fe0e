import { describe, expect, it } from "vitest";
import { articleInputSchema, bodyTooLong, MAX_RAW_BODY_CHARS, transition, type ArticleTimes } from "./article-edits";
import { parseWith } from "./validation";

const now = new Date("2026-11-29T12:00:00Z");
const at = { now, timeZone: "Europe/London" };
const draft: ArticleTimes = { state: "draft", publishAt: null, publishedAt: null };
const published: ArticleTimes = { state: "published", publishAt: null, publishedAt: new Date("2026-10-01T08:00:00Z") };

describe("what an article's buttons do to its state", () => {
  it("a new article saved is a draft; a save keeps the state and its times", () => {
    expect(transition(null, "save", "", at)).toEqual({ ok: true, ...draft });
    expect(transition(published, "save", "", at)).toEqual({ ok: true, ...published });
  });

  it("schedules for a time to come in the site's zone, and refuses a time past, a blank or a non-time", () => {
    expect(transition(draft, "schedule", "2026-12-01T09:30", at)).toEqual({
      ok: true,
      state: "scheduled",
      publishAt: new Date("2026-12-01T09:30:00Z"),
      publishedAt: null,
    });
    const past = transition(draft, "schedule", "2026-11-29T11:59", at);
    expect(past).toMatchObject({ ok: false, field: "publishAt" });
    expect(past.ok ? "" : past.message).toMatch(/has passed.*Europe\/London/);
    expect(transition(draft, "schedule", "", at)).toMatchObject({
      ok: false,
      message: "Choose the day and time to publish it.",
    });
    expect(transition(draft, "schedule", "next week", at)).toMatchObject({ ok: false, field: "publishAt" });
    expect(transition(published, "schedule", "2026-12-01T09:30", at)).toMatchObject({ ok: false, field: "intent" });
  });

  it("publishes with today's date the first time and keeps the first date after", () => {
    expect(transition(draft, "publish", "", at)).toEqual({
      ok: true,
      state: "published",
      publishAt: null,
      publishedAt: now,
    });
    const again = transition({ ...published, state: "unpublished" }, "publish", "", at);
    expect(again).toMatchObject({ ok: true, publishedAt: published.publishedAt });
  });

  it("unpublishes only what is published, and takes back to a draft only what is not", () => {
    expect(transition(published, "unpublish", "", at)).toMatchObject({ ok: true, state: "unpublished" });
    expect(transition(draft, "unpublish", "", at)).toMatchObject({ ok: false, message: /this one is draft/ });
    expect(transition(published, "draft", "", at)).toMatchObject({ ok: false });
    const scheduled: ArticleTimes = {
      state: "scheduled",
      publishAt: new Date("2026-12-01T09:30:00Z"),
      publishedAt: null,
    };
    expect(transition(scheduled, "draft", "", at)).toEqual({ ok: true, ...draft });
  });
});

describe("an article's fields as sent", () => {
  it("takes tags as a list or a comma-separated text, drops repeats, and bounds them", () => {
    const ok = parseWith(articleInputSchema, { title: "Hello", tags: "SEO, seo , Interiors," });
    expect(ok).toMatchObject({ ok: true, data: { tags: ["SEO", "Interiors"], access: "public", intent: "save" } });
    const many = parseWith(articleInputSchema, { title: "Hello", tags: Array.from({ length: 13 }, (_, i) => `t${i}`) });
    expect(many).toMatchObject({ ok: false, errors: [{ field: "tags", message: "Give at most 12 tags" }] });
  });

  it("refuses a missing title, an unknown access and a body past the bound, each with a sentence", () => {
    expect(parseWith(articleInputSchema, {})).toMatchObject({
      ok: false,
      errors: [{ field: "title", message: "Title is required" }],
    });
    expect(parseWith(articleInputSchema, { title: "T", access: "vip" })).toMatchObject({
      ok: false,
      errors: [{ field: "access", message: /Choose who may read it/ }],
    });
    const huge = "x".repeat(MAX_RAW_BODY_CHARS + 1);
    expect(parseWith(articleInputSchema, { title: "T", bodyHtml: huge })).toMatchObject({
      ok: false,
      errors: [{ field: "bodyHtml", message: bodyTooLong(huge.length) }],
    });
  });
});
