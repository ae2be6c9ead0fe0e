import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { isAPIError } from "better-auth/api";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { and, eq, like, sql } from "drizzle-orm";
import QRCode from "qrcode";
import { z } from "zod";
import {
  mayTurnOffTwoFactor,
  manualKeyOf,
  normaliseCode,
  recoveryCodeField,
  secondFactorSchema,
  twoFactorConfirmSchema,
  twoFactorOffSchema,
  twoFactorPasswordSchema,
  TWO_FACTOR_MESSAGES as M,
  type StaffTwoFactorPolicy,
} from "#domain/two-factor.ts";
import { parseWith } from "#domain/validation.ts";
import type { StaffRole } from "#domain/capabilities.ts";
import type { Db } from "../db/client";
import { account, adminUsers, session, twoFactor, user, verification } from "../db/schema";
import { AppError, badRequest, conflict, isId, notFound, tooMany } from "../lib/errors";
import { audited, type Actor } from "./activity";
import type { Auth, AttemptContext } from "./accounts";
import type { RateLimiter, RateLimitRule } from "./rate-limit";
import type { Tx } from "./jobs";
import type { Person } from "#domain/privacy.ts";

const MINUTE = 60_000;

/**
 * The limits on codes (decision 040). At sign-in: every attempt counts against the address (as the password's
 * sign-in does); better-auth's plugin allows 5 tries per challenge (then the password again) and locks the account's
 * codes for 15 minutes after 10 failures in a row, from anywhere. On the account's own pages (a signed-in person
 * confirming, turning off, deleting): failures per person.
 */
export const TWO_FACTOR_LIMITS = {
  signInIp: { name: "two-factor:ip", limit: 30, windowMs: 10 * MINUTE },
  accountFailures: { name: "two-factor:account-failures", limit: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, RateLimitRule>;

/** The plugin's lock after failures in a row at sign-in (its accountLockout option). */
export const SIGN_IN_LOCKOUT = { enabled: true, maxFailedAttempts: 10, durationSeconds: 15 * 60 };

/** The authenticator app's name for this site's key. */
export const TOTP_ISSUER = "Atelier North";

/** The plugin's own identifiers: trusted devices are verification rows named so (we never set one, decision 040). */
const TRUST_DEVICE_PREFIX = "trust-device-";

export interface Enrolment {
  totpUri: string;
  /** The key, for typing into the app by hand, in groups of four. */
  manualKey: string;
  /** The QR code of the otpauth:// address, as an SVG element's markup. */
  qrSvg: string;
}

export interface TwoFactorState {
  enabled: boolean;
  /** An enrolment started (the key shown) and not yet confirmed with a code. */
  pending: Enrolment | null;
  recoveryCodesLeft: number;
}

function parsed<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = parseWith(schema, input ?? {});
  if (!result.ok) throw badRequest(result.errors);
  return result.data;
}

const fieldError = (status: number, field: string, message: string) =>
  new AppError(status, message, [{ field, message }]);

/**
 * Two-factor sign-in (issue 25, part 2; decision 040): an authenticator app's codes and ten recovery codes, through
 * better-auth's two-factor plugin. The plugin keeps the key and the codes (table two_factor, encrypted with the auth
 * secret) and answers enrolment and sign-in; this service adds what it leaves to us: the limits, the messages people
 * read, the staff requirement's exceptions (an Admin cannot turn it off), checking a code for a signed-in person
 * (`checkCode`, for deleting an account), and an admin's reset of someone else's.
 */
export function createTwoFactorService(deps: {
  auth: Auth;
  db: Db;
  limiter: RateLimiter;
  policy: StaffTwoFactorPolicy;
  now?: () => Date;
}) {
  const { auth, db, limiter, policy } = deps;
  const now = deps.now ?? (() => new Date());

  const secretKey = async () => (await auth.$context).secretConfig;

  async function decryptKey(data: string): Promise<string | Uint8Array> {
    const secret = await symmetricDecrypt({ key: await secretKey(), data });
    // The plugin's own convention for a key imported in base32 (its totp/index.mjs, decryptTOTPSecret).
    return secret.startsWith("base32:") ? base32.decode(secret.slice(7).toUpperCase()) : secret;
  }

  async function recoveryCodesOf(data: string): Promise<string[]> {
    try {
      const codes: unknown = JSON.parse(await symmetricDecrypt({ key: await secretKey(), data }));
      return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
    } catch {
      return [];
    }
  }

  async function rowOf(userId: string) {
    const [row] = await db
      .select({
        id: twoFactor.id,
        secret: twoFactor.secret,
        backupCodes: twoFactor.backupCodes,
        verified: twoFactor.verified,
        enabled: user.twoFactorEnabled,
        email: user.email,
      })
      .from(user)
      .leftJoin(twoFactor, eq(twoFactor.userId, user.id))
      .where(eq(user.id, userId))
      .limit(1);
    return row;
  }

  async function enrolmentOf(totpUri: string): Promise<Enrolment> {
    const qrSvg = await QRCode.toString(totpUri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    return { totpUri, manualKey: manualKeyOf(totpUri), qrSvg };
  }

  /** Whether the password is this person's (their credential account's). */
  async function passwordMatches(userId: string, password: string): Promise<boolean> {
    const [row] = await db
      .select({ hash: account.password })
      .from(account)
      .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
      .limit(1);
    if (!row?.hash) return false;
    return (await auth.$context).password.verify({ hash: row.hash, password });
  }

  async function requirePassword(userId: string, password: string) {
    await limitFailures(userId);
    if (!(await passwordMatches(userId, password))) {
      await limiter.add(TWO_FACTOR_LIMITS.accountFailures, userId);
      throw fieldError(400, "password", M.wrongPassword);
    }
  }

  async function limitFailures(userId: string) {
    const { count } = await limiter.count(TWO_FACTOR_LIMITS.accountFailures, userId);
    if (count >= TWO_FACTOR_LIMITS.accountFailures.limit) throw tooMany(M.tooMany);
  }

  /**
   * Whether `code` is this person's: the authenticator app's current code (one step either side), or one of their
   * unused recovery codes, which is then used up (a compare-and-set on the stored codes: two requests cannot both
   * spend it). False when they have no confirmed second factor. Failures count against the person (10 in 15
   * minutes, then 429 for the rest of the window).
   */
  async function checkCode(userId: string, rawCode: string): Promise<boolean> {
    await limitFailures(userId);
    const row = await rowOf(userId);
    const ok = row?.id && row.verified && row.enabled ? await matches(row, rawCode.trim()) : false;
    if (!ok) await limiter.add(TWO_FACTOR_LIMITS.accountFailures, userId);
    return ok;
  }

  async function matches(row: { id: string | null; secret: string | null; backupCodes: string | null }, code: string) {
    const digits = normaliseCode(code);
    if (/^\d{6}$/.test(digits)) return createOTP(await decryptKey(row.secret!)).verify(digits);
    const recovery = recoveryCodeField.safeParse(code);
    if (!recovery.success) return false;
    const codes = await recoveryCodesOf(row.backupCodes!);
    if (!codes.includes(recovery.data)) return false;
    const rest = await symmetricEncrypt({
      key: await secretKey(),
      data: JSON.stringify(codes.filter((c) => c !== recovery.data)),
    });
    const spent = await db
      .update(twoFactor)
      .set({ backupCodes: rest })
      .where(and(eq(twoFactor.id, row.id!), eq(twoFactor.backupCodes, row.backupCodes!)))
      .returning({ id: twoFactor.id });
    return spent.length === 1;
  }

  /** The plugin's refusals, as the messages people read. */
  function signInRefusal(error: unknown, field: string, wrong: string): unknown {
    if (!isAPIError(error)) return error;
    const code = String(error.body?.code);
    if (code === "INVALID_CODE" || code === "INVALID_BACKUP_CODE") return fieldError(400, field, wrong);
    if (code === "ACCOUNT_TEMPORARILY_LOCKED") return tooMany(M.tooMany);
    if (code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") return new AppError(401, M.tooMany);
    return new AppError(401, M.expired);
  }

  /** Sessions and trusted devices of a person end (a reset: they enrol again at their next sign-in). */
  async function endSessions(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], userId: string) {
    await tx.delete(session).where(eq(session.userId, userId));
    await tx
      .delete(verification)
      .where(and(like(verification.identifier, `${TRUST_DEVICE_PREFIX}%`), eq(verification.value, userId)));
  }

  return {
    checkCode,
    passwordMatches,

    /** For a staff role (null: a customer): whether the role must use two-factor sign-in, and may turn it off. */
    rulesFor(role: StaffRole | null): { required: boolean; mayTurnOff: boolean } {
      return { required: !mayTurnOffTwoFactor(role, policy), mayTurnOff: mayTurnOffTwoFactor(role, policy) };
    },

    /** Whether the request carries a sign-in waiting for its code (better-auth's two_factor cookie, 10 minutes). */
    hasSignInChallenge(headers: Headers): boolean {
      return /(?:^|;\s*)(?:__Secure-)?better-auth\.two_factor=/.test(headers.get("cookie") ?? "");
    },

    /** On or off, an enrolment waiting for its first code (with its key again), recovery codes left. */
    async state(userId: string): Promise<TwoFactorState> {
      const row = await rowOf(userId);
      if (!row) throw notFound();
      const enabled = row.enabled && !!row.id && row.verified === true;
      const pending =
        row.id && !row.verified
          ? await enrolmentOf(createOTP(await decryptKey(row.secret!)).url(TOTP_ISSUER, row.email))
          : null;
      return { enabled, pending, recoveryCodesLeft: enabled ? (await recoveryCodesOf(row.backupCodes!)).length : 0 };
    },

    /** Turning it on, step 1: the password, then a new key (replacing one never confirmed) to show as a QR code. */
    async startEnrolment(userId: string, input: unknown, headers: Headers): Promise<Enrolment> {
      const { password } = parsed(twoFactorPasswordSchema, input);
      await requirePassword(userId, password);
      try {
        const answer = await auth.api.enableTwoFactor({ headers, body: { password, issuer: TOTP_ISSUER } });
        if (answer.method !== "totp") throw new Error("two-factor enrolment answered no key");
        return await enrolmentOf(answer.totpURI);
      } catch (error) {
        if (isAPIError(error) && String(error.body?.code) === "TOTP_ALREADY_ENABLED") {
          throw conflict("Two-factor sign-in is already on.");
        }
        throw error;
      }
    },

    /**
     * Step 2: a code from the app proves it holds the key. Two-factor sign-in is then on, the session is replaced by a
     * new one (better-auth's; `headers` carry its cookie) and the recovery codes are answered, to show once.
     */
    async confirmEnrolment(
      userId: string,
      input: unknown,
      headers: Headers,
    ): Promise<{ headers: Headers; recoveryCodes: string[] }> {
      const { code } = parsed(twoFactorConfirmSchema, input);
      await limitFailures(userId);
      const row = await rowOf(userId);
      if (!row?.id) throw conflict("Start again: enter your password to get a new key.");
      let answer: Headers;
      try {
        ({ headers: answer } = await auth.api.verifyTOTP({ headers, body: { code }, returnHeaders: true }));
      } catch (error) {
        if (isAPIError(error) && String(error.body?.code) === "INVALID_CODE") {
          await limiter.add(TWO_FACTOR_LIMITS.accountFailures, userId);
          throw fieldError(400, "code", M.wrongCode);
        }
        throw error;
      }
      const { backupCodes } = await auth.api.viewBackupCodes({ body: { userId } });
      return { headers: answer, recoveryCodes: backupCodes };
    },

    /** New recovery codes (the password again); the old ones stop working. */
    async regenerateRecoveryCodes(userId: string, input: unknown, headers: Headers): Promise<string[]> {
      const { password } = parsed(twoFactorPasswordSchema, input);
      await requirePassword(userId, password);
      const row = await rowOf(userId);
      if (!row?.enabled || !row.verified) throw conflict("Turn on two-factor sign-in first.");
      const { backupCodes } = await auth.api.generateBackupCodes({ headers, body: { password } });
      return backupCodes;
    },

    /**
     * Turning it off: the password and a code (the app's or a recovery code). Not for staff while their role requires
     * it (decision 040). The session stays; the key and the codes are deleted.
     */
    async turnOff(userId: string, role: StaffRole | null, input: unknown): Promise<void> {
      if (!mayTurnOffTwoFactor(role, policy)) throw new AppError(403, M.requiredCannotTurnOff);
      const { password, code } = parsed(twoFactorOffSchema, input);
      await requirePassword(userId, password);
      if (!(await checkCode(userId, code))) throw fieldError(400, "code", M.wrongCode);
      await db.transaction(async (tx) => {
        await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
        await tx.update(user).set({ twoFactorEnabled: false, updatedAt: now() }).where(eq(user.id, userId));
        await tx
          .delete(verification)
          .where(and(like(verification.identifier, `${TRUST_DEVICE_PREFIX}%`), eq(verification.value, userId)));
      });
    },

    /**
     * Sign-in, step 2 (after the password: better-auth's two_factor cookie in `ctx.headers`): the app's code or a
     * recovery code. Answers the new session's Set-Cookie headers and who signed in.
     */
    async verifySignIn(input: unknown, ctx: AttemptContext): Promise<{ headers: Headers; email: string }> {
      const body = parsed(secondFactorSchema, input);
      const { allowed } = await limiter.hit(TWO_FACTOR_LIMITS.signInIp, ctx.ip);
      if (!allowed) throw tooMany(M.tooMany);
      try {
        const result =
          body.method === "totp"
            ? await auth.api.verifyTOTP({ headers: ctx.headers, body: { code: body.code }, returnHeaders: true })
            : await auth.api.verifyBackupCode({ headers: ctx.headers, body: { code: body.code }, returnHeaders: true });
        return { headers: result.headers, email: result.response.user.email };
      } catch (error) {
        throw signInRefusal(error, "code", body.method === "totp" ? M.wrongCode : M.wrongRecoveryCode);
      }
    },

    /** Whether a staff member (the admin list's record) has two-factor sign-in on (false for an unknown record). */
    async enabledForStaff(staffId: string): Promise<boolean> {
      if (!isId(staffId)) return false;
      const [row] = await db
        .select({ enabled: user.twoFactorEnabled })
        .from(adminUsers)
        .innerJoin(user, sql`lower(${user.email}) = lower(${adminUsers.userEmail})`)
        .where(eq(adminUsers.id, staffId))
        .limit(1);
      return row?.enabled ?? false;
    },

    /**
     * An Admin resets a staff member's second factor (a lost phone): the key and codes are deleted, two-factor sign-in
     * is off, every session of theirs ends, and the activity log says who did it. `staffId` is the admin list's record.
     * While the requirement is on, they are walked through enrolling again at their next sign-in.
     */
    async resetForStaff(staffId: string, actor: Actor): Promise<void> {
      if (!isId(staffId)) throw notFound("Staff member not found");
      await audited(db, actor, "admin_user", async (tx, audit) => {
        const [person] = await tx
          .select({ userId: user.id, enabled: user.twoFactorEnabled, row: twoFactor.id })
          .from(adminUsers)
          .innerJoin(user, sql`lower(${user.email}) = lower(${adminUsers.userEmail})`)
          .leftJoin(twoFactor, eq(twoFactor.userId, user.id))
          .where(eq(adminUsers.id, staffId))
          .limit(1);
        if (!person) throw notFound("Staff member not found");
        if (!person.enabled && !person.row) throw conflict("Two-factor sign-in is not on for this person.");
        await tx.delete(twoFactor).where(eq(twoFactor.userId, person.userId));
        await tx.update(user).set({ twoFactorEnabled: false, updatedAt: now() }).where(eq(user.id, person.userId));
        await endSessions(tx, person.userId);
        await audit.updated(staffId, { twoFactorSignIn: "on" }, { twoFactorSignIn: "reset" });
      });
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/** Forgets a person's second factor (decision 086): their authenticator key and recovery codes. */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  await tx.delete(twoFactor).where(eq(twoFactor.userId, person.userId));
}
