/**
 * The mail kinds and their data (the contract between the mail helpers). The table itself lives in
 * domain/mail-kinds.ts, so that the activity log (domain/) can name a kind too.
 */
export * from "#domain/mail-kinds.ts";
