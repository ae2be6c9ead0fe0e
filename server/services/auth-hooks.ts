import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { CONSENT_DOCUMENTS, MESSAGES } from "#domain/account-forms.ts";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import { passwordProblem } from "./passwords";
import type { Tx } from "./jobs";
import type { Person } from "#domain/privacy.ts";
import type { WebhookEmitter } from "./webhooks";

/** The codes of the refusals below, for callers that turn them into field errors. */
export const REFUSAL_CODES = {
  consentRequired: "CONSENT_REQUIRED",
  passwordRefused: "PASSWORD_REFUSED",
} as const;

/** Staff: anyone with an admin_users record, whatever their role. */
async function isStaff(db: Db, email: unknown): Promise<boolean> {
  if (typeof email !== "string" || !email) return false;
  const [row] = await db
    .select({ one: sql`1` })
    .from(schema.adminUsers)
    .where(sql`lower(${schema.adminUsers.userEmail}) = lower(${email})`)
    .limit(1);
  return Boolean(row);
}

/**
 * The version of each document a person accepts now: when its record (the /terms or /privacy section of the content
 * registry) was last changed. The activity log keeps the text each change left.
 */
async function currentVersions(db: Db): Promise<{ document: (typeof CONSENT_DOCUMENTS)[number]; version: string }[]> {
  const rows = await db
    .select({ type: schema.contentEntries.type, updatedAt: schema.contentEntries.updatedAt })
    .from(schema.contentEntries)
    .where(inArray(schema.contentEntries.type, [...CONSENT_DOCUMENTS]))
    .orderBy(asc(schema.contentEntries.position), asc(schema.contentEntries.createdAt));
  return CONSENT_DOCUMENTS.map((document) => {
    const row = rows.find((r) => r.type === document);
    return { document, version: row ? row.updatedAt.toISOString() : "unpublished" };
  });
}

/** The consents a person gave, newest first: for the tests and, later, an export of their data. */
export function consentsOf(db: Db, userId: string) {
  return db
    .select()
    .from(schema.consents)
    .where(eq(schema.consents.userId, userId))
    .orderBy(sql`${schema.consents.acceptedAt} desc`);
}

const refuse = (code: string, message: string) => new APIError("BAD_REQUEST", { code, message });

/**
 * better-auth's hooks (decision 037): every way it sets a password, its REST calls and our own calls through auth.api,
 * passes the one password rule; a sign-up needs `acceptTerms: true` and records the acceptance of both documents.
 */
export function createAuthHooks({ db, webhooks }: { db: Db; webhooks?: Pick<WebhookEmitter, "emitTx"> }) {
  async function checkPassword(password: unknown, email: unknown) {
    if (typeof password !== "string") return; // better-auth refuses it itself
    const problem = await passwordProblem(password, { staff: await isStaff(db, email) });
    if (problem) throw refuse(REFUSAL_CODES.passwordRefused, problem);
  }

  return {
    before: createAuthMiddleware(async (ctx) => {
      const body = (ctx.body ?? {}) as Record<string, unknown>;
      if (ctx.path === "/sign-up/email") {
        if (body.acceptTerms !== true) throw refuse(REFUSAL_CODES.consentRequired, MESSAGES.consentRequired);
        await checkPassword(body.password, body.email);
      } else if (ctx.path === "/reset-password") {
        // The link's account decides whether the staff rule applies; an unknown link is better-auth's to refuse.
        const token = typeof body.token === "string" ? body.token : "";
        const found = token ? await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`) : null;
        const person = found ? await ctx.context.internalAdapter.findUserById(found.value) : null;
        await checkPassword(body.newPassword, person?.email);
      } else if (ctx.path === "/change-password" || ctx.path === "/set-password") {
        const session = await getSessionFromCtx(ctx).catch(() => null);
        await checkPassword(body.newPassword, session?.user.email);
      }
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== "/sign-up/email") return;
      const created = ctx.context.newSession?.user;
      if (!created) return;
      const acceptedAt = new Date();
      const versions = await currentVersions(db);
      // better-auth wrote the account in its own transaction: its consents and its customer.created event go together
      // in this one, right after (docs/decisions/078).
      await db.transaction(async (tx) => {
        await tx.insert(schema.consents).values(versions.map((v) => ({ userId: created.id, acceptedAt, ...v })));
        await webhooks?.emitTx(tx, "customer.created", {
          customer: {
            id: created.id,
            email: created.email,
            name: created.name,
            emailVerified: created.emailVerified,
            createdAt: new Date(created.createdAt).toISOString(),
          },
        });
      });
    }),
  };
}

/** Forgets a person's consents (decisions 037, 086): kept with the account, gone with it. */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  await tx.delete(schema.consents).where(eq(schema.consents.userId, person.userId));
}
