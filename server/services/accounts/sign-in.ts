import { randomBytes } from "node:crypto";
import { isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import {
  credentialsSchema,
  MESSAGES,
  newPasswordSchema,
  registrationSchema,
  resetRequestSchema,
} from "#domain/account-forms.ts";
import { STAFF_RESET, STAFF_WELCOME } from "#domain/staff-words.ts";
import { parseWith } from "#domain/validation.ts";
import { ConfigError } from "#server/config.ts";
import * as schema from "#server/db/schema.ts";
import { AppError, badRequest, tooMany } from "#server/lib/errors.ts";
import { REFUSAL_CODES } from "../auth-hooks";
import { passwordProblem } from "../passwords";
import type { RateLimitRule } from "../rate-limit";
import { TWO_FACTOR_LIMITS } from "../two-factor";

import {
  AUTH_BODY,
  AUTH_LIMITS,
  AccountsCtx,
  AttemptContext,
  TOO_MANY,
  Viewer,
  linkMailed,
  signInDelayMs,
} from "./model";
import { landingFor } from "./queries";

const pairKey = (ip: string, email: string) => `${ip}|${email.toLowerCase()}`;

export async function limit(deps: AccountsCtx, rule: RateLimitRule, key: string, message: string) {
  const { limiter } = deps;
  const { allowed } = await limiter.hit(rule, key.toLowerCase());
  if (!allowed) throw tooMany(message);
}

/** The password rule's or the consent's refusal (auth-hooks.ts), as the field error a form shows. */
export function refusal(_deps: AccountsCtx, error: unknown): AppError | undefined {
  if (!isAPIError(error)) return undefined;
  const code = String(error.body?.code);
  const field =
    code === REFUSAL_CODES.passwordRefused ? "password" : code === REFUSAL_CODES.consentRequired ? "acceptTerms" : "";
  if (!field) return undefined;
  const message = String(error.body?.message);
  return new AppError(400, message, [{ field, message }]);
}

/** Before a sign-in attempt: the address's limit, the pair's failures (refused), the account's (slowed down). */
export async function beforeSignIn(deps: AccountsCtx, ip: string, email: string) {
  const { limiter } = deps;
  await limit(deps, AUTH_LIMITS.signInIp, ip, TOO_MANY.signIn);
  if (!email) return;
  const pair = await limiter.count(AUTH_LIMITS.signInPairFailures, pairKey(ip, email));
  if (pair.count >= AUTH_LIMITS.signInPairFailures.limit) throw tooMany(TOO_MANY.signIn);
  const account = await limiter.count(AUTH_LIMITS.signInAccountFailures, email.toLowerCase());
  const wait = signInDelayMs(account.count);
  if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** After it: a failure counts against the pair and the account; a success clears the pair. */
export async function afterSignIn(deps: AccountsCtx, ip: string, email: string, succeeded: boolean) {
  const { limiter } = deps;
  if (!email) return;
  if (succeeded) {
    await limiter.reset(AUTH_LIMITS.signInPairFailures, pairKey(ip, email));
    return;
  }
  await limiter.add(AUTH_LIMITS.signInPairFailures, pairKey(ip, email));
  await limiter.add(AUTH_LIMITS.signInAccountFailures, email.toLowerCase());
}

export function credentials(_deps: AccountsCtx, input: unknown) {
  const parsed = parseWith(credentialsSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  return parsed.data;
}

/**
 * Signs in with the password; any failure is the one message the spec names. With two-factor sign-in on, no session
 * yet: `secondFactor` is true and the headers carry better-auth's short-lived two_factor cookie for the code's page
 * (/login/two-factor). `landing`: where a sign-in without a chosen destination goes (staff: their back office).
 */
export async function beginSignIn(
  deps: AccountsCtx,
  input: unknown,
  ctx: AttemptContext,
): Promise<{ headers: Headers; secondFactor: boolean; landing: string }> {
  const { auth } = deps;
  const { email, password } = credentials(deps, input);
  await beforeSignIn(deps, ctx.ip, email);
  try {
    const { headers, response } = await auth.api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: ctx.headers,
      returnHeaders: true,
    });
    await afterSignIn(deps, ctx.ip, email, true);
    const secondFactor = "twoFactorRedirect" in response && response.twoFactorRedirect === true;
    return { headers, secondFactor, landing: secondFactor ? "/login/two-factor" : await landingFor(deps, email) };
  } catch (error) {
    if (isAPIError(error)) {
      await afterSignIn(deps, ctx.ip, email, false);
      throw new AppError(401, MESSAGES.loginFailed);
    }
    throw error;
  }
}

/** A new password from a reset (or invitation) link's token. */
export async function resetPassword(deps: AccountsCtx, input: unknown): Promise<void> {
  const { auth } = deps;
  const parsed = parseWith(newPasswordSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  try {
    await auth.api.resetPassword({ body: { newPassword: parsed.data.password, token: parsed.data.token } });
  } catch (error) {
    const refused = refusal(deps, error);
    if (refused) throw refused;
    if (isAPIError(error)) {
      throw new AppError(400, "This reset link has expired or was already used. Ask for a new one.", [
        { field: "token", message: "This reset link has expired or was already used. Ask for a new one." },
      ]);
    }
    throw error;
  }
}

/** Rate limits of a sign-in, sign-up or reset request reaching better-auth's own REST handler. */
export async function limitAuthEndpoint(deps: AccountsCtx, path: string, body: unknown, ip: string) {
  if (body !== undefined && !AUTH_BODY.safeParse(body).success) {
    throw new AppError(400, "Send a JSON object whose name (and image) is text.");
  }
  const email = typeof (body as { email?: unknown })?.email === "string" ? (body as { email: string }).email : "";
  if (path === "/sign-in/email") {
    await beforeSignIn(deps, ip, email);
  } else if (path === "/sign-up/email") {
    await limit(deps, AUTH_LIMITS.signUpIp, ip, TOO_MANY.signUp);
  } else if (path === "/request-password-reset") {
    await limit(deps, AUTH_LIMITS.resetIp, ip, TOO_MANY.reset);
    if (email) await limit(deps, AUTH_LIMITS.resetEmail, email, TOO_MANY.reset);
  } else if (path === "/send-verification-email") {
    if (email) await limit(deps, AUTH_LIMITS.verifyEmail, email, TOO_MANY.verify);
  } else if (path.startsWith("/two-factor/")) {
    // Decision 040: codes are limited per address as on the sign-in page; turning it off asks for a code and
    // follows the staff rule, so only the account's page does it; no device is trusted to skip the code.
    if (path === "/two-factor/disable") {
      throw new AppError(403, "Turn off two-factor sign-in on your account's security page.");
    }
    if ((body as { trustDevice?: unknown } | undefined)?.trustDevice) {
      throw new AppError(400, "Trusting a device is not offered: each sign-in asks for a code.");
    }
    if (path.startsWith("/two-factor/verify")) await limit(deps, TWO_FACTOR_LIMITS.signInIp, ip, TOO_MANY.signIn);
  }
}

/** What better-auth answered to a sign-in through its own REST call (the throttling's bookkeeping). */
export async function afterAuthEndpoint(deps: AccountsCtx, path: string, body: unknown, ip: string, status: number) {
  if (path !== "/sign-in/email") return;
  const email = typeof (body as { email?: unknown })?.email === "string" ? (body as { email: string }).email : "";
  if (status === 200) await afterSignIn(deps, ip, email, true);
  else if (status === 401 || status === 403) await afterSignIn(deps, ip, email, false);
}

/** Registers and signs in; answers the Set-Cookie headers to send. */
export async function signUp(deps: AccountsCtx, input: unknown, ctx: AttemptContext): Promise<Headers> {
  const { auth } = deps;
  const parsed = parseWith(registrationSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { email, password, acceptTerms } = parsed.data;
  await limit(deps, AUTH_LIMITS.signUpIp, ctx.ip, TOO_MANY.signUp);
  // acceptTerms is ours, read by the sign-up hook (auth-hooks.ts); better-auth keeps only the fields it knows.
  const body = { email, password, name: "", callbackURL: "/dashboard", acceptTerms };
  try {
    const { headers } = await auth.api.signUpEmail({
      body,
      headers: ctx.headers,
      returnHeaders: true,
    });
    return headers;
  } catch (error) {
    if (isAPIError(error) && /ALREADY_EXISTS/.test(String(error.body?.code))) {
      throw new AppError(409, "An account with this email already exists. Please log in instead.", [
        { field: "email", message: "An account with this email already exists. Please log in instead." },
      ]);
    }
    throw refusal(deps, error) ?? error;
  }
}

/** Signs in (a password alone: the tests' and the API's customers); `beginSignIn` is the page's, with its steps. */
export async function signIn(deps: AccountsCtx, input: unknown, ctx: AttemptContext): Promise<Headers> {
  return (await beginSignIn(deps, input, ctx)).headers;
}

export async function signOut(deps: AccountsCtx, headers: Headers): Promise<Headers> {
  const { auth } = deps;
  try {
    const result = await auth.api.signOut({ headers, returnHeaders: true });
    return result.headers;
  } catch {
    return new Headers(); // no session: nothing to end
  }
}

/** Sends a reset link when the address has an account; answers the same either way. */
export async function requestPasswordReset(deps: AccountsCtx, input: unknown, ctx: AttemptContext): Promise<void> {
  const { auth, logger } = deps;
  const parsed = parseWith(resetRequestSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  await limit(deps, AUTH_LIMITS.resetIp, ctx.ip, TOO_MANY.reset);
  await limit(deps, AUTH_LIMITS.resetEmail, parsed.data.email, TOO_MANY.reset);
  try {
    await auth.api.requestPasswordReset({
      body: { email: parsed.data.email, redirectTo: "/reset-password" },
      headers: ctx.headers,
    });
  } catch (error) {
    logger.error({ error }, "Error sending password reset email");
  }
}

/**
 * A staff member's first password, from their invitation (newPasswordSchema: the token and the password, which the
 * staff rule of 12 characters checks), then signed in at once: their back office, or the code's page when their
 * account has two-factor sign-in on.
 */
export async function acceptInvitation(
  deps: AccountsCtx,
  input: unknown,
  ctx: AttemptContext,
  options: { reset?: boolean } = {},
): Promise<{ headers: Headers; secondFactor: boolean; landing: string }> {
  const { db } = deps;
  const parsed = parseWith(newPasswordSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const [invited] = await db
    .select({ email: schema.user.email })
    .from(schema.verification)
    .innerJoin(schema.user, eq(schema.user.id, schema.verification.value))
    .where(eq(schema.verification.identifier, `reset-password:${parsed.data.token}`));
  // A staff member's forgotten password (the reset mail's link for a staff address) is refused in its own words.
  const expired = options.reset ? STAFF_RESET.expired : STAFF_WELCOME.expired;
  const spent = new AppError(400, expired, [{ field: "token", message: expired }]);
  if (!invited) throw spent;
  try {
    await resetPassword(deps, parsed.data);
  } catch (error) {
    // The link's refusal in the staff's words; the password's own refusals (too short for staff) as they are.
    if (error instanceof AppError && error.errors.some((e) => e.field === "token")) throw spent;
    throw error;
  }
  return beginSignIn(deps, { email: invited.email, password: parsed.data.password }, ctx);
}

/** Mails the email-confirmation link again: false when none was mailed (the same link went a moment ago). */
export async function resendVerification(deps: AccountsCtx, viewer: Viewer, ctx: AttemptContext): Promise<boolean> {
  const { auth } = deps;
  await limit(deps, AUTH_LIMITS.verifyEmail, viewer.email, TOO_MANY.verify);
  const asked = { queued: false };
  await linkMailed.run(asked, () =>
    auth.api.sendVerificationEmail({
      body: { email: viewer.email, callbackURL: "/dashboard" },
      headers: ctx.headers,
    }),
  );
  return asked.queued;
}

/**
 * A fresh install's first administrator: from ADMIN_EMAIL/ADMIN_PASSWORD, or admin@example.com with a random
 * password printed once. Created verified (the operator named it), so its admin rights work at once.
 */
export async function ensureFirstAdmin(deps: AccountsCtx): Promise<void> {
  const { auth, db, adminUsers, config, logger } = deps;
  if ((await adminUsers.count()) > 0) return;
  const email = (config.adminEmail ?? "admin@example.com").toLowerCase();
  const generated = !config.adminPassword;
  const password = config.adminPassword ?? randomBytes(12).toString("base64url");
  const [existing] = await db.select({ id: schema.user.id }).from(schema.user).where(eq(schema.user.email, email));
  // A chosen password meets the staff rule, as any staff member's does (decision 037).
  const problem = existing || generated ? null : await passwordProblem(password, { staff: true });
  if (problem) throw new ConfigError(`Invalid configuration:\n  ADMIN_PASSWORD: ${problem}`);
  if (existing) {
    await db.update(schema.user).set({ emailVerified: true }).where(eq(schema.user.id, existing.id));
  } else {
    const ctx = await auth.$context;
    const created = await ctx.internalAdapter.createUser(
      { email, name: "Administrator", emailVerified: true },
      { method: "admin" },
    );
    await ctx.internalAdapter.linkAccount({
      userId: created.id,
      providerId: "credential",
      accountId: created.id,
      password: await ctx.password.hash(password),
    });
  }
  await adminUsers.add(email);
  if (existing) {
    logger.info({ email }, "the existing account is now the first administrator");
  } else if (generated) {
    // Printed once, on the first start only; set ADMIN_EMAIL and ADMIN_PASSWORD to choose them instead.
    process.stdout.write(
      `\n  First administrator created.\n    Email:    ${email}\n    Password: ${password}\n  Sign in at ${config.publicUrl}/login and keep this password somewhere safe.\n\n`,
    );
  } else {
    logger.info({ email }, "first administrator created from ADMIN_EMAIL");
  }
}
