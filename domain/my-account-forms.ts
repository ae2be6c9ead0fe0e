import { z } from "zod";
import { MESSAGES, PASSWORD_MAX, PASSWORD_MIN } from "./account-forms";
import { emailAddress } from "./fields";

/** The texts of the "My account" pages' answers (checked in the browser and again on the server). */
export const MY_ACCOUNT_MESSAGES = {
  nameSaved: "Your name is saved.",
  nameTooLong: "At most 100 characters",
  emailSent: (email: string) =>
    `We sent a link to ${email}. Your email changes when you follow it (within 24 hours); until then, sign in with your current one.`,
  emailSame: "This is already your email address.",
  emailTaken: "Another account uses this address. Sign in to that account instead, or choose another address.",
  tooManyEmail: "Too many email changes. Please wait an hour and try again.",
  currentRequired: "Enter your current password",
  currentWrong: "This is not your current password.",
  tooManyPassword: "Too many attempts. Please wait an hour and try again, or sign out and reset your password.",
  passwordChanged: "Your password is changed. Every other device that was signed in has been signed out.",
  sessionEnded: "That device is signed out.",
  sessionGone: "That session had already ended.",
  othersEnded: (n: number) =>
    n === 0
      ? "No other device was signed in."
      : n === 1
        ? "1 other device is signed out."
        : `${n} other devices are signed out.`,
} as const;

/** Profile: the name shown in the dashboard's greeting and on orders' forms (may be empty: the email shows then). */
export const profileSchema = z.object({
  name: z
    .string()
    .trim()
    .max(100, { error: MY_ACCOUNT_MESSAGES.nameTooLong })
    .optional()
    .transform((v) => v ?? ""),
});

/** The address to change to; the current one is the session's. */
export const emailChangeSchema = z.object({
  newEmail: emailAddress("New email", {
    required: "Enter the new email address",
    invalid: MESSAGES.emailInvalid,
  }).transform((v) => v.toLowerCase()),
});

/** The current password proves it is the account's owner; the new one passes the password rule on the server. */
export const passwordChangeSchema = z.object({
  currentPassword: z
    .string({ error: MY_ACCOUNT_MESSAGES.currentRequired })
    .min(1, { error: MY_ACCOUNT_MESSAGES.currentRequired })
    .max(PASSWORD_MAX, { error: MY_ACCOUNT_MESSAGES.currentWrong }),
  newPassword: z
    .string({ error: MESSAGES.passwordRequired })
    .min(1, { error: MESSAGES.passwordRequired })
    .min(PASSWORD_MIN, { error: MESSAGES.passwordShort })
    .max(PASSWORD_MAX, { error: `At most ${PASSWORD_MAX} characters` }),
});

/** One session to end, by its id (never its token: a page never holds another session's token). */
export const sessionIdSchema = z.object({
  sessionId: z.string({ error: "Choose a session" }).trim().min(1, { error: "Choose a session" }).max(200),
});
