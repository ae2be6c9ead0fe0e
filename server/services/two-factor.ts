import { eq } from "drizzle-orm";
import type { Person } from "#domain/privacy.ts";
import { twoFactor } from "#server/db/schema.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Tx } from "./jobs";
import { checkCode, hasSignInChallenge, passwordMatches, verifySignIn } from "./two-factor/codes";
import {
  confirmEnrolment,
  regenerateRecoveryCodes,
  rulesFor,
  startEnrolment,
  state,
  turnOff,
} from "./two-factor/enrolment";
import type { TwoFactorContext, TwoFactorDeps } from "./two-factor/model";
import { enabledForStaff, resetForStaff } from "./two-factor/staff";

export {
  SIGN_IN_LOCKOUT,
  TOTP_ISSUER,
  TWO_FACTOR_LIMITS,
  type Enrolment,
  type TwoFactorDeps,
  type TwoFactorState,
} from "./two-factor/model";

/**
 * Two-factor sign-in (issue 25, part 2; decision 040): an authenticator app's codes and ten recovery codes, through
 * better-auth's two-factor plugin. The plugin keeps the key and the codes (table two_factor, encrypted with the auth
 * secret) and answers enrolment and sign-in; this service adds what it leaves to us: the limits, the messages people
 * read, the staff requirement's exceptions (an Admin cannot turn it off), checking a code for a signed-in person
 * (`checkCode`, for deleting an account), and an admin's reset of someone else's. The codes and sign-in are in
 * two-factor/codes.ts, a person's own enrolment in two-factor/enrolment.ts, the admin's reset in two-factor/staff.ts,
 * each a function over the same context that this factory only wires (decision 085).
 */
export function createTwoFactorService(deps: TwoFactorDeps) {
  const ctx: TwoFactorContext = { ...deps, now: deps.now ?? (() => new Date()) };
  return {
    checkCode: withDeps(ctx, checkCode),
    passwordMatches: withDeps(ctx, passwordMatches),
    rulesFor: withDeps(ctx, rulesFor),
    hasSignInChallenge,
    state: withDeps(ctx, state),
    startEnrolment: withDeps(ctx, startEnrolment),
    confirmEnrolment: withDeps(ctx, confirmEnrolment),
    regenerateRecoveryCodes: withDeps(ctx, regenerateRecoveryCodes),
    turnOff: withDeps(ctx, turnOff),
    verifySignIn: withDeps(ctx, verifySignIn),
    enabledForStaff: withDeps(ctx, enabledForStaff),
    resetForStaff: withDeps(ctx, resetForStaff),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

/** Forgets a person's second factor (decision 086): their authenticator key and recovery codes. */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  await tx.delete(twoFactor).where(eq(twoFactor.userId, person.userId));
}
