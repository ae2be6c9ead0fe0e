/**
 * Newsletters (issue 36, part 4): the words of their states, audiences and recipients' statuses, and the pure rules
 * the service and the pages share. The tables' CHECKs derive from these lists.
 */

/** Whom a newsletter may go to: confirmed subscribers, active members, customers who agreed to mail. */
export const NEWSLETTER_AUDIENCES = ["subscribers", "members", "customers"] as const;
export type NewsletterAudience = (typeof NEWSLETTER_AUDIENCES)[number];
export const AUDIENCE_LABELS: Record<NewsletterAudience, string> = {
  subscribers: "Confirmed subscribers",
  members: "Active members",
  customers: "Customers who bought a membership",
};

/** draft → scheduled → sending → sent, or partly sent when some recipients failed (those can be retried). */
export const NEWSLETTER_STATES = ["draft", "scheduled", "sending", "sent", "partly-sent"] as const;
export type NewsletterState = (typeof NEWSLETTER_STATES)[number];
export const NEWSLETTER_STATE_LABELS: Record<NewsletterState, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  sending: "Sending",
  sent: "Sent",
  "partly-sent": "Partly sent",
};

/**
 * A recipient: queued, being handed to SMTP now (`sending`, with the attempt's id), sent, failed (SMTP refused it:
 * a retry sends it again), or suppressed (on the suppression list when its turn came: never sent).
 */
export const RECIPIENT_STATUSES = ["queued", "sending", "sent", "failed", "suppressed"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** Why an address is on the suppression list. */
export const SUPPRESSION_REASONS = ["bounce", "complaint", "unsubscribe", "manual"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const SUPPRESSION_REASON_LABELS: Record<SuppressionReason, string> = {
  bounce: "Hard bounce",
  complaint: "Spam complaint",
  unsubscribe: "Unsubscribed",
  manual: "Added by hand",
};

/** Recipients claimed at once by the sending job (FOR UPDATE SKIP LOCKED). */
export const NEWSLETTER_BATCH = 100;
/**
 * Mails handed to SMTP at once (over the pool's connections), each row marked `sending` before and `sent` after: the
 * most that can be in doubt when the app is killed, and so the most a crash can send twice (same Message-ID).
 */
export const NEWSLETTER_IN_FLIGHT = 8;

/**
 * How long to wait before the next mail (or group of mails) so that no more than `perMinute` leave in any minute: the
 * time one is due at that rate, less the time the last one took.
 */
export function paceMs(perMinute: number, tookMs: number): number {
  return Math.max(0, Math.ceil(60_000 / perMinute) - tookMs);
}

/** What a newsletter's screen says about its recipients, and whether the send is over. */
export interface RecipientCounts {
  queued: number;
  sending: number;
  sent: number;
  failed: number;
  suppressed: number;
}

/** The state a send ends in once no recipient waits: sent, or partly sent when some failed. */
export function finishedState(counts: RecipientCounts): "sent" | "partly-sent" | null {
  if (counts.queued > 0 || counts.sending > 0) return null;
  return counts.failed > 0 ? "partly-sent" : "sent";
}

/**
 * The Message-ID of one newsletter's mail to one recipient: fixed before the first attempt, so a mail sent again
 * after a crash (the one mail in flight when the app died) carries the same id and the two can be told apart as one.
 */
export const recipientMessageId = (newsletterId: string, recipientId: string, domain: string) =>
  `<nl-${newsletterId}-${recipientId}@${domain}>`;

/** Plain text typed in a textarea, as paragraphs (blank lines) and line breaks, HTML-escaped. */
export function textToHtml(text: string): string {
  const escape = (s: string) =>
    s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escape(p).replace(/\n/g, "<br>")}</p>`)
    .join("");
}
