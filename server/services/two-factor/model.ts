import type { StaffTwoFactorPolicy } from "#domain/two-factor.ts";
import type { Db } from "#server/db/client.ts";
import type { Auth } from "../accounts";
import type { RateLimiter, RateLimitRule } from "../rate-limit";

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
export const TRUST_DEVICE_PREFIX = "trust-device-";

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

/** What the two-factor service is made of (its factory's argument). */
export interface TwoFactorDeps {
  auth: Auth;
  db: Db;
  limiter: RateLimiter;
  policy: StaffTwoFactorPolicy;
  now?: () => Date;
}

/** The deps as the service's functions use them: the clock given or the real one. */
export type TwoFactorContext = Omit<TwoFactorDeps, "now"> & { now: () => Date };

export { fieldError, parsedOr400 as parsed } from "#server/lib/errors.ts";
