import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { twoFactor } from "better-auth/plugins/two-factor";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { isAPIError } from "better-auth/api";
import { getCookies } from "better-auth/cookies";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import {
  credentialsSchema,
  MESSAGES,
  newPasswordSchema,
  PASSWORD_MAX,
  PASSWORD_MIN,
  registrationSchema,
  resetRequestSchema,
} from "../../domain/account-forms";
import { STAFF_RESET, STAFF_RESET_PATH, STAFF_WELCOME } from "../../domain/staff-words";
import { parseWith } from "../../domain/validation";
import { ConfigError, type Config } from "../config";
import { databaseUnavailable, isDatabaseUnavailable, type Db } from "../db/client";
import * as schema from "../db/schema";
import { AppError, badRequest, tooMany } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { ApiKeyPrincipal } from "./api-keys";
import type { AdminUsersService } from "./admin-users";
import { createAuthHooks, REFUSAL_CODES } from "./auth-hooks";
import type { WebhookEmitter } from "./webhooks";
import { staffHome, type StaffRole } from "../../domain/capabilities";
import { twoFactorDue, type StaffTwoFactorPolicy } from "../../domain/two-factor";
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import type { MailsService } from "./mails";
import type { JobsService } from "./jobs";
import type { Mail } from "./mailer";
import { cookieValue, createPageRoleCookies } from "./page-role";
import { passwordProblem } from "./passwords";
import { sessionRefreshDue, sessionTokenOf } from "./session-token";
import type { RateLimiter, RateLimitRule } from "./rate-limit";
import { SIGN_IN_LOCKOUT, TOTP_ISSUER, TWO_FACTOR_LIMITS } from "./two-factor";
import { CLIENT_IP_HEADER, emailChangeOf, myAccountAuthPlugin } from "./my-account-auth";

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

const MINUTE = 60_000;

/** The viewer a person is; staff are listed in admin_users (with their role) and have a verified email. */
function viewerOf(
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
const SESSION = { expiresInSeconds: 60 * 60 * 24 * 30, updateAgeSeconds: 60 * 60 * 24 };
/**
 * Attempts per IP and per email (DESIGN.md: abuse; README, "Sign-in throttling"). Sign-in: every attempt counts
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

const TOO_MANY = {
  signIn: "Too many sign-in attempts. Please wait a few minutes and try again.",
  signUp: "Too many accounts were created from your network. Please try again later.",
  reset: "Too many reset requests. Please wait an hour and try again.",
  verify: "Too many verification emails. Please wait an hour and try again.",
};

/**
 * What better-auth's own calls accept from a body: a JSON object, whose profile fields (stored as given by better-auth)
 * are strings. Its other fields it checks itself.
 */
const AUTH_BODY = z.looseObject({
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
const linkMailed = new AsyncLocalStorage<{ queued: boolean }>();

export function createAuth(
  db: Db,
  config: Config,
  jobs: Pick<JobsService, "queueMail">,
  mails: Pick<MailsService, "render">,
  logger: Logger,
  limiter: RateLimiter,
  /** customer.created, with the sign-up's consent rows (auth-hooks.ts, docs/decisions/078). */
  webhooks?: Pick<WebhookEmitter, "emitTx">,
) {
  const https = config.publicUrl.startsWith("https://");
  // Each link (its one-time token) is mailed once; the key holds a hash of it, never the token.
  const queueLinkMail = (kind: string, url: string, mail: Promise<Mail>): Promise<boolean> => {
    const key = `${kind}:${createHash("sha256").update(url).digest("hex").slice(0, 32)}`;
    return mail
      .then((m) => jobs.queueMail(db, m, key))
      .catch((error: unknown) => {
        logger.error({ kind, error }, "mail could not be queued");
        return false;
      });
  };
  return betterAuth({
    appName: "Atelier North",
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: config.allowedOrigins,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
      },
    }),
    // Two-factor sign-in (decision 040): an authenticator app's codes and recovery codes; no trusted devices.
    plugins: [
      twoFactor({
        issuer: TOTP_ISSUER,
        accountLockout: SIGN_IN_LOCKOUT,
        backupCodeOptions: { amount: 10, length: 10, storeBackupCodes: "encrypted" },
      }),
      // My account's rules on better-auth's own calls (limits, a taken address, the notices; decision 044).
      myAccountAuthPlugin({ db, limiter, jobs, mails, logger }),
    ],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: true,
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      // Queued (sent by the job queue), and not awaited: the answer must not reveal, by its timing, whether the address
      // has an account.
      sendResetPassword: async ({ user, url }) => {
        // A staff member's link opens the back office's page in staff words (issue 33, item 14), not the customer's;
        // looked up in the same unawaited work, so the answer's timing still tells nothing.
        const staff = db
          .select({ id: schema.adminUsers.id })
          .from(schema.adminUsers)
          .where(sql`lower(${schema.adminUsers.userEmail}) = lower(${user.email})`)
          .limit(1)
          .then((rows) => rows.length > 0)
          .catch(() => false);
        void staff.then((isStaff) => {
          const link = new URL(url);
          if (isStaff) link.searchParams.set("callbackURL", STAFF_RESET_PATH);
          const sent = link.toString();
          return queueLinkMail("password-reset", sent, mails.render("passwordReset", { url: sent }, user.email));
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url, token }) => {
        // An email change's link goes to the new address (user.email here) with a mail of its own.
        const change = emailChangeOf(token);
        if (change) {
          const mail = mails.render("emailChangeConfirm", { url, oldEmail: change.oldEmail }, user.email);
          void queueLinkMail("change-email", url, mail);
          return;
        }
        const queued = queueLinkMail("verify-email", url, mails.render("verifyEmail", { url }, user.email));
        const asked = linkMailed.getStore();
        if (asked) asked.queued = await queued;
      },
    },
    session: { expiresIn: SESSION.expiresInSeconds, updateAge: SESSION.updateAgeSeconds },
    // A confirmed address changes only once the new one is confirmed (its link; my-account-auth.ts for the rest).
    user: { changeEmail: { enabled: true } },
    advanced: {
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: https },
      // The address Express decided (TRUST_PROXY), set by the app on every request: a session records where it began.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], disableIpTracking: false },
    },
    // One set of limits: ours (per IP and per email, in PostgreSQL, shared by every instance) guard sign-in, sign-up,
    // reset and verification in front of this handler and in our own actions. better-auth's in-memory limiter has
    // stricter rules of its own that would contradict them, and is per process.
    rateLimit: { enabled: false },
    // The password rule and the acceptance of the terms, wherever better-auth sets a password or opens an account.
    hooks: createAuthHooks(db, webhooks),
    logger: {
      log: (level, message) => {
        if (level === "error") logger.error(`auth: ${message}`);
        else if (level === "warn") logger.warn(`auth: ${message}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Accounts: registration, sign-in, sign-out, password reset and who is asking. Pages and the REST API both call these;
 * rate limits and the messages people see are decided here.
 */
export function createAccountsService(deps: {
  auth: Auth;
  db: Db;
  limiter: RateLimiter;
  adminUsers: AdminUsersService;
  config: Config;
  logger: Logger;
}) {
  const { auth, db, limiter, adminUsers, config, logger } = deps;

  async function limit(rule: RateLimitRule, key: string, message: string) {
    const { allowed } = await limiter.hit(rule, key.toLowerCase());
    if (!allowed) throw tooMany(message);
  }

  /** The password rule's or the consent's refusal (auth-hooks.ts), as the field error a form shows. */
  function refusal(error: unknown): AppError | undefined {
    if (!isAPIError(error)) return undefined;
    const code = String(error.body?.code);
    const field =
      code === REFUSAL_CODES.passwordRefused ? "password" : code === REFUSAL_CODES.consentRequired ? "acceptTerms" : "";
    if (!field) return undefined;
    const message = String(error.body?.message);
    return new AppError(400, message, [{ field, message }]);
  }

  const pairKey = (ip: string, email: string) => `${ip}|${email.toLowerCase()}`;

  /** Before a sign-in attempt: the address's limit, the pair's failures (refused), the account's (slowed down). */
  async function beforeSignIn(ip: string, email: string) {
    await limit(AUTH_LIMITS.signInIp, ip, TOO_MANY.signIn);
    if (!email) return;
    const pair = await limiter.count(AUTH_LIMITS.signInPairFailures, pairKey(ip, email));
    if (pair.count >= AUTH_LIMITS.signInPairFailures.limit) throw tooMany(TOO_MANY.signIn);
    const account = await limiter.count(AUTH_LIMITS.signInAccountFailures, email.toLowerCase());
    const wait = signInDelayMs(account.count);
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** After it: a failure counts against the pair and the account; a success clears the pair. */
  async function afterSignIn(ip: string, email: string, succeeded: boolean) {
    if (!email) return;
    if (succeeded) {
      await limiter.reset(AUTH_LIMITS.signInPairFailures, pairKey(ip, email));
      return;
    }
    await limiter.add(AUTH_LIMITS.signInPairFailures, pairKey(ip, email));
    await limiter.add(AUTH_LIMITS.signInAccountFailures, email.toLowerCase());
  }

  function credentials(input: unknown) {
    const parsed = parseWith(credentialsSchema, input ?? {});
    if (!parsed.ok) throw badRequest(parsed.errors);
    return parsed.data;
  }

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

  /**
   * Signs in with the password; any failure is the one message the spec names. With two-factor sign-in on, no session
   * yet: `secondFactor` is true and the headers carry better-auth's short-lived two_factor cookie for the code's page
   * (/login/two-factor). `landing`: where a sign-in without a chosen destination goes (staff: their back office).
   */
  async function beginSignIn(
    input: unknown,
    ctx: AttemptContext,
  ): Promise<{ headers: Headers; secondFactor: boolean; landing: string }> {
    const { email, password } = credentials(input);
    await beforeSignIn(ctx.ip, email);
    try {
      const { headers, response } = await auth.api.signInEmail({
        body: { email, password, rememberMe: true },
        headers: ctx.headers,
        returnHeaders: true,
      });
      await afterSignIn(ctx.ip, email, true);
      const secondFactor = "twoFactorRedirect" in response && response.twoFactorRedirect === true;
      return { headers, secondFactor, landing: secondFactor ? "/login/two-factor" : await landingFor(email) };
    } catch (error) {
      if (isAPIError(error)) {
        await afterSignIn(ctx.ip, email, false);
        throw new AppError(401, MESSAGES.loginFailed);
      }
      throw error;
    }
  }

  /** Where a person lands after signing in when they asked for no page: staff on their back office, customers on /dashboard. */
  async function landingFor(email: string): Promise<string> {
    const [row] = await db
      .select({ role: schema.adminUsers.userRole })
      .from(schema.adminUsers)
      .innerJoin(schema.user, sql`lower(${schema.user.email}) = lower(${schema.adminUsers.userEmail})`)
      .where(sql`lower(${schema.adminUsers.userEmail}) = lower(${email}) and ${schema.user.emailVerified}`)
      .limit(1);
    return row ? staffHome(row.role) : "/dashboard";
  }

  /** A new password from a reset (or invitation) link's token. */
  async function resetPassword(input: unknown): Promise<void> {
    const parsed = parseWith(newPasswordSchema, input ?? {});
    if (!parsed.ok) throw badRequest(parsed.errors);
    try {
      await auth.api.resetPassword({ body: { newPassword: parsed.data.password, token: parsed.data.token } });
    } catch (error) {
      const refused = refusal(error);
      if (refused) throw refused;
      if (isAPIError(error)) {
        throw new AppError(400, "This reset link has expired or was already used. Ask for a new one.", [
          { field: "token", message: "This reset link has expired or was already used. Ask for a new one." },
        ]);
      }
      throw error;
    }
  }

  return {
    auth,
    pageRoles,

    /**
     * The signed-in person, or null. An admin is listed in admin_users and has a verified email. A session cookie
     * that is genuine, of a session that is neither over nor due to be extended, is answered with one query (session,
     * person and admin listing together); every other case is better-auth's own lookup (it ends an expired session
     * and moves a session's end on).
     */
    async viewer(headers: Headers): Promise<Viewer | null> {
      const cookie = headers.get("cookie");
      if (!cookie && !headers.get("authorization")) return null;
      if (cookie && !headers.get("authorization")) {
        const token = sessionTokenOf(cookieValue(cookie, sessionCookie), config.authSecret);
        if (!token) return null;
        let row: Awaited<ReturnType<typeof viewerBySession.execute>>[number] | undefined;
        try {
          [row] = await viewerBySession.execute({ token });
        } catch (error) {
          if (isDatabaseUnavailable(error)) throw databaseUnavailable();
          throw error;
        }
        if (!row) return null;
        if (row.expiresAt.getTime() > Date.now() && !sessionRefreshDue(row.expiresAt, Date.now(), SESSION)) {
          return viewerOf(row, row.listed, config.staffTwoFactor);
        }
      }
      let found: Awaited<ReturnType<typeof auth.api.getSession>>;
      try {
        found = await auth.api.getSession({ headers });
      } catch (error) {
        // A session that cannot be looked up is not "signed out": 503, and the visitor stays signed in.
        if (isDatabaseUnavailable(error)) throw databaseUnavailable();
        return null;
      }
      if (!found) return null;
      const u = found.user;
      return viewerOf(u, u.emailVerified ? await adminUsers.roleOf(u.email) : null, config.staffTwoFactor);
    },

    /** Rate limits of a sign-in, sign-up or reset request reaching better-auth's own REST handler. */
    async limitAuthEndpoint(path: string, body: unknown, ip: string) {
      if (body !== undefined && !AUTH_BODY.safeParse(body).success) {
        throw new AppError(400, "Send a JSON object whose name (and image) is text.");
      }
      const email = typeof (body as { email?: unknown })?.email === "string" ? (body as { email: string }).email : "";
      if (path === "/sign-in/email") {
        await beforeSignIn(ip, email);
      } else if (path === "/sign-up/email") {
        await limit(AUTH_LIMITS.signUpIp, ip, TOO_MANY.signUp);
      } else if (path === "/request-password-reset") {
        await limit(AUTH_LIMITS.resetIp, ip, TOO_MANY.reset);
        if (email) await limit(AUTH_LIMITS.resetEmail, email, TOO_MANY.reset);
      } else if (path === "/send-verification-email") {
        if (email) await limit(AUTH_LIMITS.verifyEmail, email, TOO_MANY.verify);
      } else if (path.startsWith("/two-factor/")) {
        // Decision 040: codes are limited per address as on the sign-in page; turning it off asks for a code and
        // follows the staff rule, so only the account's page does it; no device is trusted to skip the code.
        if (path === "/two-factor/disable") {
          throw new AppError(403, "Turn off two-factor sign-in on your account's security page.");
        }
        if ((body as { trustDevice?: unknown } | undefined)?.trustDevice) {
          throw new AppError(400, "Trusting a device is not offered: each sign-in asks for a code.");
        }
        if (path.startsWith("/two-factor/verify")) await limit(TWO_FACTOR_LIMITS.signInIp, ip, TOO_MANY.signIn);
      }
    },

    /** What better-auth answered to a sign-in through its own REST call (the throttling's bookkeeping). */
    async afterAuthEndpoint(path: string, body: unknown, ip: string, status: number) {
      if (path !== "/sign-in/email") return;
      const email = typeof (body as { email?: unknown })?.email === "string" ? (body as { email: string }).email : "";
      if (status === 200) await afterSignIn(ip, email, true);
      else if (status === 401 || status === 403) await afterSignIn(ip, email, false);
    },

    /** Registers and signs in; answers the Set-Cookie headers to send. */
    async signUp(input: unknown, ctx: AttemptContext): Promise<Headers> {
      const parsed = parseWith(registrationSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const { email, password, acceptTerms } = parsed.data;
      await limit(AUTH_LIMITS.signUpIp, ctx.ip, TOO_MANY.signUp);
      // acceptTerms is ours, read by the sign-up hook (auth-hooks.ts); better-auth keeps only the fields it knows.
      const body = { email, password, name: "", callbackURL: "/dashboard", acceptTerms };
      try {
        const { headers } = await auth.api.signUpEmail({
          body,
          headers: ctx.headers,
          returnHeaders: true,
        });
        return headers;
      } catch (error) {
        if (isAPIError(error) && /ALREADY_EXISTS/.test(String(error.body?.code))) {
          throw new AppError(409, "An account with this email already exists. Please log in instead.", [
            { field: "email", message: "An account with this email already exists. Please log in instead." },
          ]);
        }
        throw refusal(error) ?? error;
      }
    },

    /** Signs in (a password alone: the tests' and the API's customers); `beginSignIn` is the page's, with its steps. */
    async signIn(input: unknown, ctx: AttemptContext): Promise<Headers> {
      return (await beginSignIn(input, ctx)).headers;
    },

    beginSignIn,
    landingFor,

    async signOut(headers: Headers): Promise<Headers> {
      try {
        const result = await auth.api.signOut({ headers, returnHeaders: true });
        return result.headers;
      } catch {
        return new Headers(); // no session: nothing to end
      }
    },

    /** Sends a reset link when the address has an account; answers the same either way. */
    async requestPasswordReset(input: unknown, ctx: AttemptContext): Promise<void> {
      const parsed = parseWith(resetRequestSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      await limit(AUTH_LIMITS.resetIp, ctx.ip, TOO_MANY.reset);
      await limit(AUTH_LIMITS.resetEmail, parsed.data.email, TOO_MANY.reset);
      try {
        await auth.api.requestPasswordReset({
          body: { email: parsed.data.email, redirectTo: "/reset-password" },
          headers: ctx.headers,
        });
      } catch (error) {
        logger.error({ error }, "Error sending password reset email");
      }
    },

    /** Sets a new password from a reset link's token; every session of that account ends. */
    resetPassword,

    /** A staff invitation's link (staff.ts invite), or a staff member's reset link: their role; null when unknown or expired. */
    async invitationOf(token: unknown): Promise<{ role: string } | null> {
      if (typeof token !== "string" || token.length === 0 || token.length > 200) return null;
      const rows = await db.execute<{ role: string }>(sql`
        select a.user_role as role from ${schema.verification} v
        join ${schema.user} u on u.id = v.value
        join ${schema.adminUsers} a on lower(a.user_email) = lower(u.email)
        where v.identifier = ${`reset-password:${token}`} and v.expires_at > now()`);
      const row = rows.rows[0];
      return row ? { role: row.role } : null;
    },

    /**
     * A staff member's first password, from their invitation (newPasswordSchema: the token and the password, which the
     * staff rule of 12 characters checks), then signed in at once: their back office, or the code's page when their
     * account has two-factor sign-in on.
     */
    async acceptInvitation(
      input: unknown,
      ctx: AttemptContext,
      options: { reset?: boolean } = {},
    ): Promise<{ headers: Headers; secondFactor: boolean; landing: string }> {
      const parsed = parseWith(newPasswordSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const [invited] = await db
        .select({ email: schema.user.email })
        .from(schema.verification)
        .innerJoin(schema.user, eq(schema.user.id, schema.verification.value))
        .where(eq(schema.verification.identifier, `reset-password:${parsed.data.token}`));
      // A staff member's forgotten password (the reset mail's link for a staff address) is refused in its own words.
      const expired = options.reset ? STAFF_RESET.expired : STAFF_WELCOME.expired;
      const spent = new AppError(400, expired, [{ field: "token", message: expired }]);
      if (!invited) throw spent;
      try {
        await resetPassword(parsed.data);
      } catch (error) {
        // The link's refusal in the staff's words; the password's own refusals (too short for staff) as they are.
        if (error instanceof AppError && error.errors.some((e) => e.field === "token")) throw spent;
        throw error;
      }
      return beginSignIn({ email: invited.email, password: parsed.data.password }, ctx);
    },

    /** Mails the email-confirmation link again: false when none was mailed (the same link went a moment ago). */
    async resendVerification(viewer: Viewer, ctx: AttemptContext): Promise<boolean> {
      await limit(AUTH_LIMITS.verifyEmail, viewer.email, TOO_MANY.verify);
      const asked = { queued: false };
      await linkMailed.run(asked, () =>
        auth.api.sendVerificationEmail({
          body: { email: viewer.email, callbackURL: "/dashboard" },
          headers: ctx.headers,
        }),
      );
      return asked.queued;
    },

    /**
     * A fresh install's first administrator: from ADMIN_EMAIL/ADMIN_PASSWORD, or admin@example.com with a random
     * password printed once. Created verified (the operator named it), so its admin rights work at once.
     */
    async ensureFirstAdmin(): Promise<void> {
      if ((await adminUsers.count()) > 0) return;
      const email = (config.adminEmail ?? "admin@example.com").toLowerCase();
      const generated = !config.adminPassword;
      const password = config.adminPassword ?? randomBytes(12).toString("base64url");
      const [existing] = await db.select({ id: schema.user.id }).from(schema.user).where(eq(schema.user.email, email));
      // A chosen password meets the staff rule, as any staff member's does (decision 037).
      const problem = existing || generated ? null : await passwordProblem(password, { staff: true });
      if (problem) throw new ConfigError(`Invalid configuration:\n  ADMIN_PASSWORD: ${problem}`);
      if (existing) {
        await db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.id, existing.id));
      } else {
        const ctx = await auth.$context;
        const created = await ctx.internalAdapter.createUser(
          { email, name: "Administrator", emailVerified: true },
          { method: "admin" },
        );
        await ctx.internalAdapter.linkAccount({
          userId: created.id,
          providerId: "credential",
          accountId: created.id,
          password: await ctx.password.hash(password),
        });
      }
      await adminUsers.add(email);
      if (existing) {
        logger.info({ email }, "the existing account is now the first administrator");
      } else if (generated) {
        // Printed once, on the first start only; set ADMIN_EMAIL and ADMIN_PASSWORD to choose them instead.
        process.stdout.write(
          `\n  First administrator created.\n    Email:    ${email}\n    Password: ${password}\n  Sign in at ${config.publicUrl}/login and keep this password somewhere safe.\n\n`,
        );
      } else {
        logger.info({ email }, "first administrator created from ADMIN_EMAIL");
      }
    },

    /** Users of better-auth, for tests and the admin user list. */
    async userByEmail(email: string) {
      const [row] = await db
        .select()
        .from(schema.user)
        .where(sql`lower(${schema.user.email}) = lower(${email})`);
      return row;
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
