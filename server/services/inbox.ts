import { and, desc, eq, sql } from "drizzle-orm";
import type { PageInfo } from "../../domain/pagination";
import { z } from "zod";
import { audited, type Actor } from "./activity";
import { isId, notFound } from "../lib/errors";
import { messageSchema, subscriberSchema } from "../../domain/public-forms";
import { parseWith } from "../../domain/validation";
import type { Db } from "../db/client";
import { pageOf } from "../lib/paging";
import { messages, subscribers } from "../db/schema";
import { badRequest, tooMany } from "../lib/errors";

export interface MessageRecord {
  _id: string;
  name: string;
  email: string;
  number: string;
  subject: string;
  message: string;
  messageStatus: MessageStatus;
  createdAt: string;
}
export interface SubscriberRecord {
  _id: string;
  subemail: string;
  createdAt: string;
}
const toMessage = (r: typeof messages.$inferSelect): MessageRecord => ({
  _id: r.id,
  name: r.name,
  email: r.email,
  number: r.number,
  subject: r.subject,
  message: r.message,
  messageStatus: r.messageStatus,
  createdAt: r.createdAt.toISOString(),
});
const toSubscriber = (r: typeof subscribers.$inferSelect): SubscriberRecord => ({
  _id: r.id,
  subemail: r.subemail,
  createdAt: r.createdAt.toISOString(),
});
const markSchema = z.object({ messageStatus: z.literal("Read", { error: "messageStatus can only become Read" }) });
import type { RateLimiter } from "./rate-limit";
import type { MailsService } from "../mail/compose";
import { jobKey } from "./jobs";
import type { MessageStatus } from "../../domain/vocabulary";

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
export function createInboxService(
  db: Db,
  limiter: RateLimiter,
  perIpLimit: number,
  mails: Pick<MailsService, "queueToAdmins">,
) {
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
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(messages)
          .values({ ...parsed.data, messageStatus: "UnRead" })
          .returning({ id: messages.id });
        // Every admin hears of it (Reply-To: the visitor), in the same transaction as the message.
        await mails.queueToAdmins(
          tx,
          "adminContactMessage",
          { messageId: row!.id, ...parsed.data },
          jobKey("message", row!.id, "received"),
        );
        return { id: row!.id };
      });
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

    /** Messages of one status, newest first, one page (the admin's Unread and Read tables page separately). */
    async messagesByStatus(
      status: "UnRead" | "Read",
      page: unknown,
      perPage: number,
    ): Promise<{ messages: MessageRecord[]; page: PageInfo }> {
      const { rows, page: info } = await pageOf(db, messages, {
        where: eq(messages.messageStatus, status),
        orderBy: [desc(messages.createdAt), desc(messages.id)],
        page,
        perPage,
      });
      return { messages: rows.map(toMessage), page: info };
    },

    async allMessages(): Promise<MessageRecord[]> {
      return (await db.select().from(messages).orderBy(desc(messages.createdAt))).map(toMessage);
    },

    async message(id: string): Promise<MessageRecord> {
      if (!isId(id)) throw notFound("Message not found");
      const [row] = await db.select().from(messages).where(eq(messages.id, id));
      if (!row) throw notFound("Message not found");
      return toMessage(row);
    },

    /** UnRead to Read ('Mark Read'); there is no way back (spec 2, section 4). */
    async markRead(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      const parsed = parseWith(markSchema, input ?? { messageStatus: "Read" });
      if (!parsed.ok) throw badRequest(parsed.errors);
      if (!isId(id)) throw notFound("Message not found");
      return audited(db, actor, "message", async (tx, audit) => {
        const updated = await tx
          .update(messages)
          .set({ messageStatus: "Read" })
          .where(and(eq(messages.id, id), eq(messages.messageStatus, "UnRead")))
          .returning({ id: messages.id });
        if (updated.length === 0) {
          const [exists] = await tx.select({ id: messages.id }).from(messages).where(eq(messages.id, id));
          if (!exists) throw notFound("Message not found");
          return { modified: false };
        }
        await audit.updated(id, { messageStatus: "UnRead" }, { messageStatus: "Read" });
        return { modified: true };
      });
    },

    /** Subscribers newest first, one page. */
    async subscribers(page: unknown, perPage: number): Promise<{ subscribers: SubscriberRecord[]; page: PageInfo }> {
      const { rows, page: info } = await pageOf(db, subscribers, {
        orderBy: [desc(subscribers.createdAt), desc(subscribers.id)],
        page,
        perPage,
      });
      return { subscribers: rows.map(toSubscriber), page: info };
    },

    async allSubscribers(): Promise<SubscriberRecord[]> {
      return (await db.select().from(subscribers).orderBy(desc(subscribers.createdAt))).map(toSubscriber);
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
