import { desc, eq, sql } from "drizzle-orm";
import type { SubscriberState } from "#domain/vocabulary.ts";
import type { Db } from "#server/db/client.ts";
import { subscribers } from "#server/db/schema.ts";
import { preparedPages } from "#server/lib/paging.ts";
import type { JobsService } from "../jobs";
import type { MailsService } from "../mails";
import { unsubscribeToken, type ConfirmLinkState } from "../newsletter-tokens";
import type { RateLimiter } from "../rate-limit";
import type { SuppressionsService } from "../suppressions";
import type { WebhookEmitter } from "../webhooks";

export interface SubscriberRecord {
  _id: string;
  subemail: string;
  state: SubscriberState;
  subscribedAt: string;
  confirmedAt: string | null;
  unsubscribedAt: string | null;
  createdAt: string;
}
const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const toSubscriber = (r: typeof subscribers.$inferSelect): SubscriberRecord => ({
  _id: r.id,
  subemail: r.subemail,
  state: r.state,
  subscribedAt: r.subscribedAt.toISOString(),
  confirmedAt: iso(r.confirmedAt),
  unsubscribedAt: iso(r.unsubscribedAt),
  createdAt: r.createdAt.toISOString(),
});

/** Where the newsletter's links lead (app/routes.ts). */
export const confirmPath = (token: string) => `/newsletter/confirm/${token}`;
export const unsubscribePath = (token: string) => `/newsletter/unsubscribe/${token}`;

/** RFC 8058: the headers that let a mail provider offer "Unsubscribe" and unsubscribe with one POST. */
export const unsubscribeHeaders = (unsubscribeUrl: string): Record<string, string> => ({
  "List-Unsubscribe": `<${unsubscribeUrl}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});

/** What a confirmation link page shows; `email` only for a link that names its address. */
export type ConfirmLink = { state: ConfirmLinkState; email?: string };

export interface NewsletterDeps {
  db: Db;
  limiter: RateLimiter;
  perIpLimit: number;
  jobs: Pick<JobsService, "queueMail">;
  mails: Pick<MailsService, "compose">;
  /** Unsubscribes are listed there too, so that no audience (members, customers) mails the person again. */
  suppressions: Pick<SuppressionsService, "suppress" | "liftUnsubscribe">;
  secret: string;
  publicUrl: string;
  now: () => Date;
  /** subscriber.confirmed and subscriber.unsubscribed, in the change's transaction (docs/decisions/078). */
  webhooks?: Pick<WebhookEmitter, "emitTx" | "emitManyTx">;
}

/** The dependencies with what the factory builds once from them: the site's addresses, the prepared list. */
export function contextOf(options: NewsletterDeps) {
  const { db, secret, publicUrl } = options;
  const url = (path: string) => new URL(path, publicUrl).toString();
  const unsubscribeUrl = (id: string) => url(unsubscribePath(unsubscribeToken(secret, id)));
  /** The addresses in a state, newest first: the back office's home shows the first page on every view, and
   * (state, subscribed_at, id) serves every state, so one plan does (prepared). */
  const inState = preparedPages(db, subscribers, {
    where: eq(subscribers.state, sql.placeholder("state")),
    orderBy: [desc(subscribers.subscribedAt), desc(subscribers.id)],
  });
  return { ...options, url, unsubscribeUrl, inState };
}

export type NewsletterContext = ReturnType<typeof contextOf>;
