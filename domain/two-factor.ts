import { z } from "zod";
import type { StaffRole } from "./capabilities";

/**
 * Two-factor sign-in (issue 25, decision 040): who must have it, and the forms that ask for a code. Every staff role
 * must (an Editor changes the public site and reads the contact messages); ADMIN_2FA=optional lifts the requirement.
 */
export type StaffTwoFactorPolicy = "required" | "optional";

/** The roles that must sign in with a second factor while the policy is "required". */
export const TWO_FACTOR_ROLES: readonly StaffRole[] = ["Admin", "Editor"];

/** Whether this person must turn on two-factor sign-in before the back office opens to them. */
export function twoFactorDue(
  role: StaffRole | null | undefined,
  enabled: boolean,
  policy: StaffTwoFactorPolicy,
): boolean {
  return policy === "required" && !!role && TWO_FACTOR_ROLES.includes(role) && !enabled;
}

/** Whether this person may turn two-factor sign-in off themselves (not while their role requires it). */
export function mayTurnOffTwoFactor(role: StaffRole | null | undefined, policy: StaffTwoFactorPolicy): boolean {
  return !(policy === "required" && !!role && TWO_FACTOR_ROLES.includes(role));
}

export const TWO_FACTOR_MESSAGES = {
  required: "Turn on two-factor sign-in on your account's security page (/account/security) to use the back office.",
  wrongCode: "That code is not right. Check the time on your phone and try the newest code.",
  wrongRecoveryCode: "That recovery code is not right, or it was already used.",
  wrongPassword: "Your password is not right.",
  expired: "Your sign-in took too long. Please log in again.",
  tooMany: "Too many codes tried. Please wait a few minutes and try again.",
  requiredCannotTurnOff: "Staff must keep two-factor sign-in on.",
};

/** What people type as a code: spaces and dashes are ignored (apps show "123 456"). */
export function normaliseCode(raw: string): string {
  return raw.replace(/[\s-]/g, "");
}

/** A 6-digit code from an authenticator app. */
export const totpCodeField = z
  .string({ error: "Enter the 6-digit code from your authenticator app." })
  .transform(normaliseCode)
  .pipe(z.string().regex(/^\d{6}$/, { error: "Enter the 6-digit code from your authenticator app." }));

/** A recovery code as it was shown (xxxxx-xxxxx); typed with or without the dash, any case kept. */
export const recoveryCodeField = z
  .string({ error: "Enter one of your recovery codes." })
  .transform((v) => v.trim())
  .pipe(z.string().regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, { error: "Enter one of your recovery codes." }))
  .transform((v) => (v.includes("-") ? v : `${v.slice(0, 5)}-${v.slice(5)}`));

/** A code that is either: six digits (the app) or a recovery code. */
export const anyCodeField = z
  .string({ error: "Enter the code from your authenticator app, or a recovery code." })
  .transform((v) => v.trim())
  .pipe(
    z.string().refine((v) => /^\d{6}$/.test(normaliseCode(v)) || /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(v), {
      error: "Enter the code from your authenticator app, or a recovery code.",
    }),
  );

/** The key of an otpauth:// address, grouped in fours for typing into an app by hand. */
export function manualKeyOf(totpUri: string): string {
  const secret = new URL(totpUri).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/** The recovery codes as a text file a person keeps. */
export function recoveryCodesText(siteName: string, email: string, codes: readonly string[]): string {
  return [
    `${siteName}: recovery codes for ${email}`,
    "Each code signs you in once if you cannot use your authenticator app. Keep them somewhere safe.",
    "",
    ...codes,
    "",
  ].join("\n");
}

const passwordField = z.string({ error: "Enter your password." }).min(1, { error: "Enter your password." }).max(200);

/** Turning it on (step 1) and new recovery codes: the password. */
export const twoFactorPasswordSchema = z.object({ password: passwordField });
/** Turning it on (step 2): the app's first code. */
export const twoFactorConfirmSchema = z.object({ code: totpCodeField });
/** Turning it off: the password and a code (the app's or a recovery code). */
export const twoFactorOffSchema = z.object({ password: passwordField, code: anyCodeField });
/** Sign-in's second step: the app's code, or a recovery code instead. */
export const secondFactorSchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("totp"), code: totpCodeField }),
  z.object({ method: z.literal("recovery"), code: recoveryCodeField }),
]);
