import { createOTP } from "@better-auth/utils/otp";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { AppLoadContext } from "react-router";
import { requireStaff, requireStaffHome } from "#app/lib/guards.server.ts";
import { staffHome } from "#domain/capabilities.ts";
import { TWO_FACTOR_MESSAGES } from "#domain/two-factor.ts";
import { CUSTOMER_PASSWORD, signIn, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { resetTwoFactorCommand } from "#server/cli/reset-two-factor-command.ts";
import { databaseUrl } from "../support/server";
import { CookieJar } from "../support/session";

/**
 * Two-factor sign-in (issue 25, part 2; decision 040) against the real database, with the staff requirement on
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
// Each test signs up a few people from the loopback address: the sign-up limit (10 an hour) starts afresh.
beforeEach(() => app.db.pool.query("delete from rate_limiter"));

/** What a page's loader is given: the real viewer of the jar's session. */
const pageRequest = new Request("http://test/admin");
const pageContext = (jar: CookieJar) =>
  ({ viewer: () => app.services.accounts.viewer(headersOf(jar)) }) as unknown as AppLoadContext;
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

/** Signs in with the password, then answers the second step with `code` (TOTP or recovery); the jar if it worked. */
async function signInWithCode(email: string, method: "totp" | "recovery", code: string, from: string) {
  const first = await app.services.accounts.beginSignIn(
    { email, password: CUSTOMER_PASSWORD },
    { ip: from, headers: new Headers() },
  );
  expect(first.secondFactor).toBe(true);
  const jar = new CookieJar();
  jar.store(new Response(null, { headers: first.headers }));
  const done = await app.services.twoFactor.verifySignIn({ method, code }, { ip: from, headers: headersOf(jar) });
  jar.store(new Response(null, { headers: done.headers }));
  return jar;
}

describe("recovery codes", () => {
  it("sign in once each, typed with or without the dash; new codes replace the old", async () => {
    const { recoveryCodes, userId, jar } = await enrolled("recover@example.org");
    const [first, second] = recoveryCodes as [string, string];
    const signedIn = await signInWithCode("recover@example.org", "recovery", first, ip(20));
    expect((await app.services.accounts.viewer(headersOf(signedIn)))?.email).toBe("recover@example.org");
    await expect(signInWithCode("recover@example.org", "recovery", first, ip(20))).rejects.toMatchObject({
      status: 400,
      message: TWO_FACTOR_MESSAGES.wrongRecoveryCode,
    });
    await signInWithCode("recover@example.org", "recovery", second.replace("-", ""), ip(20));
    expect((await app.services.twoFactor.state(userId)).recoveryCodesLeft).toBe(8);
    // checkCode (deleting an account asks it) spends one too, and never the same twice.
    expect(await app.services.twoFactor.checkCode(userId, recoveryCodes[2]!)).toBe(true);
    expect(await app.services.twoFactor.checkCode(userId, recoveryCodes[2]!)).toBe(false);
    const fresh = await app.services.twoFactor.regenerateRecoveryCodes(
      userId,
      { password: CUSTOMER_PASSWORD },
      headersOf(jar),
    );
    expect(fresh).toHaveLength(10);
    expect(await app.services.twoFactor.checkCode(userId, recoveryCodes[3]!)).toBe(false);
    expect(await app.services.twoFactor.checkCode(userId, fresh[0]!)).toBe(true);
  });

  it("a person with it off has no code that works; checkCode stops after 10 failures", async () => {
    await signUp(app, "plain@example.org");
    const plain = (await app.services.accounts.userByEmail("plain@example.org"))!;
    expect(await app.services.twoFactor.checkCode(plain.id, "123456")).toBe(false);
    const { userId, totpUri } = await enrolled("guesser@example.org");
    const wrong = (await codeFor(totpUri)) === "000000" ? "111111" : "000000";
    for (let i = 0; i < 10; i++) expect(await app.services.twoFactor.checkCode(userId, wrong)).toBe(false);
    await expect(app.services.twoFactor.checkCode(userId, await codeFor(totpUri))).rejects.toMatchObject({
      status: 429,
    });
  });
});

describe("turning it off", () => {
  it("asks the password and a code; a customer may, an Admin may not while it is required", async () => {
    const { userId, totpUri } = await enrolled("off@example.org");
    await expect(
      app.services.twoFactor.turnOff(userId, null, { password: CUSTOMER_PASSWORD, code: "12" }),
    ).rejects.toMatchObject({ status: 400 });
    await app.services.twoFactor.turnOff(userId, null, { password: CUSTOMER_PASSWORD, code: await codeFor(totpUri) });
    expect((await app.services.twoFactor.state(userId)).enabled).toBe(false);
    const signedIn = await app.services.accounts.beginSignIn(
      { email: "off@example.org", password: CUSTOMER_PASSWORD },
      { ip: ip(30), headers: new Headers() },
    );
    expect(signedIn.secondFactor).toBe(false);
    await expect(
      app.services.twoFactor.turnOff(userId, "Admin", { password: CUSTOMER_PASSWORD, code: "123456" }),
    ).rejects.toMatchObject({ status: 403, message: TWO_FACTOR_MESSAGES.requiredCannotTurnOff });
  });

  it("is refused through better-auth's own REST call, and no device is trusted", async () => {
    const { jar } = await enrolled("rest@example.org");
    const off = await app.request("/api/auth/two-factor/disable", {
      method: "POST",
      json: { password: CUSTOMER_PASSWORD },
      jar,
    });
    expect(off.status).toBe(403);
    const trust = await app.request("/api/auth/two-factor/verify-totp", {
      method: "POST",
      json: { code: "123456", trustDevice: true },
    });
    expect(trust.status).toBe(400);
  });
});

describe("staff must have it (ADMIN_2FA=required)", () => {
  it("an Admin without it is refused the back office's calls and sent to enrol by its pages, until enrolled", async () => {
    const jar = await signUpStaff(app, app.db.pool, "boss@example.org", "Admin");
    const orders = await app.request("/api/orders", { jar });
    expect(orders.status).toBe(403);
    expect(await orders.json()).toMatchObject({ error: TWO_FACTOR_MESSAGES.required });
    // The pages' guards (each back-office loader and action starts with one) send them to enrol.
    for (const guard of [
      () => requireStaff(pageRequest, pageContext(jar)),
      () => requireStaff(pageRequest, pageContext(jar), "orders"),
      () => requireStaffHome(pageRequest, pageContext(jar)),
    ]) {
      const thrown = await guard().then(
        () => null,
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).headers.get("location")).toBe("/account/security");
    }
    // Their customer calls still answer.
    expect((await app.request("/api/me", { jar })).status).toBe(200);

    await enrolled("boss@example.org", jar);
    expect((await app.request("/api/orders", { jar })).status).toBe(200);
    await expect(requireStaffHome(pageRequest, pageContext(jar))).resolves.toMatchObject({ staffRole: "Admin" });
  });

  it("an Editor too; the sign-in lands staff on their back office and customers on their dashboard", async () => {
    const jar = await signUpStaff(app, app.db.pool, "words@example.org", "Editor");
    expect((await app.request("/api/media", { jar })).status).toBe(403);
    const thrown = await requireStaff(pageRequest, pageContext(jar), "content").catch((e: unknown) => e);
    expect((thrown as Response).headers.get("location")).toBe("/account/security");
    expect(await app.services.accounts.landingFor("words@example.org")).toBe(staffHome("Editor"));
    expect(await app.services.accounts.landingFor("boss@example.org")).toBe(staffHome("Admin"));
    expect(await app.services.accounts.landingFor("plain@example.org")).toBe("/dashboard");
  });
});

describe("ADMIN_2FA=optional", () => {
  it("lets staff in with a password alone", async () => {
    const other = await startTestApp({ ADMIN_2FA: "optional" });
    try {
      const jar = await signUpStaff(other, other.db.pool, "relaxed@example.org", "Admin");
      expect((await other.request("/api/orders", { jar })).status).toBe(200);
      const viewer = await other.services.accounts.viewer(headersOf(jar));
      expect(viewer).toMatchObject({ twoFactorEnabled: false, twoFactorDue: false });
    } finally {
      await other.close();
    }
  });
});

describe("an Admin resets someone's second factor", () => {
  it("deletes it, ends their sessions, logs who did it; they must enrol again", async () => {
    // The owner enrols first (required), then resets the Editor's.
    const { jar: ownerJar } = await enrolled(
      "owner@example.org",
      await signUpStaff(app, app.db.pool, "owner@example.org", "Admin"),
    );
    const editorJar = await signUpStaff(app, app.db.pool, "lost@example.org", "Editor");
    await enrolled("lost@example.org", editorJar);
    expect((await app.request("/api/media", { jar: editorJar })).status).toBe(200);
    const staffId = (await app.services.adminUsers.list()).find((u) => u.userEmail === "lost@example.org")!._id;

    // An Editor may not; an unknown record is 404; the owner may.
    expect((await app.request(`/api/users/${staffId}/two-factor`, { method: "DELETE", jar: editorJar })).status).toBe(
      403,
    );
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await app.request(`/api/users/${unknown}/two-factor`, { method: "DELETE", jar: ownerJar })).status).toBe(
      404,
    );
    const reset = await app.request(`/api/users/${staffId}/two-factor`, { method: "DELETE", jar: ownerJar });
    expect(reset.status).toBe(200);
    // Their session is over; at their next sign-in there is no code to ask, and the back office sends them to enrol.
    expect(await app.services.accounts.viewer(headersOf(editorJar))).toBeNull();
    const again = await signIn(app, "lost@example.org", CUSTOMER_PASSWORD);
    const thrown = await requireStaff(pageRequest, pageContext(again)).catch((e: unknown) => e);
    expect((thrown as Response).headers.get("location")).toBe("/account/security");
    // Twice is a conflict: there is nothing left to reset.
    expect((await app.request(`/api/users/${staffId}/two-factor`, { method: "DELETE", jar: ownerJar })).status).toBe(
      409,
    );
    const { rows } = await app.db.pool.query(
      `select actor_email, action, entity, record_id, changes from activity_log where record_id = $1`,
      [staffId],
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        actor_email: "owner@example.org",
        action: "update",
        entity: "admin_user",
        changes: { twoFactorSignIn: { before: "on", after: "reset" } },
      }),
    );
  });
});

describe("npm run reset-two-factor (the last Admin lost their phone and their codes)", () => {
  const settings = () => ({ ...process.env, DATABASE_URL: databaseUrl(inject("testDb").admin, app.db.name) });
  /**
   * The command as the owner types it on the server (server/cli/reset-two-factor.ts hands its arguments, environment
   * and output to this function), run in this process against this test's database: what it says and its exit code.
   */
  const inProcess = async (...args: string[]) => {
    let out = "";
    const write = (text: string) => void (out += text);
    const code = await resetTwoFactorCommand(
      args,
      { ...settings(), LOG_LEVEL: "warn" },
      { stdout: write, stderr: write },
    );
    return { code, out };
  };

  it("turns it off, ends their sessions and logs the command line; refuses anyone not on the staff", async () => {
    const jar = await signUpStaff(app, app.db.pool, "alone@example.org", "Admin");
    await enrolled("alone@example.org", jar);
    const staffId = (await app.services.adminUsers.list()).find((u) => u.userEmail === "alone@example.org")!._id;

    const done = await inProcess("Alone@Example.org");
    expect(done.code, done.out).toBe(0);
    expect(done.out).toContain("Two-factor sign-in is off for alone@example.org");
    expect(await app.services.accounts.viewer(headersOf(jar))).toBeNull();
    const user = await app.services.accounts.userByEmail("alone@example.org");
    expect(await app.services.twoFactor.state(user!.id)).toMatchObject({ enabled: false });
    const { rows } = await app.db.pool.query(
      "select actor_email, changes from activity_log where record_id = $1 and entity = 'admin_user'",
      [staffId],
    );
    expect(rows).toContainEqual({
      actor_email: "Command line (npm run reset-two-factor)",
      changes: { twoFactorSignIn: { before: "on", after: "reset" } },
    });

    // Nothing left to reset; a customer, an unknown address and no address are refused with a message.
    const again = await inProcess("alone@example.org");
    expect([again.code, again.out.trim()]).toEqual([1, "Two-factor sign-in is not on for this person."]);
    await signUp(app, "just-a-customer@example.org");
    const customer = await inProcess("just-a-customer@example.org");
    expect(customer.code).toBe(1);
    expect(customer.out).toContain("is not on the staff");
    const unknown = await inProcess("nobody@example.org");
    expect([unknown.code, unknown.out]).toEqual([1, expect.stringContaining("nobody@example.org is not on the staff")]);
    const none = await inProcess();
    expect([none.code, none.out]).toEqual([2, expect.stringContaining("Usage: npm run reset-two-factor -- EMAIL")]);
  });
});
