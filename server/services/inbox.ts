import { sql } from "drizzle-orm";
import { messageSchema, subscriberSchema } from "../../app/content/forms";
import { parseWith } from "../../app/content/validation";
import type { Db } from "../db/client";
import { messages, subscribers } from "../db/schema";
import { badRequest, tooMany } from "../lib/errors";
import type { RateLimiter } from "./rate-limit";

export interface Visitor {
  ip: string;
  /** True when the honeypot field was filled in: answer success, store nothing. */
  isBot: boolean;
}

const TEN_MINUTES = 10 * 60_000;

/**
 * What visitors send from the public site: contact messages and newsletter signups.
 * Validated here, limited per IP, honeypot-filtered; the pages and the REST API both call these.
 */
export function createInboxService(db: Db, limiter: RateLimiter, perIpLimit: number) {
  async function limit(name: string, visitor: Visitor) {
    const { allowed } = await limiter.hit({ name, limit: perIpLimit, windowMs: TEN_MINUTES }, visitor.ip);
    if (!allowed) throw tooMany("You have sent this form too many times. Please wait a few minutes and try again.");
  }

  return {
    async sendMessage(input: unknown, visitor: Visitor): Promise<{ id: string | null }> {
      const parsed = parseWith(messageSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      await limit("contact", visitor);
      if (visitor.isBot) return { id: null };
      const [row] = await db
        .insert(messages)
        .values({ ...parsed.data, messageStatus: "UnRead" })
        .returning({ id: messages.id });
      return { id: row!.id };
    },

    /** Subscribes an address once; a repeat signup answers the same success with the existing record. */
    async subscribe(input: unknown, visitor: Visitor): Promise<{ id: string | null; created: boolean }> {
      const parsed = parseWith(subscriberSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      await limit("subscribe", visitor);
      if (visitor.isBot) return { id: null, created: false };
      const subemail = parsed.data.subemail;
      const inserted = await db.execute<{ id: string }>(sql`
        insert into subscribers (subemail) values (${subemail})
        on conflict ((lower(subemail))) do nothing
        returning id`);
      if (inserted.rows[0]) return { id: inserted.rows[0].id, created: true };
      const existing = await db.execute<{ id: string }>(
        sql`select id from ${subscribers} where lower(subemail) = lower(${subemail})`,
      );
      return { id: existing.rows[0]?.id ?? null, created: false };
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
