import { betterAuth } from "better-auth";
import { twoFactor } from "better-auth/plugins/two-factor";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { sql } from "drizzle-orm";
import { PASSWORD_MAX, PASSWORD_MIN } from "#domain/account-forms.ts";
import { STAFF_RESET_PATH } from "#domain/staff-words.ts";
import { type Config } from "#server/config.ts";
import { type Db } from "#server/db/client.ts";
import * as schema from "#server/db/schema.ts";
import type { Logger } from "#server/lib/logger.ts";
import { createAuthHooks } from "../auth-hooks";
import type { WebhookEmitter } from "../webhooks";
import { createHash } from "node:crypto";
import type { MailsService } from "../mails";
import type { JobsService } from "../jobs";
import type { Mail } from "../mailer";
import type { RateLimiter } from "../rate-limit";
import { SIGN_IN_LOCKOUT, TOTP_ISSUER } from "../two-factor";
import { CLIENT_IP_HEADER, emailChangeOf, myAccountAuthPlugin } from "../my-account-auth";
import { SESSION, linkMailed } from "./model";

/** Mails a link (its one-time token) once: the job's key holds a hash of it, never the token. */
type LinkMailer = (kind: string, url: string, mail: Promise<Mail>) => Promise<boolean>;

const linkMailer =
  (db: Db, jobs: Pick<JobsService, "queueMail">, logger: Logger): LinkMailer =>
  (kind, url, mail) => {
    const key = `${kind}:${createHash("sha256").update(url).digest("hex").slice(0, 32)}`;
    return mail
      .then((m) => jobs.queueMail(db, m, key))
      .catch((error: unknown) => {
        logger.error({ kind, error }, "mail could not be queued");
        return false;
      });
  };

/**
 * better-auth's reset mail: queued (sent by the job queue), and not awaited: the answer must not reveal, by its timing,
 * whether the address has an account.
 */
const passwordResetSender =
  (db: Db, mails: Pick<MailsService, "render">, queueLinkMail: LinkMailer) =>
  async ({ user, url }: { user: { email: string }; url: string }) => {
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
  };

/** better-auth's confirmation mail: a new account's, or an email change's (to the new address). */
const verificationSender =
  (mails: Pick<MailsService, "render">, queueLinkMail: LinkMailer) =>
  async ({ user, url, token }: { user: { email: string }; url: string; token: string }) => {
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
  };

export function createAuth({
  db,
  config,
  jobs,
  mails,
  logger,
  limiter,
  webhooks,
}: {
  db: Db;
  config: Config;
  jobs: Pick<JobsService, "queueMail">;
  mails: Pick<MailsService, "render">;
  logger: Logger;
  limiter: RateLimiter;
  /** customer.created, with the sign-up's consent rows (auth-hooks.ts, docs/decisions/078). */
  webhooks?: Pick<WebhookEmitter, "emitTx">;
}) {
  const https = config.publicUrl.startsWith("https://");
  const queueLinkMail = linkMailer(db, jobs, logger);
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
      sendResetPassword: passwordResetSender(db, mails, queueLinkMail),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: verificationSender(mails, queueLinkMail),
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
    hooks: createAuthHooks({ db, webhooks }),
    logger: {
      log: (level, message) => {
        if (level === "error") logger.error(`auth: ${message}`);
        else if (level === "warn") logger.warn(`auth: ${message}`);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
