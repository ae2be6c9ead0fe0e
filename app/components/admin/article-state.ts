import type { ArticleState } from "#domain/articles.ts";
import type { Tone } from "#domain/vocabulary.ts";

/** The colour of an article's state badge (the list and the editing screen). */
export const STATE_TONE: { readonly [S in ArticleState]: Tone } = {
  draft: "grey",
  scheduled: "blue",
  published: "green",
  unpublished: "amber",
};
