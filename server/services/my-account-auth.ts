import { createHash } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { verifyJWT } from "better-auth/crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import { MY_ACCOUNT_MESSAGES } from "#domain/my-account-forms.ts";
import type { Db } from "../db/client";
import { account, user } from "../db/schema";
import type { Logger } from "../lib/logger";
import { followEmailChange } from "./admin-users";
import type { JobsService } from "./jobs";
import type { MailsService } from "./mails";
import type { RateLimiter, RateLimitRule } from "./rate-limit";

const MINUTE = 60_000;

/**
 * The self-service limits (decision 044), beside sign-in's (AUTH_LIMITS): a password change counts every attempt
 * against the address, and each wrong current password against the account, which is refused past its limit (only
 * the holder of a signed-in session can spend it: nobody can lock someone else out); an email change counts
 * against the account (each sends two mails).
 */
export const MY_ACCOUNT_LIMITS = {
  passwordChangeIp: { name: "password-change:ip", limit: 30, windowMs: 10 * MINUTE },
  passwordChangeFailures: { name: "password-change:account-failures", limit: 5, windowMs: 60 * MINUTE },
  emailChange: { name: "email-change:account", limit: 5, windowMs: 60 * MINUTE },
} satisfies Record<string, RateLimitRule>;

/** The request header carrying the client's address as Express decided it (TRUST_PROXY); set on every request. */
export const CLIENT_IP_HEADER = "x-atelier-client-ip";

/** What better-auth's email-change tokens carry (a JWT signed with the auth secret; update-user.mjs, 1.7.25). */
interface ChangeToken {
  email: string;
  updateTo: string;
  userId: string;
  requestType?: string;
  iat?: number;
}

/**
 * The change a verification token asks for, read without checking its signature: only for choosing which mail carries
 * a token better-auth has just made. Anything that acts on a token checks it (changeTokenOf).
 */
export function emailChangeOf(token: string): { oldEmail: string; newEmail: string } | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as ChangeToken;
    return payload.updateTo ? { oldEmail: payload.email, newEmail: payload.updateTo } : null;
  } catch {
    return null;
  }
}

/** A genuine, unexpired email-change token's content, or null. */
async function changeTokenOf(token: unknown, secret: string): Promise<ChangeToken | null> {
  if (typeof token !== "string" || !token) return null;
  const payload = (await verifyJWT(token, secret)) as Partial<ChangeToken> | null;
  if (!payload?.updateTo || !payload.userId || !payload.email) return null;
  return payload as ChangeToken;
}

const refuse = (status: "BAD_REQUEST" | "CONFLICT" | "TOO_MANY_REQUESTS", code: string, message: string) =>
  new APIError(status, { code, message });

/** The codes of this plugin's refusals, for the service that turns them into field errors. */
export const MY_ACCOUNT_CODES = {
  emailTaken: "EMAIL_TAKEN",
  emailSame: "EMAIL_SAME",
  tooMany: "TOO_MANY_ATTEMPTS",
  changeCancelled: "CHANGE_CANCELLED",
} as const;

interface MyAccountAuthDeps {
  db: Db;
  limiter: RateLimiter;
  jobs: Pick<JobsService, "queueMail">;
  mails: Pick<MailsService, "render">;
  logger: Logger;
}

/**
 * The rules of the self-service calls, wherever they come from (the account pages through auth.api, or better-auth's
 * own REST calls under /api/auth): limits on /change-password and /change-email, a clear refusal of an address
 * another account uses, the notice to the old address, and, when a new address is confirmed (/verify-email), the
 * staff listing (admin_users, keyed by email) moved to it in the same breath.
 */
export function myAccountAuthPlugin(deps: MyAccountAuthDeps): BetterAuthPlugin {
  return {
    id: "atelier-my-account",
    hooks: {
      before: [
        { matcher: (ctx) => ctx.path === "/change-password", handler: limitPasswordChange(deps) },
        { matcher: (ctx) => ctx.path === "/change-email", handler: checkEmailChange(deps) },
        {
          // An address taken meanwhile, or a password changed after the change was asked, refuses the link with a reason.
          matcher: (ctx) => ctx.path === "/verify-email",
          handler: checkEmailLink(deps),
        },
      ],
      after: [
        { matcher: (ctx) => ctx.path === "/change-password", handler: countPasswordFailure(deps) },
        { matcher: (ctx) => ctx.path === "/change-email", handler: noticeToOldAddress(deps) },
        { matcher: (ctx) => ctx.path === "/verify-email", handler: followConfirmedChange(deps) },
      ],
    },
  };
}

const ipOf = (headers: Headers | undefined) => headers?.get(CLIENT_IP_HEADER) || "unknown";

/** Before /change-password: the address's limit, then the account's wrong current passwords. */
function limitPasswordChange({ limiter }: MyAccountAuthDeps) {
  return createAuthMiddleware(async (ctx) => {
    const { allowed } = await limiter.hit(MY_ACCOUNT_LIMITS.passwordChangeIp, ipOf(ctx.headers));
    if (!allowed) throw refuse("TOO_MANY_REQUESTS", MY_ACCOUNT_CODES.tooMany, MY_ACCOUNT_MESSAGES.tooManyPassword);
    const session = await getSessionFromCtx(ctx).catch(() => null);
    if (!session) return; // better-auth answers 401 itself
    const failures = await limiter.count(MY_ACCOUNT_LIMITS.passwordChangeFailures, session.user.id);
    if (failures.count >= MY_ACCOUNT_LIMITS.passwordChangeFailures.limit) {
      throw refuse("TOO_MANY_REQUESTS", MY_ACCOUNT_CODES.tooMany, MY_ACCOUNT_MESSAGES.tooManyPassword);
    }
  });
}

/** Before /change-email: the same address, the account's limit, an address another account uses. */
function checkEmailChange({ db, limiter }: MyAccountAuthDeps) {
  return createAuthMiddleware(async (ctx) => {
    const session = await getSessionFromCtx(ctx).catch(() => null);
    if (!session) return;
    const newEmail = String((ctx.body as { newEmail?: unknown } | undefined)?.newEmail ?? "").toLowerCase();
    if (!newEmail) return; // better-auth refuses it itself
    if (newEmail === session.user.email.toLowerCase()) {
      throw refuse("BAD_REQUEST", MY_ACCOUNT_CODES.emailSame, MY_ACCOUNT_MESSAGES.emailSame);
    }
    const { allowed } = await limiter.hit(MY_ACCOUNT_LIMITS.emailChange, session.user.id);
    if (!allowed) throw refuse("TOO_MANY_REQUESTS", MY_ACCOUNT_CODES.tooMany, MY_ACCOUNT_MESSAGES.tooManyEmail);
    // better-auth answers a taken address as if it had sent the link (so that nobody learns which addresses
    // have accounts); a signed-in person, limited as above, is told plainly instead.
    const [taken] = await db
      .select({ id: user.id })
      .from(user)
      .where(and(sql`lower(${user.email}) = ${newEmail}`, ne(user.id, session.user.id)))
      .limit(1);
    if (taken) throw refuse("CONFLICT", MY_ACCOUNT_CODES.emailTaken, MY_ACCOUNT_MESSAGES.emailTaken);
  });
}

/** Before /verify-email of an email change: the address taken meanwhile, or the password changed since. */
function checkEmailLink({ db }: MyAccountAuthDeps) {
  return createAuthMiddleware(async (ctx) => {
    const change = await changeTokenOf(ctx.query?.token, ctx.context.secret);
    if (!change || change.requestType !== "change-email-verification") return;
    const back = typeof ctx.query?.callbackURL === "string" ? ctx.query.callbackURL : "/account/email-confirmed";
    const refused = (code: string) => ctx.redirect(`${back}${back.includes("?") ? "&" : "?"}error=${code}`);
    // Someone registered the address after the link was sent: refused plainly (the unique address would 500).
    const [taken] = await db
      .select({ id: user.id })
      .from(user)
      .where(and(sql`lower(${user.email}) = ${change.updateTo.toLowerCase()}`, ne(user.id, change.userId)))
      .limit(1);
    if (taken) throw refused(MY_ACCOUNT_CODES.emailTaken);
    if (!change.iat) return;
    const [credential] = await db
      .select({ updatedAt: account.updatedAt })
      .from(account)
      .where(and(eq(account.userId, change.userId), eq(account.providerId, "credential")));
    // In whole seconds, as the token's time is: a change in the same second as the request does not cancel it.
    if (credential && Math.floor(credential.updatedAt.getTime() / 1000) > change.iat)
      throw refused(MY_ACCOUNT_CODES.changeCancelled);
  });
}

/** After /change-password: a wrong current password counts against the account; a change clears the count. */
function countPasswordFailure({ limiter }: MyAccountAuthDeps) {
  return createAuthMiddleware(async (ctx) => {
    const returned = ctx.context.returned;
    const session = ctx.context.session;
    if (!session) return;
    if (isAPIError(returned)) {
      if (returned.body?.code === "INVALID_PASSWORD") {
        await limiter.add(MY_ACCOUNT_LIMITS.passwordChangeFailures, session.user.id);
      }
    } else {
      await limiter.reset(MY_ACCOUNT_LIMITS.passwordChangeFailures, session.user.id);
    }
  });
}

/** After /change-email: the notice to the old address. */
function noticeToOldAddress({ db, jobs, mails }: MyAccountAuthDeps) {
  return createAuthMiddleware(async (ctx) => {
    const session = ctx.context.session;
    if (!session || isAPIError(ctx.context.returned)) return;
    const newEmail = String((ctx.body as { newEmail?: unknown }).newEmail).toLowerCase();
    const oldEmail = session.user.email;
    const mail = await mails.render("emailChangeNotice", { newEmail }, oldEmail);
    const key = `email-change-notice:${createHash("sha256")
      .update(`${session.user.id}|${newEmail}|${Date.now()}`)
      .digest("hex")
      .slice(0, 32)}`;
    await db.transaction((tx) => jobs.queueMail(tx, mail, key));
  });
}

/** After /verify-email of an email change: the new address confirmed, the staff listing moved to it. */
function followConfirmedChange({ db, logger }: MyAccountAuthDeps) {
  return createAuthMiddleware(async (ctx) => {
    const change = await changeTokenOf(ctx.query?.token, ctx.context.secret);
    if (!change || change.requestType !== "change-email-verification") return;
    const person = await ctx.context.internalAdapter.findUserById(change.userId);
    if (!person || person.email.toLowerCase() !== change.updateTo.toLowerCase()) return;
    // Its link was just followed: the new address is confirmed, whatever the old one was.
    if (!person.emailVerified) await ctx.context.internalAdapter.updateUser(person.id, { emailVerified: true });
    try {
      await followEmailChange(db, change.userId, change.email, change.updateTo);
    } catch (error) {
      // The account has its new address; following the link again finishes this (it acts on what is stored).
      logger.error({ error, userId: change.userId }, "the staff listing could not follow an email change");
      throw error;
    }
  });
}
