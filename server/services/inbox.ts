import { and, desc, eq } from "drizzle-orm";
import type { PageInfo } from "../../domain/pagination";
import { z } from "zod";
import { audited, type Actor } from "./activity";
import { isId, notFound } from "../lib/errors";
import { messageSchema } from "../../domain/public-forms";
import { parseWith } from "../../domain/validation";
import type { Db } from "../db/client";
import { pageOf } from "../lib/paging";
import { messages } from "../db/schema";
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
const markSchema = z.object({ messageStatus: z.literal("Read", { error: "messageStatus can only become Read" }) });
import type { RateLimiter } from "./rate-limit";
import type { MailsService } from "./mails";
import { jobKey } from "./jobs";
import type { MessageStatus } from "../../domain/vocabulary";

export interface Visitor {
  ip: string;
  /** True when the honeypot field was filled in: answer success, store nothing. */
  isBot: boolean;
}

const TEN_MINUTES = 10 * 60_000;

/**
 * What visitors send from the public site: contact messages (newsletter signups: services/newsletter.ts).
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
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
