import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { isAPIError } from "better-auth/api";
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { and, eq } from "drizzle-orm";
import QRCode from "qrcode";
import {
  manualKeyOf,
  normaliseCode,
  recoveryCodeField,
  secondFactorSchema,
  TWO_FACTOR_MESSAGES as M,
} from "#domain/two-factor.ts";
import { account, twoFactor, user } from "#server/db/schema.ts";
import { AppError, tooMany } from "#server/lib/errors.ts";
import type { AttemptContext } from "../accounts";
import { fieldError, parsed, TWO_FACTOR_LIMITS, type Enrolment, type TwoFactorContext } from "./model";

const secretKey = async ({ auth }: TwoFactorContext) => (await auth.$context).secretConfig;

export async function decryptKey(ctx: TwoFactorContext, data: string): Promise<string | Uint8Array> {
  const secret = await symmetricDecrypt({ key: await secretKey(ctx), data });
  // The plugin's own convention for a key imported in base32 (its totp/index.mjs, decryptTOTPSecret).
  return secret.startsWith("base32:") ? base32.decode(secret.slice(7).toUpperCase()) : secret;
}

export async function recoveryCodesOf(ctx: TwoFactorContext, data: string): Promise<string[]> {
  try {
    const codes: unknown = JSON.parse(await symmetricDecrypt({ key: await secretKey(ctx), data }));
    return Array.isArray(codes) ? codes.filter((c): c is string => typeof c === "string") : [];
  } catch {
    return [];
  }
}

export async function rowOf({ db }: TwoFactorContext, userId: string) {
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

export async function enrolmentOf(totpUri: string): Promise<Enrolment> {
  const qrSvg = await QRCode.toString(totpUri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { totpUri, manualKey: manualKeyOf(totpUri), qrSvg };
}

/** Whether the password is this person's (their credential account's). */
export async function passwordMatches(
  { db, auth }: TwoFactorContext,
  userId: string,
  password: string,
): Promise<boolean> {
  const [row] = await db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")))
    .limit(1);
  if (!row?.hash) return false;
  return (await auth.$context).password.verify({ hash: row.hash, password });
}

export async function requirePassword(ctx: TwoFactorContext, userId: string, password: string) {
  await limitFailures(ctx, userId);
  if (!(await passwordMatches(ctx, userId, password))) {
    await ctx.limiter.add(TWO_FACTOR_LIMITS.accountFailures, userId);
    throw fieldError(400, "password", M.wrongPassword);
  }
}

export async function limitFailures({ limiter }: TwoFactorContext, userId: string) {
  const { count } = await limiter.count(TWO_FACTOR_LIMITS.accountFailures, userId);
  if (count >= TWO_FACTOR_LIMITS.accountFailures.limit) throw tooMany(M.tooMany);
}

/**
 * Whether `code` is this person's: the authenticator app's current code (one step either side), or one of their
 * unused recovery codes, which is then used up (a compare-and-set on the stored codes: two requests cannot both
 * spend it). False when they have no confirmed second factor. Failures count against the person (10 in 15
 * minutes, then 429 for the rest of the window).
 */
export async function checkCode(ctx: TwoFactorContext, userId: string, rawCode: string): Promise<boolean> {
  await limitFailures(ctx, userId);
  const row = await rowOf(ctx, userId);
  const ok = row?.id && row.verified && row.enabled ? await matches(ctx, row, rawCode.trim()) : false;
  if (!ok) await ctx.limiter.add(TWO_FACTOR_LIMITS.accountFailures, userId);
  return ok;
}

async function matches(
  ctx: TwoFactorContext,
  row: { id: string | null; secret: string | null; backupCodes: string | null },
  code: string,
) {
  const digits = normaliseCode(code);
  if (/^\d{6}$/.test(digits)) return createOTP(await decryptKey(ctx, row.secret!)).verify(digits);
  const recovery = recoveryCodeField.safeParse(code);
  if (!recovery.success) return false;
  const codes = await recoveryCodesOf(ctx, row.backupCodes!);
  if (!codes.includes(recovery.data)) return false;
  const rest = await symmetricEncrypt({
    key: await secretKey(ctx),
    data: JSON.stringify(codes.filter((c) => c !== recovery.data)),
  });
  const spent = await ctx.db
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

/** Whether the request carries a sign-in waiting for its code (better-auth's two_factor cookie, 10 minutes). */
export function hasSignInChallenge(headers: Headers): boolean {
  return /(?:^|;\s*)(?:__Secure-)?better-auth\.two_factor=/.test(headers.get("cookie") ?? "");
}

/**
 * Sign-in, step 2 (after the password: better-auth's two_factor cookie in `ctx.headers`): the app's code or a
 * recovery code. Answers the new session's Set-Cookie headers and who signed in.
 */
export async function verifySignIn(
  { auth, limiter }: TwoFactorContext,
  input: unknown,
  ctx: AttemptContext,
): Promise<{ headers: Headers; email: string }> {
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
}
