import { z } from "zod";
import {
  NEWSLETTER_AUDIENCES,
  type NewsletterAudience,
  type NewsletterState,
  type RecipientCounts,
} from "#domain/newsletters.ts";
import type { Db } from "#server/db/client.ts";
import { isId } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import { absoluteUrl } from "#server/mail/brand.ts";
import type { JobsService } from "../jobs";
import type { Mailer } from "../mailer";
import type { MailsService } from "../mails";

/** The queue a newsletter's batches run on, one job waiting and one running per newsletter. */
export const NEWSLETTER_QUEUE = "newsletter-send";
/** The activity log's name for a newsletter: staff's changes to one (written, scheduled, sent, deleted) are logged. */
export const NEWSLETTER_ENTITY = "newsletter";

const MAX_SUBJECT = 200;
const MAX_PREVIEW = 200;
const MAX_BODY_TEXT = 100_000;

export const NEWSLETTER_NO_AUDIENCE = "Nobody in this audience can be mailed.";

const audienceSchema = z.preprocess(
  (v) => (typeof v === "string" ? [v] : v),
  z
    .array(z.enum(NEWSLETTER_AUDIENCES, { error: "Audience must be subscribers, members or customers" }))
    .min(1, { error: "Choose at least one audience" })
    .max(3)
    .transform((a) => [...new Set(a)]),
);

/** A draft: its subject and preview, from an article or a standalone body (plain text or the editor's HTML). */
export const newsletterDraftSchema = z
  .object({
    subject: z
      .string({ error: "Subject is required" })
      .trim()
      .min(1, { error: "Subject is required" })
      .max(MAX_SUBJECT, { error: `Subject must be at most ${MAX_SUBJECT} characters` }),
    previewText: z
      .string()
      .trim()
      .max(MAX_PREVIEW, { error: `Preview text must be at most ${MAX_PREVIEW} characters` })
      .optional()
      .transform((v) => v ?? ""),
    articleId: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined))
      .refine((v) => v === undefined || isId(v), { error: "Choose a published article" }),
    /** Plain text, made into paragraphs. */
    bodyText: z
      .string()
      .max(MAX_BODY_TEXT, { error: `The message must be at most ${MAX_BODY_TEXT} characters` })
      .optional(),
    /** Rich text from the editor, cleaned on the server. */
    bodyHtml: z
      .string()
      .max(MAX_BODY_TEXT * 2, { error: "The message is too long" })
      .optional(),
    audience: audienceSchema,
  })
  .refine((d) => d.articleId || (d.bodyText ?? "").trim() || (d.bodyHtml ?? "").trim(), {
    error: "Choose an article or write a message",
    path: ["articleId"],
  });

/** "Send now" (no `at`) or "Send at" a time (ISO, or the form's site-time value converted by the page). */
export const newsletterSendSchema = z.object({
  at: z
    .union([z.string().trim(), z.null()])
    .optional()
    .transform((v) => (v ? new Date(v) : null))
    .refine((d) => d === null || !Number.isNaN(d.getTime()), { error: "The time to send is not a valid date" }),
});

export const newsletterAudienceSchema = z.object({ audience: audienceSchema });

export interface NewsletterRecord {
  _id: string;
  subject: string;
  previewText: string;
  articleId: string | null;
  articleTitle: string | null;
  bodyHtml: string;
  audience: NewsletterAudience[];
  state: NewsletterState;
  sendAt: string | null;
  createdBy: string;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  counts: RecipientCounts & { unsubscribed: number };
}

export interface NewslettersDeps {
  db: Db;
  jobs: Pick<JobsService, "queueMail" | "worker" | "send" | "every">;
  mails: Pick<MailsService, "brand">;
  mailer: Pick<Mailer, "deliverBulk">;
  secret: string;
  publicUrl: string;
  mailFrom: string;
  ratePerMinute: number;
  /**
   * Where this host notes each mail SMTP accepted, the moment it answers (DATA_DIR/newsletters/<id>.accepted): a kill
   * -9 cannot lose what was appended, so after a restart on this host a row left `sending` whose mail SMTP had taken
   * is known to be sent and is not sent again.
   */
  journalDir: string;
  logger: Logger;
  now: () => Date;
}

/** The dependencies with what the factory works out once from them: the site's addresses, the Message-IDs' domain. */
export interface NewslettersContext extends NewslettersDeps {
  url: (path: string) => string;
  domain: string;
}

export const contextOf = (deps: NewslettersDeps): NewslettersContext => ({
  ...deps,
  url: (path: string) => absoluteUrl(deps.publicUrl, path),
  domain: /@([^>\s]+)>?\s*$/.exec(deps.mailFrom)?.[1] ?? new URL(deps.publicUrl).hostname,
});
