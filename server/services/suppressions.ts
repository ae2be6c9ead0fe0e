import { timingSafeEqual, createHash } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { PageInfo } from "#domain/pagination.ts";
import { SUPPRESSION_REASONS, type SuppressionReason } from "#domain/newsletters.ts";
import { ERASED_NAME, type Person } from "#domain/privacy.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { suppressions } from "../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { pageOf } from "../lib/paging";
import { audited, type Actor } from "./activity";
import type { Tx } from "./jobs";

/** The activity log's name for an address staff put on or took off the suppression list (its id: the address). */
export const SUPPRESSION_ENTITY = "suppression";

export interface SuppressionRecord {
  address: string;
  reason: SuppressionReason;
  source: string;
  note: string;
  createdAt: string;
}

const email = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, { error: "Email is required" })
  .max(254, { error: "Email must be at most 254 characters" })
  .pipe(z.email({ error: "Email must be a valid email address" }))
  .transform((v) => v.toLowerCase());

/** The back office's "Add an address": the address and why, in a few words. */
export const suppressionSchema = z.object({
  address: email,
  note: z
    .string()
    .trim()
    .max(500, { error: "Note must be at most 500 characters" })
    .optional()
    .transform((v) => v ?? ""),
});

/**
 * Postmark's bounce and spam-complaint webhooks (https://postmarkapp.com/developer/webhooks/bounce-webhook and
 * spam-complaint-webhook): the fields we read; the rest of their JSON is ignored.
 */
export const postmarkEventSchema = z.object({
  RecordType: z.string().max(40),
  Type: z.string().max(40).optional(),
  Email: z.string().max(320),
  Description: z.string().max(2000).optional(),
  MessageID: z.string().max(200).optional(),
});

/**
 * Amazon SES through SNS: a notification whose Message (a JSON string) is a Bounce or Complaint
 * (https://docs.aws.amazon.com/ses/latest/dg/notification-contents.html).
 */
export const snsEnvelopeSchema = z.object({
  Type: z.string().max(60),
  Message: z.string().max(200_000).optional(),
  SubscribeURL: z.string().max(2000).optional(),
});
const sesMessageSchema = z.object({
  notificationType: z.string().max(40),
  bounce: z
    .object({
      bounceType: z.string().max(40),
      bouncedRecipients: z.array(z.object({ emailAddress: z.string().max(320) })).max(100),
    })
    .optional(),
  complaint: z
    .object({ complainedRecipients: z.array(z.object({ emailAddress: z.string().max(320) })).max(100) })
    .optional(),
});

/** What a provider's event means for the list: these addresses, for this reason; or nothing (a soft bounce). */
export type MailEvent = { reason: "bounce" | "complaint"; addresses: string[]; note: string } | null;

/** Postmark: a hard bounce or a spam complaint suppresses the address; soft bounces and the rest are ignored. */
export function postmarkEvent(body: z.infer<typeof postmarkEventSchema>): MailEvent {
  if (body.RecordType === "Bounce" && body.Type === "HardBounce")
    return { reason: "bounce", addresses: [body.Email], note: (body.Description ?? "").slice(0, 500) };
  if (body.RecordType === "SpamComplaint") return { reason: "complaint", addresses: [body.Email], note: "" };
  return null;
}

/** SES: a Permanent bounce or any complaint; Transient and Undetermined bounces are ignored. */
export function sesEvent(message: unknown): MailEvent {
  const parsed = sesMessageSchema.safeParse(message);
  if (!parsed.success) return null;
  const m = parsed.data;
  if (m.notificationType === "Bounce" && m.bounce?.bounceType === "Permanent")
    return { reason: "bounce", addresses: m.bounce.bouncedRecipients.map((r) => r.emailAddress), note: "" };
  if (m.notificationType === "Complaint" && m.complaint)
    return { reason: "complaint", addresses: m.complaint.complainedRecipients.map((r) => r.emailAddress), note: "" };
  return null;
}

/** Whether a presented secret is the configured one, in constant time (both hashed first: equal lengths). */
export function secretMatches(given: string, expected: string | undefined): boolean {
  if (!expected) return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

const toRecord = (r: typeof suppressions.$inferSelect): SuppressionRecord => ({
  address: r.address,
  reason: r.reason,
  source: r.source,
  note: r.note,
  createdAt: r.createdAt.toISOString(),
});

/**
 * The suppression list (issue 36, part 5): addresses no newsletter goes to. The only writer of its table. An address
 * is listed once; a later event for a listed address changes nothing (the first reason stays), so every webhook
 * delivery can be repeated safely.
 */
export function createSuppressionsService(options: {
  db: Db;
  now: () => Date;
  /** MAIL_WEBHOOK_SECRET: what the providers' webhooks must present; unset, they are refused. */
  webhookSecret: string | undefined;
}) {
  const { db, now } = options;

  /** Lists the addresses (lower-cased; malformed ones dropped) in the caller's transaction or on its own; how many new. */
  async function suppress(
    addresses: string[],
    reason: SuppressionReason,
    source: string,
    note = "",
    tx: Tx | Db = db,
  ): Promise<number> {
    const clean = [...new Set(addresses.map((a) => a.trim().toLowerCase()))].filter(
      (a) => z.email().safeParse(a).success,
    );
    if (!clean.length) return 0;
    const rows = await tx
      .insert(suppressions)
      .values(clean.map((address) => ({ address, reason, source, note, createdAt: now() })))
      .onConflictDoNothing()
      .returning({ address: suppressions.address });
    return rows.length;
  }

  return {
    suppress,
    /** Whether a webhook call presents the configured secret (constant time; none configured: never). */
    webhookAllows: (given: string) => secretMatches(given, options.webhookSecret),

    /** A provider's event, already parsed: its addresses listed. */
    async record(event: MailEvent, source: string): Promise<{ suppressed: number }> {
      if (!event) return { suppressed: 0 };
      return { suppressed: await suppress(event.addresses, event.reason, source, event.note) };
    },

    /** The back office's entry by hand; an address already listed is a clear 409-free answer: nothing changes. */
    async add(input: unknown, actor: Actor): Promise<{ added: boolean }> {
      const parsed = parseWith(suppressionSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const { address, note } = parsed.data;
      return audited(db, actor, SUPPRESSION_ENTITY, async (tx, audit) => {
        const n = await suppress([address], "manual", actor.email, note, tx);
        if (n === 1) await audit.created(address.trim().toLowerCase(), { reason: "manual", note });
        return { added: n === 1 };
      });
    },

    /** Takes an address off the list: newsletters may go to it again (404 when it is not listed). */
    async remove(address: string, actor: Actor): Promise<void> {
      await audited(db, actor, SUPPRESSION_ENTITY, async (tx, audit) => {
        const rows = await tx
          .delete(suppressions)
          .where(eq(suppressions.address, address.trim().toLowerCase()))
          .returning();
        if (!rows.length) throw notFound("This address is not on the suppression list.");
        const [gone] = rows;
        await audit.deleted(gone!.address, { reason: gone!.reason, source: gone!.source, note: gone!.note });
      });
    },

    /** An unsubscribe that was undone by a new, confirmed signup (double opt-in): only the unsubscribe is lifted. */
    async liftUnsubscribe(address: string, tx: Tx | Db = db): Promise<void> {
      await tx
        .delete(suppressions)
        .where(sql`${suppressions.address} = lower(${address}) and ${suppressions.reason} = 'unsubscribe'`);
    },

    async isSuppressed(address: string): Promise<boolean> {
      const [row] = await db
        .select({ address: suppressions.address })
        .from(suppressions)
        .where(eq(suppressions.address, address.trim().toLowerCase()));
      return Boolean(row);
    },

    /** One page, newest first. */
    async list(page: unknown, perPage: number): Promise<{ suppressions: SuppressionRecord[]; page: PageInfo }> {
      const { rows, page: info } = await pageOf(db, suppressions, {
        orderBy: [desc(suppressions.createdAt), suppressions.address],
        page,
        perPage,
      });
      return { suppressions: rows.map(toRecord), page: info };
    },
  };
}

export type SuppressionsService = ReturnType<typeof createSuppressionsService>;
export { SUPPRESSION_REASONS };

/**
 * Forgets a person (decision 086): their addresses leave the list (nothing mails them: their subscriber rows and
 * account go in the same erasure, and a new signup asks for its confirmation again), and an entry a staff member made
 * names them no more.
 */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  if (!person.emails.length) return;
  const emails = sql.param(person.emails);
  await tx.delete(suppressions).where(sql`${suppressions.address} = any(${emails}::text[])`);
  await tx
    .update(suppressions)
    .set({ source: ERASED_NAME })
    .where(sql`lower(${suppressions.source}) = any(${emails}::text[])`);
}
