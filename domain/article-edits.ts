import { z } from "zod";
import {
  ARTICLE_ACCESS,
  ARTICLE_STATE_LABEL,
  MAX_BODY_CHARS,
  MAX_EXCERPT,
  MAX_SLUG,
  MAX_TAG,
  MAX_TAGS,
  MAX_TITLE,
  normaliseTags,
  type ArticleState,
} from "./articles";
import { formatDate } from "./dates";
import { count } from "./format";
import { choice, requiredText, text } from "./fields";
import { fromZonedTime } from "./zoned-time";

/**
 * An article's edit (issue 36, part 1): the fields the back office sends, by REST as JSON or by the editing screen as
 * a form, and what each button does to the article's state. The server cleans the body (server/lib/clean-html.ts);
 * server/services/articles.ts applies both.
 */

/** What a save does besides storing the fields: keep the state, or move it (the editing screen's buttons). */
export const ARTICLE_INTENTS = ["save", "draft", "schedule", "publish", "unpublish"] as const;
export type ArticleIntent = (typeof ARTICLE_INTENTS)[number];

/** The tags, from a list or a comma-separated text: at most MAX_TAGS, each at most MAX_TAG characters. */
const tagList = z
  .union([z.string(), z.array(z.string({ error: "Each tag must be text" })).max(100)], {
    error: "Tags must be a list of words or a comma-separated text",
  })
  .optional()
  .default([])
  .transform(normaliseTags)
  .superRefine((tags, ctx) => {
    if (tags.length > MAX_TAGS) ctx.addIssue({ code: "custom", message: `Give at most ${MAX_TAGS} tags` });
    const long = tags.find((t) => t.length > MAX_TAG);
    if (long)
      ctx.addIssue({ code: "custom", message: `The tag “${long.slice(0, 20)}…” is longer than ${MAX_TAG} characters` });
  });

/** A media library image's address (as the sections keep images: /media/…), or blank for none. */
const image = (label: string) => text(label, 300).optional().default("");

/** The longest body accepted before cleaning (the cleaning only removes): twice the stored limit. */
export const MAX_RAW_BODY_CHARS = MAX_BODY_CHARS * 2;
export const bodyTooLong = (length: number) =>
  `The body is too long: ${count(length)} characters of HTML, the most is ${count(MAX_BODY_CHARS)}. Split it into two articles.`;

/** The fields of an article as sent (a whole article each time: an update replaces them all). */
export const articleInputSchema = z.object({
  title: requiredText("Title", MAX_TITLE),
  /** Blank: made from the title. Typed: made into an address the same way ("My Post" → "my-post"). */
  slug: text("Address", MAX_SLUG + 80)
    .optional()
    .default(""),
  excerpt: text("Excerpt", MAX_EXCERPT).optional().default(""),
  coverImage: image("Cover image"),
  bodyHtml: z
    .string({ error: "Body must be text (HTML)" })
    .optional()
    .default("")
    .refine((html) => html.length <= MAX_RAW_BODY_CHARS, { error: (issue) => bodyTooLong(String(issue.input).length) }),
  access: choice(ARTICLE_ACCESS, {
    invalid: "Choose who may read it: everyone, members only, or everyone with a members-only part",
  })
    .optional()
    .default("public"),
  tags: tagList,
  /** A staff member's user id; blank: whoever wrote it (its creator). */
  authorId: text("Author", 100).optional().default(""),
  seoTitle: text("Search listing title", 300).optional().default(""),
  seoDescription: text("Search listing description", 1000).optional().default(""),
  seoImage: image("Share image"),
  intent: choice(ARTICLE_INTENTS, { invalid: `Choose what to do: ${ARTICLE_INTENTS.join(", ")}` })
    .optional()
    .default("save"),
  /** For "schedule": a day and time in the site's time zone ("2026-12-01T09:30"). */
  publishAt: text("Publish at", 40).optional().default(""),
});
export type ArticleInput = z.infer<typeof articleInputSchema>;

/** A state change alone (the REST call and the list's buttons). */
export const articleStateSchema = z.object({
  intent: choice(["draft", "schedule", "publish", "unpublish"], {
    invalid: "Choose what to do: draft, schedule, publish or unpublish",
  }),
  publishAt: text("Publish at", 40).optional().default(""),
});

export interface ArticleTimes {
  state: ArticleState;
  publishAt: Date | null;
  publishedAt: Date | null;
}

export type Transition = ({ ok: true } & ArticleTimes) | { ok: false; field: string; message: string };

/**
 * What a button does to an article's state (null: a new article). Save keeps it; Save as draft takes a scheduled or
 * unpublished one back to a draft; Schedule needs a time to come (typed in the site's time zone); Publish now
 * publishes (the first publication's date is kept: it is the article's date on the site); Unpublish takes a published
 * one off the site. A published article is unpublished before it is scheduled or made a draft again.
 */
export function transition(
  current: ArticleTimes | null,
  intent: ArticleIntent,
  typedPublishAt: string,
  { now, timeZone }: { now: Date; timeZone: string },
): Transition {
  const was: ArticleTimes = current ?? { state: "draft", publishAt: null, publishedAt: null };
  const published = was.state === "published";
  const refuse = (message: string, field = "intent"): Transition => ({ ok: false, field, message });
  switch (intent) {
    case "save":
      return { ok: true, ...was };
    case "draft":
      if (published) return refuse("This article is on the site: unpublish it to take it off the site.");
      return { ok: true, state: "draft", publishAt: null, publishedAt: was.publishedAt };
    case "schedule": {
      if (published) return refuse("This article is published already: unpublish it first to schedule it again.");
      if (!typedPublishAt.trim()) return refuse("Choose the day and time to publish it.", "publishAt");
      const at = fromZonedTime(typedPublishAt, timeZone);
      if (!at) return refuse("The time to publish must be a day and a time, such as 2026-12-01T09:30.", "publishAt");
      if (at.getTime() <= now.getTime())
        return refuse(
          `The time to publish has passed (it is ${formatDate(now, timeZone, "dateTime")} now, ${timeZone} time): choose a later time, or publish it now.`,
          "publishAt",
        );
      return { ok: true, state: "scheduled", publishAt: at, publishedAt: was.publishedAt };
    }
    case "publish":
      return { ok: true, state: "published", publishAt: null, publishedAt: was.publishedAt ?? now };
    case "unpublish":
      if (!published)
        return refuse(
          `Only a published article can be unpublished: this one is ${ARTICLE_STATE_LABEL[was.state].toLowerCase()}.`,
        );
      return { ok: true, state: "unpublished", publishAt: null, publishedAt: was.publishedAt };
  }
}

/** The fields a version keeps and a restore writes back (the article's state is not one: a restore never publishes). */
export const VERSIONED_FIELDS = [
  "title",
  "slug",
  "excerpt",
  "coverImage",
  "bodyHtml",
  "access",
  "tags",
  "authorId",
  "authorName",
  "seoTitle",
  "seoDescription",
  "seoImage",
] as const;
