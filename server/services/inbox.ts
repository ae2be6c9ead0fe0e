import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { PageInfo } from "#domain/pagination.ts";
import { z } from "zod";
import { audited, type Actor } from "./activity";
import { isId, notFound } from "../lib/errors";
import { messageSchema } from "#domain/public-forms.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { pageOf } from "../lib/paging";
import { messages } from "../db/schema";
import { badRequest, tooMany } from "../lib/errors";
import { withDeps } from "#server/lib/with-deps.ts";

export interface MessageRecord {
  _id: string;
  name: string;
  email: string;
  number: string;
  subject: string;
  message: string;
  messageStatus: MessageStatus;
  createdAt: string;
  /** When it was archived (decision 039); null while it is in the inbox. */
  archivedAt: string | null;
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
  archivedAt: r.archivedAt?.toISOString() ?? null,
});
const markSchema = z.object({ messageStatus: z.literal("Read", { error: "messageStatus can only become Read" }) });
const archiveSchema = z.object({
  archived: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")], {
    error: "archived must be true (archive the message) or false (back to the inbox)",
  }),
});
import type { RateLimiter } from "./rate-limit";
import type { MailsService } from "./mails";
import { jobKey, type Tx } from "./jobs";
import type { WebhookEmitter } from "./webhooks";
import type { MessageStatus } from "#domain/vocabulary.ts";
import type { Person } from "#domain/privacy.ts";

export interface Visitor {
  ip: string;
  /** True when the honeypot field was filled in: answer success, store nothing. */
  isBot: boolean;
}

const TEN_MINUTES = 10 * 60_000;

interface InboxDeps {
  db: Db;
  limiter: RateLimiter;
  /** Contact messages and signups one IP may send in ten minutes (RATE_LIMIT_PUBLIC_FORMS). */
  perIpLimit: number;
  mails: Pick<MailsService, "queueToAdmins">;
  now: () => Date;
  webhooks?: Pick<WebhookEmitter, "emitTx">;
}

/**
 * What visitors send from the public site: contact messages (newsletter signups: services/newsletter.ts).
 * Validated here, limited per IP, honeypot-filtered; the pages and the REST API both call these.
 */
export function createInboxService({ now = () => new Date(), ...deps }: Omit<InboxDeps, "now"> & { now?: () => Date }) {
  const ctx: InboxDeps = { ...deps, now };
  return {
    sendMessage: withDeps(ctx, sendMessage),
    messagesByStatus: withDeps(ctx, messagesByStatus),
    archivedMessages: withDeps(ctx, archivedMessages),
    setArchived: withDeps(ctx, setArchived),
    allMessages: withDeps(ctx, allMessages),
    message: withDeps(ctx, message),
    markRead: withDeps(ctx, markRead),
  };
}

async function limit({ limiter, perIpLimit }: InboxDeps, name: string, visitor: Visitor) {
  const { allowed } = await limiter.hit({ name, limit: perIpLimit, windowMs: TEN_MINUTES }, visitor.ip);
  if (!allowed) throw tooMany("You have sent this form too many times. Please wait a few minutes and try again.");
}

async function sendMessage(deps: InboxDeps, input: unknown, visitor: Visitor): Promise<{ id: string | null }> {
  const { db, mails, webhooks, now } = deps;
  const parsed = parseWith(messageSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  await limit(deps, "contact", visitor);
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
    await webhooks?.emitTx(tx, "contact_message.received", {
      message: { id: row!.id, ...parsed.data, receivedAt: now().toISOString() },
    });
    return { id: row!.id };
  });
}

/**
 * Messages of one status in the inbox (not archived), newest first, one page (the admin's Unread and Read tables
 * page separately).
 */
async function messagesByStatus(
  { db }: InboxDeps,
  status: "UnRead" | "Read",
  page: unknown,
  perPage: number,
): Promise<{ messages: MessageRecord[]; page: PageInfo }> {
  const { rows, page: info } = await pageOf(db, messages, {
    where: and(eq(messages.messageStatus, status), isNull(messages.archivedAt)),
    orderBy: [desc(messages.createdAt), desc(messages.id)],
    page,
    perPage,
  });
  return { messages: rows.map(toMessage), page: info };
}

/** Archived messages, the most recently archived first, one page. */
async function archivedMessages(
  { db }: InboxDeps,
  page: unknown,
  perPage: number,
): Promise<{ messages: MessageRecord[]; page: PageInfo }> {
  const { rows, page: info } = await pageOf(db, messages, {
    where: isNotNull(messages.archivedAt),
    orderBy: [desc(messages.archivedAt), desc(messages.id)],
    page,
    perPage,
  });
  return { messages: rows.map(toMessage), page: info };
}

/**
 * Archives a message ({archived: true}: out of the inbox and the unread count) or brings it back ({archived:
 * false}); its status stays as it was. Audited; asking for what is already so changes nothing.
 */
async function setArchived(
  { db, now }: InboxDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  const parsed = parseWith(archiveSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  if (!isId(id)) throw notFound("Message not found");
  const archived = parsed.data.archived;
  return audited(db, actor, "message", async (tx, audit) => {
    const [row] = await tx
      .select({ archivedAt: messages.archivedAt })
      .from(messages)
      .where(eq(messages.id, id))
      .for("update");
    if (!row) throw notFound("Message not found");
    if ((row.archivedAt !== null) === archived) return { modified: false };
    const archivedAt = archived ? now() : null;
    await tx.update(messages).set({ archivedAt }).where(eq(messages.id, id));
    await audit.updated(id, { archived: !archived }, { archived });
    return { modified: true };
  });
}

async function allMessages({ db }: InboxDeps): Promise<MessageRecord[]> {
  return (await db.select().from(messages).orderBy(desc(messages.createdAt))).map(toMessage);
}

async function message({ db }: InboxDeps, id: string): Promise<MessageRecord> {
  if (!isId(id)) throw notFound("Message not found");
  const [row] = await db.select().from(messages).where(eq(messages.id, id));
  if (!row) throw notFound("Message not found");
  return toMessage(row);
}

/** UnRead to Read ('Mark Read'); there is no way back (spec 2, section 4). */
async function markRead({ db }: InboxDeps, id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
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
}

export type InboxService = ReturnType<typeof createInboxService>;

/** Forgets a person's contact messages (decision 086): every message sent with any of their addresses, any case. */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  if (!person.emails.length) return;
  await tx.delete(messages).where(sql`lower(${messages.email}) = any(${sql.param(person.emails)}::text[])`);
}
