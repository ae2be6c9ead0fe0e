import { isAPIError } from "better-auth/api";
import { getCookies } from "better-auth/cookies";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import {
  emailChangeSchema,
  MY_ACCOUNT_MESSAGES,
  passwordChangeSchema,
  profileSchema,
  sessionIdSchema,
} from "#domain/my-account-forms.ts";
import { deviceOf } from "#domain/user-agent.ts";
import type { Db } from "../db/client";
import { session } from "../db/schema";
import { AppError, fieldError, parsedOr400 } from "../lib/errors";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Auth, Viewer } from "./accounts";
import { REFUSAL_CODES } from "./auth-hooks";
import { MY_ACCOUNT_CODES } from "./my-account-auth";
import { cookieValue } from "./page-role";
import { sessionTokenOf } from "./session-token";

/** Where the link of an email change lands (a page that needs no session: the link may be opened on another device). */
export const EMAIL_CONFIRMED_PATH = "/account/email-confirmed";

/** One of a person's sessions as the sessions page lists it. */
export interface SessionRow {
  id: string;
  /** "Firefox on Windows" (domain/user-agent.ts). */
  device: string;
  ipAddress: string;
  signedInAt: Date;
  /** When the session was last extended (better-auth moves it on at most once a day while it is used). */
  lastActiveAt: Date;
  current: boolean;
}

/** The service's dependencies, with the reader of this browser's session token (built once). */
interface MyAccountContext {
  auth: Auth;
  db: Db;
  tokenOf: (headers: Headers) => string;
}

/**
 * "My account" (issue 25, part 1): a signed-in person's name, email, password and sessions. Each change goes through
 * better-auth's own call (auth.api), so the rules in its hooks (auth-hooks.ts: the password rule; my-account-auth.ts:
 * limits, a taken address, the notice to the old address, the staff listing) hold for the pages and for better-auth's
 * REST calls alike; this service checks the form, and turns refusals into the messages a form shows.
 */
export function createMyAccountService({ auth, db, secret }: { auth: Auth; db: Db; secret: string }) {
  const sessionCookie = getCookies(auth.options).sessionToken.name;
  const tokenOf = (headers: Headers) =>
    sessionTokenOf(cookieValue(headers.get("cookie") ?? "", sessionCookie), secret) || "";
  const ctx: MyAccountContext = { auth, db, tokenOf };
  return {
    updateName: withDeps(ctx, updateName),
    requestEmailChange: withDeps(ctx, requestEmailChange),
    changePassword: withDeps(ctx, changePassword),
    sessions: withDeps(ctx, sessions),
    endSession: withDeps(ctx, endSession),
    endOtherSessions: withDeps(ctx, endOtherSessions),
  };
}

/** A refusal from a hook or from better-auth, as the form's answer; anything else is ours (5xx). */
function refusal(error: unknown, fields: { password?: string; email?: string } = {}): unknown {
  if (!isAPIError(error)) return error;
  const code = String(error.body?.code ?? "");
  const message = String(error.body?.message ?? "");
  switch (code) {
    case MY_ACCOUNT_CODES.tooMany:
      return new AppError(429, message);
    case MY_ACCOUNT_CODES.emailTaken:
      return fieldError(409, fields.email ?? "newEmail", message);
    case MY_ACCOUNT_CODES.emailSame:
      return fieldError(400, fields.email ?? "newEmail", message);
    case REFUSAL_CODES.passwordRefused:
      return fieldError(400, fields.password ?? "newPassword", message);
    case "INVALID_PASSWORD":
      return fieldError(400, "currentPassword", MY_ACCOUNT_MESSAGES.currentWrong);
    case "PASSWORD_TOO_SHORT":
      return fieldError(400, fields.password ?? "newPassword", message);
  }
  if (error.statusCode === 401) return new AppError(401, "Please sign in again.");
  return error;
}

async function updateName({ auth }: MyAccountContext, input: unknown, headers: Headers): Promise<void> {
  const { name } = parsedOr400<{ name: string }>(profileSchema, input);
  try {
    await auth.api.updateUser({ body: { name }, headers });
  } catch (error) {
    throw refusal(error);
  }
}

/** Sends the link to the new address (and the notice to the old one); the email is unchanged until it is followed. */
async function requestEmailChange(
  { auth }: MyAccountContext,
  input: unknown,
  headers: Headers,
): Promise<{ newEmail: string }> {
  const { newEmail } = parsedOr400<{ newEmail: string }>(emailChangeSchema, input);
  try {
    await auth.api.changeEmail({ body: { newEmail, callbackURL: EMAIL_CONFIRMED_PATH }, headers });
  } catch (error) {
    throw refusal(error);
  }
  return { newEmail };
}

/**
 * Changes the password and ends every other session (better-auth ends them all and opens a new one for this
 * browser): answers the Set-Cookie headers of that new session.
 */
async function changePassword({ auth }: MyAccountContext, input: unknown, headers: Headers): Promise<Headers> {
  const { currentPassword, newPassword } = parsedOr400<{ currentPassword: string; newPassword: string }>(
    passwordChangeSchema,
    input,
  );
  try {
    const result = await auth.api.changePassword({
      body: { currentPassword, newPassword, revokeOtherSessions: true },
      headers,
      returnHeaders: true,
    });
    return result.headers;
  } catch (error) {
    throw refusal(error);
  }
}

/** The person's sessions that have not expired, the most recently active first; this browser's is marked. */
async function sessions({ db, tokenOf }: MyAccountContext, viewer: Viewer, headers: Headers): Promise<SessionRow[]> {
  const current = tokenOf(headers);
  const rows = await db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      current: sql<boolean>`${session.token} = ${current}`,
    })
    .from(session)
    .where(and(eq(session.userId, viewer.id), gt(session.expiresAt, sql`now()`)))
    .orderBy(desc(sql`${session.token} = ${current}`), desc(session.updatedAt), desc(session.createdAt))
    .limit(100);
  return rows.map((r) => ({
    id: r.id,
    device: deviceOf(r.userAgent),
    ipAddress: r.ipAddress ?? "",
    signedInAt: r.createdAt,
    lastActiveAt: r.updatedAt,
    current: r.current,
  }));
}

/**
 * Ends one of the person's other sessions, by its id: its row is deleted, so its cookie is refused at once by every
 * lookup (decision 030). better-auth's /revoke-session takes a token, which a list never shows (issue #6940).
 */
async function endSession(
  { auth, db, tokenOf }: MyAccountContext,
  viewer: Viewer,
  input: unknown,
  headers: Headers,
): Promise<void> {
  const { sessionId } = parsedOr400<{ sessionId: string }>(sessionIdSchema, input);
  const [row] = await db
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, viewer.id)));
  if (!row) throw new AppError(404, MY_ACCOUNT_MESSAGES.sessionGone);
  if (row.token === tokenOf(headers)) throw new AppError(400, "To sign out of this device, use Sign Out.");
  const ctx = await auth.$context;
  await ctx.internalAdapter.deleteSession(row.token);
}

/** Ends every session of the person but this browser's; answers how many ended. */
async function endOtherSessions(
  { auth, db, tokenOf }: MyAccountContext,
  viewer: Viewer,
  headers: Headers,
): Promise<number> {
  const current = tokenOf(headers);
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)::int` })
    .from(session)
    .where(
      and(eq(session.userId, viewer.id), gt(session.expiresAt, sql`now()`), sql`${session.token} <> ${current}`),
    )) as [{ n: number }];
  try {
    await auth.api.revokeOtherSessions({ headers });
  } catch (error) {
    throw refusal(error);
  }
  return n;
}

export type MyAccountService = ReturnType<typeof createMyAccountService>;
