import { z } from "zod";
import { PASSWORD_MAX } from "./account-forms";

/**
 * The rights of access and erasure (UK GDPR articles 15 and 17; decision 045): the names an erased person's records
 * take, and the rules a deletion form follows. The service that applies them is server/services/privacy.ts.
 */

/** What an erased person's orders and log entries say instead of their name. */
export const ERASED_NAME = "Erased customer";

/**
 * The reserved top-level domain an erased person's address is put in: `.invalid` never resolves (RFC 2606, RFC 6761),
 * so nothing is ever delivered there, and no one can register an address in it.
 */
export const ERASED_DOMAIN = "erased.invalid";

/** The address an erased account and its orders keep: unique per account (the user table's email is unique). */
export const erasedEmail = (userId: string) => `${userId.replace(/[^A-Za-z0-9_-]/g, "")}@${ERASED_DOMAIN}`;

/** Whether an address is an erased person's (no mail is ever queued to one). */
export const isErasedAddress = (email: string) => email.trim().toLowerCase().endsWith(`@${ERASED_DOMAIN}`);

/**
 * The fields of a PayPal notification kept once its payer is erased: what the payment was (amount, currency, status,
 * date, transaction, the item and order it paid for, the receiving account) and what proves it came from PayPal. The
 * payer's name, address, email, phone and PayPal id go; a field PayPal adds later goes too unless listed here.
 */
export const IPN_FIELDS_KEPT = [
  "txn_id",
  "parent_txn_id",
  "txn_type",
  "payment_status",
  "pending_reason",
  "reason_code",
  "payment_type",
  "payment_date",
  "mc_gross",
  "mc_fee",
  "mc_currency",
  "tax",
  "shipping",
  "handling",
  "quantity",
  "item_name",
  "item_number",
  "custom",
  "invoice",
  "receiver_email",
  "receiver_id",
  "business",
  "residence_country",
  "protection_eligibility",
  "notify_version",
  "charset",
  "test_ipn",
  "ipn_track_id",
  "verify_sign",
] as const;

/** A stored notification (form-encoded, as PayPal posted it) with only the kept fields, in their order. */
export function withoutPayer(raw: string): string {
  const kept = new Set<string>(IPN_FIELDS_KEPT);
  const out = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(raw)) if (kept.has(key)) out.append(key, value);
  return out.toString();
}

/** A text with a person's email and full name (any case) replaced by ERASED_NAME; a name under 3 letters is left. */
export function withoutPerson(text: string, person: { name: string; email: string }): string {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let out = text;
  for (const part of [person.email.trim(), person.name.trim()])
    if (part.length >= 3) out = out.replace(new RegExp(escape(part), "gi"), ERASED_NAME);
  return out;
}

/** The deletion form's messages. */
export const DELETE_MESSAGES = {
  passwordRequired: "Enter your current password to confirm.",
  passwordWrong: "This is not your current password. Try again, or reset it from the login page first.",
  codeRequired: "Enter the 6-digit code from your authenticator app, or one of your recovery codes.",
  codeWrong: "This code is not right (or was used already). Try the current code, or a recovery code.",
  tooMany: "Too many attempts. Please wait a few minutes and try again.",
} as const;

/**
 * "Delete my account": the current password, and the second factor's code when the person has one on (a TOTP code or
 * a recovery code; the service says whether it is needed).
 */
export const deleteAccountSchema = z.object({
  password: z
    .string({ error: DELETE_MESSAGES.passwordRequired })
    .min(1, { error: DELETE_MESSAGES.passwordRequired })
    .max(PASSWORD_MAX, { error: DELETE_MESSAGES.passwordWrong }),
  code: z
    .string({ error: DELETE_MESSAGES.codeRequired })
    .trim()
    .max(64, { error: DELETE_MESSAGES.codeWrong })
    .optional()
    .transform((v) => v || undefined),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

/** A better-auth user id as it may appear in an address (its ids are 32 letters and digits; ours, UUIDs). */
export const isUserId = (id: string) => /^[A-Za-z0-9_-]{1,64}$/.test(id);

/** The erasure's name in the activity log (no personal data: the record is the account's id). */
export const ERASURE_ENTITY = "customer";
