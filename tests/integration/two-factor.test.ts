import { createOTP } from "@better-auth/utils/otp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TWO_FACTOR_MESSAGES } from "../../domain/two-factor";
import { CUSTOMER_PASSWORD, signIn, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Two-factor sign-in (issue 25, part 2; decision 038) against the real database, with the staff requirement on
 * (ADMIN_2FA=required): enrolment, the second step of sign-in, recovery codes, the back office's door, and an Admin's
 * reset of someone else's.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    ADMIN_2FA: "required",
    ADMIN_EMAIL: "owner@example.org",
    ADMIN_PASSWORD: "owner-pass-12",
  });
});
afterAll(() => app?.close());

const ip = (n: number) => `203.0.113.${n}`;
const headersOf = (jar: CookieJar) => new Headers({ cookie: jar.header() });
const keyOf = (uri: string) => new URL(uri).searchParams.get("secret")!;
/** The code an authenticator app shows now for a key, and the one it showed 30 seconds ago (also accepted). */
async function codeFor(uri: string, stepsBack = 0) {
  const { base32 } = await import("@better-auth/utils/base32");
  const otp = createOTP(base32.decode(keyOf(uri)));
  return stepsBack ? otp.hotp(Math.floor(Date.now() / 30_000) - stepsBack) : otp.totp();
}

/** Signs up `email`, turns two-factor sign-in on through the service, and answers its key and recovery codes. */
async function enrolled(email: string, jar?: CookieJar) {
  const session = jar ?? (await signUp(app, email));
  const user = await app.services.accounts.userByEmail(email);
  const { totpUri } = await app.services.twoFactor.startEnrolment(
    user!.id,
    { password: CUSTOMER_PASSWORD },
    headersOf(session),
  );
  const confirmed = await app.services.twoFactor.confirmEnrolment(
    user!.id,
    { code: await codeFor(totpUri) },
    headersOf(session),
  );
  session.store(new Response(null, { headers: confirmed.headers }));
  return { userId: user!.id, totpUri, recoveryCodes: confirmed.recoveryCodes, jar: session };
}

describe("enrolment", () => {
  it("asks the password, shows a key, turns on with a code from it, and answers ten recovery codes", async () => {
    const jar = await signUp(app, "enrol@example.org");
    const user = (await app.services.accounts.userByEmail("enrol@example.org"))!;
    await expect(
      app.services.twoFactor.startEnrolment(user.id, { password: "not-my-password" }, headersOf(jar)),
    ).rejects.toMatchObject({ status: 400, message: TWO_FACTOR_MESSAGES.wrongPassword });
    const started = await app.services.twoFactor.startEnrolment(
      user.id,
      { password: CUSTOMER_PASSWORD },
      headersOf(jar),
    );
    expect(started.totpUri).toMatch(/^otpauth:\/\/totp\/Atelier%20North:enrol%40example\.org\?secret=/);
    expect(started.qrSvg).toMatch(/^<svg/);
    expect(started.manualKey.replace(/ /g, "")).toBe(keyOf(started.totpUri));
    // Not on until confirmed: the key waits, shown again.
    let state = await app.services.twoFactor.state(user.id);
    expect(state).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    expect(state.pending?.totpUri).toBe(started.totpUri);
    await expect(
      app.services.twoFactor.confirmEnrolment(
        user.id,
        { code: "000000" === (await codeFor(started.totpUri)) ? "111111" : "000000" },
        headersOf(jar),
      ),
    ).rejects.toMatchObject({ status: 400, message: TWO_FACTOR_MESSAGES.wrongCode });
    const confirmed = await app.services.twoFactor.confirmEnrolment(
      user.id,
      { code: await codeFor(started.totpUri) },
      headersOf(jar),
    );
    expect(confirmed.recoveryCodes).toHaveLength(10);
    for (const code of confirmed.recoveryCodes) expect(code).toMatch(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/);
    state = await app.services.twoFactor.state(user.id);
    expect(state).toMatchObject({ enabled: true, pending: null, recoveryCodesLeft: 10 });
    // The key and the codes are stored encrypted, never as shown.
    const { rows } = await app.db.pool.query(`select secret, backup_codes from two_factor where user_id = $1`, [
      user.id,
    ]);
    expect(rows[0].secret).not.toContain(keyOf(started.totpUri));
    expect(rows[0].backup_codes).not.toContain(confirmed.recoveryCodes[0]);
  });
});

describe("sign-in", () => {
  it("asks for a code after the password; a right code signs in, a wrong one is refused", async () => {
    const { totpUri } = await enrolled("code@example.org");
    const first = await app.services.accounts.beginSignIn(
      { email: "code@example.org", password: CUSTOMER_PASSWORD },
      { ip: ip(10), headers: new Headers() },
    );
    expect(first.secondFactor).toBe(true);
    const jar = new CookieJar();
    jar.store(new Response(null, { headers: first.headers }));
    // No session yet: only the short-lived challenge.
    expect(await app.services.accounts.viewer(headersOf(jar))).toBeNull();
    await expect(
      app.services.twoFactor.verifySignIn({ method: "totp", code: "12345" }, { ip: ip(10), headers: headersOf(jar) }),
    ).rejects.toMatchObject({ status: 400 });
    const wrong = (await codeFor(totpUri)) === "000000" ? "111111" : "000000";
    await expect(
      app.services.twoFactor.verifySignIn({ method: "totp", code: wrong }, { ip: ip(10), headers: headersOf(jar) }),
    ).rejects.toMatchObject({ status: 400, message: TWO_FACTOR_MESSAGES.wrongCode });
    const done = await app.services.twoFactor.verifySignIn(
      { method: "totp", code: await codeFor(totpUri) },
      { ip: ip(10), headers: headersOf(jar) },
    );
    expect(done.email).toBe("code@example.org");
    jar.store(new Response(null, { headers: done.headers }));
    expect((await app.services.accounts.viewer(headersOf(jar)))?.email).toBe("code@example.org");
  });
});
