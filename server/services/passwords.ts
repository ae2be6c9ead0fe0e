import { MESSAGES, STAFF_PASSWORD_MIN } from "#domain/account-forms.ts";

/**
 * The one password rule beyond the spec's six characters (issue 25; decision 037): never one of the most common
 * passwords, and for staff at least 12 characters. The list is zxcvbn-ts's own (about 49,000 leaked passwords, shipped
 * in @zxcvbn-ts/language-common): read once, on the first check, on the server only; no network call.
 */
let common: Promise<ReadonlySet<string>> | undefined;

function commonPasswords(): Promise<ReadonlySet<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"]),
    (error: unknown) => {
      common = undefined; // let the next check try again
      throw error;
    },
  );
  return common;
}

/** Whether a password is on the list of common ones (as the list is kept: lower case). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/** What is wrong with a new password, as a sentence that says what to do, or null when it may be used. */
export async function passwordProblem(password: string, { staff }: { staff: boolean }): Promise<string | null> {
  if (staff && [...password].length < STAFF_PASSWORD_MIN) return MESSAGES.staffPasswordShort;
  if (await isCommonPassword(password)) return MESSAGES.passwordCommon;
  return null;
}
