import { createOTP } from "@better-auth/utils/otp";
import { isAPIError } from "better-auth/api";
import { and, eq, like } from "drizzle-orm";
import type { StaffRole } from "#domain/capabilities.ts";
import {
  mayTurnOffTwoFactor,
  twoFactorConfirmSchema,
  twoFactorOffSchema,
  twoFactorPasswordSchema,
  TWO_FACTOR_MESSAGES as M,
} from "#domain/two-factor.ts";
import { twoFactor, user, verification } from "#server/db/schema.ts";
import { AppError, conflict, notFound } from "#server/lib/errors.ts";
import type { Tx } from "../jobs";
import { checkCode, decryptKey, enrolmentOf, limitFailures, recoveryCodesOf, requirePassword, rowOf } from "./codes";
import {
  fieldError,
  parsed,
  TOTP_ISSUER,
  TRUST_DEVICE_PREFIX,
  TWO_FACTOR_LIMITS,
  type Enrolment,
  type TwoFactorContext,
  type TwoFactorState,
} from "./model";

/** A person's trusted devices are forgotten (the plugin's verification rows). */
export async function forgetTrustedDevicesTx(tx: Tx, userId: string) {
  await tx
    .delete(verification)
    .where(and(like(verification.identifier, `${TRUST_DEVICE_PREFIX}%`), eq(verification.value, userId)));
}

/** For a staff role (null: a customer): whether the role must use two-factor sign-in, and may turn it off. */
export function rulesFor(
  { policy }: TwoFactorContext,
  role: StaffRole | null,
): { required: boolean; mayTurnOff: boolean } {
  return { required: !mayTurnOffTwoFactor(role, policy), mayTurnOff: mayTurnOffTwoFactor(role, policy) };
}

/** On or off, an enrolment waiting for its first code (with its key again), recovery codes left. */
export async function state(ctx: TwoFactorContext, userId: string): Promise<TwoFactorState> {
  const row = await rowOf(ctx, userId);
  if (!row) throw notFound();
  const enabled = row.enabled && !!row.id && row.verified === true;
  const pending =
    row.id && !row.verified
      ? await enrolmentOf(createOTP(await decryptKey(ctx, row.secret!)).url(TOTP_ISSUER, row.email))
      : null;
  return { enabled, pending, recoveryCodesLeft: enabled ? (await recoveryCodesOf(ctx, row.backupCodes!)).length : 0 };
}

/** Turning it on, step 1: the password, then a new key (replacing one never confirmed) to show as a QR code. */
export async function startEnrolment(
  ctx: TwoFactorContext,
  userId: string,
  input: unknown,
  headers: Headers,
): Promise<Enrolment> {
  const { password } = parsed(twoFactorPasswordSchema, input);
  await requirePassword(ctx, userId, password);
  try {
    const answer = await ctx.auth.api.enableTwoFactor({ headers, body: { password, issuer: TOTP_ISSUER } });
    if (answer.method !== "totp") throw new Error("two-factor enrolment answered no key");
    return await enrolmentOf(answer.totpURI);
  } catch (error) {
    if (isAPIError(error) && String(error.body?.code) === "TOTP_ALREADY_ENABLED") {
      throw conflict("Two-factor sign-in is already on.");
    }
    throw error;
  }
}

/**
 * Step 2: a code from the app proves it holds the key. Two-factor sign-in is then on, the session is replaced by a
 * new one (better-auth's; `headers` carry its cookie) and the recovery codes are answered, to show once.
 */
export async function confirmEnrolment(
  ctx: TwoFactorContext,
  userId: string,
  input: unknown,
  headers: Headers,
): Promise<{ headers: Headers; recoveryCodes: string[] }> {
  const { code } = parsed(twoFactorConfirmSchema, input);
  await limitFailures(ctx, userId);
  const row = await rowOf(ctx, userId);
  if (!row?.id) throw conflict("Start again: enter your password to get a new key.");
  let answer: Headers;
  try {
    ({ headers: answer } = await ctx.auth.api.verifyTOTP({ headers, body: { code }, returnHeaders: true }));
  } catch (error) {
    if (isAPIError(error) && String(error.body?.code) === "INVALID_CODE") {
      await ctx.limiter.add(TWO_FACTOR_LIMITS.accountFailures, userId);
      throw fieldError(400, "code", M.wrongCode);
    }
    throw error;
  }
  const { backupCodes } = await ctx.auth.api.viewBackupCodes({ body: { userId } });
  return { headers: answer, recoveryCodes: backupCodes };
}

/** New recovery codes (the password again); the old ones stop working. */
export async function regenerateRecoveryCodes(
  ctx: TwoFactorContext,
  userId: string,
  input: unknown,
  headers: Headers,
): Promise<string[]> {
  const { password } = parsed(twoFactorPasswordSchema, input);
  await requirePassword(ctx, userId, password);
  const row = await rowOf(ctx, userId);
  if (!row?.enabled || !row.verified) throw conflict("Turn on two-factor sign-in first.");
  const { backupCodes } = await ctx.auth.api.generateBackupCodes({ headers, body: { password } });
  return backupCodes;
}

/**
 * Turning it off: the password and a code (the app's or a recovery code). Not for staff while their role requires
 * it (decision 040). The session stays; the key and the codes are deleted.
 */
export async function turnOff(
  ctx: TwoFactorContext,
  userId: string,
  role: StaffRole | null,
  input: unknown,
): Promise<void> {
  if (!mayTurnOffTwoFactor(role, ctx.policy)) throw new AppError(403, M.requiredCannotTurnOff);
  const { password, code } = parsed(twoFactorOffSchema, input);
  await requirePassword(ctx, userId, password);
  if (!(await checkCode(ctx, userId, code))) throw fieldError(400, "code", M.wrongCode);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.update(user).set({ twoFactorEnabled: false, updatedAt: ctx.now() }).where(eq(user.id, userId));
    await forgetTrustedDevicesTx(tx, userId);
  });
}
