import { withDeps } from "../lib/with-deps";
import { accountsContext, type AccountsDeps } from "./accounts/model";
import { viewer, landingFor, invitationOf, userByEmail } from "./accounts/queries";
import {
  limitAuthEndpoint,
  afterAuthEndpoint,
  signUp,
  signIn,
  beginSignIn,
  signOut,
  requestPasswordReset,
  resetPassword,
  acceptInvitation,
  resendVerification,
  ensureFirstAdmin,
} from "./accounts/sign-in";

export { createAuth, type Auth } from "./accounts/auth";
export { AUTH_LIMITS, signInDelayMs, type AccountsDeps, type AttemptContext, type Viewer } from "./accounts/model";

/**
 * Accounts: registration, sign-in, sign-out, password reset and who is asking. Pages and the REST API both call these;
 * rate limits and the messages people see are decided here. Who is asking is read in accounts/queries.ts, everything
 * that signs in or changes an account in accounts/sign-in.ts, better-auth's own setup in accounts/auth.ts: each a
 * function over the same context (accounts/model.ts `accountsContext`) that this factory only wires (decision 085).
 */
export function createAccountsService(deps: AccountsDeps) {
  const ctx = accountsContext(deps);
  return {
    auth: ctx.auth,
    pageRoles: ctx.pageRoles,
    viewer: withDeps(ctx, viewer),
    limitAuthEndpoint: withDeps(ctx, limitAuthEndpoint),
    afterAuthEndpoint: withDeps(ctx, afterAuthEndpoint),
    signUp: withDeps(ctx, signUp),
    signIn: withDeps(ctx, signIn),
    beginSignIn: withDeps(ctx, beginSignIn),
    landingFor: withDeps(ctx, landingFor),
    signOut: withDeps(ctx, signOut),
    requestPasswordReset: withDeps(ctx, requestPasswordReset),
    resetPassword: withDeps(ctx, resetPassword),
    invitationOf: withDeps(ctx, invitationOf),
    acceptInvitation: withDeps(ctx, acceptInvitation),
    resendVerification: withDeps(ctx, resendVerification),
    ensureFirstAdmin: withDeps(ctx, ensureFirstAdmin),
    userByEmail: withDeps(ctx, userByEmail),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
