import { getCookies } from "better-auth/cookies";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type Config } from "#server/config.ts";
import { type Db } from "#server/db/client.ts";
import * as schema from "#server/db/schema.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { ApiKeyPrincipal } from "../api-keys";
import type { AdminUsersService } from "../admin-users";
import { type StaffRole } from "#domain/capabilities.ts";
import { twoFactorDue, type StaffTwoFactorPolicy } from "#domain/two-factor.ts";
import { AsyncLocalStorage } from "node:async_hooks";
import { createPageRoleCookies } from "../page-role";
import type { RateLimiter, RateLimitRule } from "../rate-limit";

import type { Auth } from "./auth";

/** Who is asking: resolved from the session cookie, once per request. */
export interface Viewer {
  id: string;
  email: string;
  name: string;
  displayName: string;
  emailVerified: boolean;
  /** The staff role (Admin: everything; domain/capabilities.ts), or null for a customer. */
  staffRole: StaffRole | null;
  /**
   * Staff in the Admin role (the owner) acting as such: every area. False while their second factor is due (decision
   * 059): `staffRole` still says the role they hold, `staffRoleOf` (domain/capabilities.ts) the one they act with. For
   * an API key (decision 077): whether it has the orders area, which the orders' services read as "every order".
   */
  isAdmin: boolean;
  /** Signs in with a second factor (decision 040). */
  twoFactorEnabled: boolean;
  /** Staff who must turn on two-factor sign-in before the back office opens to them (domain/two-factor.ts). */
  twoFactorDue: boolean;
  /**
   * Set only for a REST call made with an API key (decision 077; server/http/guards.ts keyViewer): the key, which holds
   * no role and opens exactly its areas (domain/capabilities.ts `opens`).
   */
  apiKey?: ApiKeyPrincipal;
}

export const MINUTE = 60_000;

/** The viewer a person is; staff are listed in admin_users (with their role) and have a verified email. */
export function viewerOf(
  person: { id: string; email: string; name: string; emailVerified: boolean; twoFactorEnabled?: boolean | null },
  listed: StaffRole | null,
  policy: StaffTwoFactorPolicy,
): Viewer {
  const staffRole = person.emailVerified ? listed : null;
  const twoFactorEnabled = person.twoFactorEnabled === true;
  const due = twoFactorDue(staffRole, twoFactorEnabled, policy);
  return {
    id: person.id,
    email: person.email,
    name: person.name,
    displayName: person.name?.trim() || person.email,
    emailVerified: person.emailVerified,
    staffRole,
    isAdmin: staffRole === "Admin" && !due,
    twoFactorEnabled,
    twoFactorDue: due,
  };
}

/** How long a session lasts, and how often its end is moved on while it is used (better-auth's expiresIn, updateAge). */
export const SESSION = { expiresInSeconds: 60 * 60 * 24 * 30, updateAgeSeconds: 60 * 60 * 24 };
/**
 * Attempts per IP and per email (DESIGN.md: abuse; docs/features.md, "Sign-in throttling"). Sign-in: every attempt counts
 * against the address; failed ones against the address-and-account pair (refused past the limit, cleared by a
 * success) and against the account from anywhere, which never refuses (anyone could lock anyone out) but slows
 * each further attempt (signInDelayMs). Sign-up and reset are per hour.
 */
export const AUTH_LIMITS = {
  signInIp: { name: "sign-in:ip", limit: 30, windowMs: 10 * MINUTE },
  signInPairFailures: { name: "sign-in:ip-email-failures", limit: 10, windowMs: 10 * MINUTE },
  signInAccountFailures: { name: "sign-in:email-failures", limit: 20, windowMs: 60 * MINUTE },
  signUpIp: { name: "sign-up:ip", limit: 10, windowMs: 60 * MINUTE },
  resetIp: { name: "reset:ip", limit: 10, windowMs: 60 * MINUTE },
  resetEmail: { name: "reset:email", limit: 3, windowMs: 60 * MINUTE },
  verifyEmail: { name: "verify:email", limit: 3, windowMs: 60 * MINUTE },
} satisfies Record<string, RateLimitRule>;

/** The wait before a sign-in attempt, from the account's recent failures: none up to the limit, then 250 ms more per failure, at most 5 s. */
export function signInDelayMs(accountFailures: number): number {
  const over = accountFailures - AUTH_LIMITS.signInAccountFailures.limit;
  return over <= 0 ? 0 : Math.min(5000, 250 * over);
}

export const TOO_MANY = {
  signIn: "Too many sign-in attempts. Please wait a few minutes and try again.",
  signUp: "Too many accounts were created from your network. Please try again later.",
  reset: "Too many reset requests. Please wait an hour and try again.",
  verify: "Too many verification emails. Please wait an hour and try again.",
};

/**
 * What better-auth's own calls accept from a body: a JSON object, whose profile fields (stored as given by better-auth)
 * are strings. Its other fields it checks itself.
 */
export const AUTH_BODY = z.looseObject({
  name: z.string().max(200).optional(),
  image: z.string().max(2000).nullable().optional(),
});

export interface AttemptContext {
  ip: string;
  headers: Headers;
}

/**
 * Set while "Send the link again" asks better-auth for a link: whether its callback queued a new mail. A link asked
 * for twice within a second is the same link (better-auth's token carries the second), and a link is mailed once.
 */
export const linkMailed = new AsyncLocalStorage<{ queued: boolean }>();

/** What the accounts service is given. */
export interface AccountsDeps {
  auth: Auth;
  db: Db;
  limiter: RateLimiter;
  adminUsers: AdminUsersService;
  config: Config;
  logger: Logger;
}

/** What its functions share: the dependencies, the session cookie's name, the prepared viewer read, the page roles. */
export function accountsContext(deps: AccountsDeps) {
  const { auth, db, config } = deps;

  const sessionCookie = getCookies(auth.options).sessionToken.name;
  /** A session's person and whether they are listed as an admin, by the session's token: one prepared query. */
  const viewerBySession = db
    .select({
      expiresAt: schema.session.expiresAt,
      id: schema.user.id,
      email: schema.user.email,
      name: schema.user.name,
      emailVerified: schema.user.emailVerified,
      twoFactorEnabled: schema.user.twoFactorEnabled,
      listed: sql<StaffRole | null>`(select a.user_role from ${schema.adminUsers} a where lower(a.user_email) = lower(${schema.user.email}))`,
    })
    .from(schema.session)
    .innerJoin(schema.user, eq(schema.user.id, schema.session.userId))
    .where(eq(schema.session.token, sql.placeholder("token")))
    .limit(1)
    .prepare("viewer_by_session");

  /** The role a public page is rendered for, proved by a signed cookie without the database (decision 025). */
  const pageRoles = createPageRoleCookies({
    secret: config.authSecret,
    sessionCookie,
    secure: config.publicUrl.startsWith("https://"),
  });
  return { ...deps, sessionCookie, viewerBySession, pageRoles };
}

export type AccountsCtx = ReturnType<typeof accountsContext>;
