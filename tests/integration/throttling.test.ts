import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_LIMITS, signInDelayMs } from "#server/services/accounts.ts";
import { attemptSignIn } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";

/**
 * Issue 12, D10: sign-in throttling slows a guessing attacker without locking the owner out. Failures count per
 * address-and-account pair (refused past the limit, cleared by a success) and per account from anywhere (slowed,
 * never refused).
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: "1" });
  for (const email of ["victim@example.org", "steady@example.org", "spread@example.org"]) {
    await app.services.accounts.signUp(
      { email, password: "right-pass-1", acceptTerms: true },
      { ip: "203.0.113.1", headers: new Headers() },
    );
  }
});
afterAll(() => app?.close());

const attempt = async (email: string, password: string, from: string) =>
  (await attemptSignIn(app, email, password, { headers: { "x-forwarded-for": from } })).res;

describe("sign-in throttling", { timeout: 90_000 }, () => {
  it("ten wrong passwords from one address stop that address, not the owner's right password elsewhere", async () => {
    const attacker = "198.51.100.66";
    for (let i = 0; i < AUTH_LIMITS.signInPairFailures.limit; i++) {
      expect((await attempt("victim@example.org", "guess-" + i, attacker)).status).toBe(401);
    }
    expect((await attempt("victim@example.org", "right-pass-1", attacker)).status).toBe(429);
    expect((await attempt("victim@example.org", "right-pass-1", "203.0.113.50")).status).toBe(200);
    // The page's sign-in (the service) follows the same rules.
    await expect(
      app.services.accounts.signIn(
        { email: "victim@example.org", password: "right-pass-1" },
        { ip: "203.0.113.51", headers: new Headers() },
      ),
    ).resolves.toBeInstanceOf(Headers);
  });

  it("a success clears the address's failures: an owner who mistypes now and then is never stopped", async () => {
    const home = "203.0.113.77";
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < AUTH_LIMITS.signInPairFailures.limit - 1; i++) {
        expect((await attempt("steady@example.org", "typo", home)).status).toBe(401);
      }
      expect((await attempt("steady@example.org", "right-pass-1", home)).status).toBe(200);
    }
  });

  it("many addresses guessing one account are slowed down, and the owner still signs in", async () => {
    const failures = AUTH_LIMITS.signInAccountFailures.limit + 4;
    for (let i = 0; i < failures; i++) {
      expect((await attempt("spread@example.org", "guess", `192.0.2.${i + 1}`)).status).toBe(401);
    }
    const started = Date.now();
    expect((await attempt("spread@example.org", "right-pass-1", "203.0.113.99")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(signInDelayMs(failures) - 50);
  });

  it("the delay grows with the account's failures and is capped", () => {
    const limit = AUTH_LIMITS.signInAccountFailures.limit;
    expect(signInDelayMs(0)).toBe(0);
    expect(signInDelayMs(limit)).toBe(0);
    expect(signInDelayMs(limit + 1)).toBe(250);
    expect(signInDelayMs(limit + 4)).toBe(1000);
    expect(signInDelayMs(limit + 1000)).toBe(5000);
  });
});
