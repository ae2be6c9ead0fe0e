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

/**
 * The person an erasure forgets (decision 086), decided once here and handed to every store's forgetter: their
 * account's id, every address they used (the account's, then the older ones their orders carry), lower-cased, and
 * every name they went by (the account's, then their orders'), trimmed. Names under 3 letters are left out: too short
 * to be told from other words in a text. No IP addresses: the only store keyed by the person that holds them (their
 * sessions) goes whole, and counters keyed by a network address are that network's, not theirs.
 */
export interface Person {
  readonly userId: string;
  readonly emails: readonly string[];
  readonly names: readonly string[];
}

/**
 * The Person of an account and the details on their orders: each address and name once, the account's first. An
 * older address that is now another account's (`othersAddresses`, lower-cased) is that person's, and left out.
 */
export function personOf(
  account: { id: string; email: string; name: string },
  onOrders: readonly { email: string; name: string }[] = [],
  othersAddresses: ReadonlySet<string> = new Set(),
): Person {
  const unique = (values: string[]) => [...new Set(values)];
  const current = account.email.trim().toLowerCase();
  const emails = unique([current, ...onOrders.map((o) => o.email.trim().toLowerCase())]).filter(
    (e) => e.length > 0 && !isErasedAddress(e) && (e === current || !othersAddresses.has(e)),
  );
  const names = unique([account.name, ...onOrders.map((o) => o.name)].map((n) => n.trim())).filter(
    (n) => n.length >= 3 && n !== ERASED_NAME,
  );
  return { userId: account.id, emails, names };
}

/**
 * A text with every address and name of the person (any case) replaced by ERASED_NAME; the longest first, so that a
 * full name goes whole before a shorter one inside it.
 */
export function withoutAnyOf(text: string, person: Pick<Person, "emails" | "names">): string {
  const parts = [...person.emails, ...person.names].filter((p) => p.length >= 3).sort((a, b) => b.length - a.length);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return parts.reduce((out, part) => out.replace(new RegExp(escape(part), "gi"), ERASED_NAME), text);
}

/** Staff are taken off the staff before an admin erases them from the back office. */
export const STAFF_NOT_ERASED =
  "This person is on the staff. Remove them on the users screen first, then erase their data here.";
/** What the last Admin is told when they try to delete their own account. */
export const LAST_ADMIN_DELETE =
  "You are the last Admin: make someone else an Admin on the users screen before you delete your account.";
