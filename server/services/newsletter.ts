import { sql } from "drizzle-orm";
import type { Person } from "#domain/privacy.ts";
import { subscribers } from "../db/schema";
import { withDeps } from "../lib/with-deps";
import type { Tx } from "./jobs";
import { confirm, importMany, subscribe, unsubscribe } from "./newsletter/commands";
import { contextOf, type NewsletterDeps } from "./newsletter/model";
import { all, confirmLink, counts, list, unsubscribeLink } from "./newsletter/queries";

export {
  confirmPath,
  unsubscribeHeaders,
  unsubscribePath,
  type ConfirmLink,
  type NewsletterDeps,
  type SubscriberRecord,
} from "./newsletter/model";

/**
 * The newsletter, double opt-in: a footer signup is pending until its emailed link is used (7 days); only confirmed
 * addresses are subscribers; every newsletter mail carries a stable one-click unsubscribe link (RFC 8058).
 * The answer to a signup never says whether the address was known. The signups, confirmations and unsubscribes are in
 * newsletter/commands.ts, the reads in newsletter/queries.ts, each a function over the context this factory builds
 * once (decision 085).
 */
export function createNewsletterService(options: NewsletterDeps) {
  const ctx = contextOf(options);
  return {
    unsubscribeUrl: ctx.unsubscribeUrl,
    confirmLink: withDeps(ctx, confirmLink),
    subscribe: withDeps(ctx, subscribe),
    importMany: withDeps(ctx, importMany),
    confirm: withDeps(ctx, confirm),
    unsubscribeLink: withDeps(ctx, unsubscribeLink),
    unsubscribe: withDeps(ctx, unsubscribe),
    list: withDeps(ctx, list),
    counts: withDeps(ctx, counts),
    all: withDeps(ctx, all),
  };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;

/** Forgets a person's newsletter signups (decision 086): the subscriber rows of any of their addresses, any case. */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  if (!person.emails.length) return;
  await tx.delete(subscribers).where(sql`lower(${subscribers.subemail}) = any(${sql.param(person.emails)}::text[])`);
}
