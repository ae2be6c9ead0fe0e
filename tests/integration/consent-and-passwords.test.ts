import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "#domain/account-forms.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { attemptSignIn } from "../support/accounts";
import { linkOf, outbox } from "../support/mail";
import { CookieJar } from "../support/session";
import { startTestApp, type TestApp } from "../support/app";

/** Issue 25, parts 4 and 5 (decision 037): consent recorded at sign-up; the password rule on every way in. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-12", TRUST_PROXY: "1" });
  await app.services.accounts.ensureFirstAdmin();
  await app.services.content.insertMany(demoContent.filter((r) => r.type === "privacy" || r.type === "terms"));
});
afterAll(() => app?.close());

const ctx = () => ({ ip: "203.0.113.40", headers: new Headers() });
// Each from an address of its own: sign-ups are limited per address.
let client = 0;
const restSignUp = (body: Record<string, unknown>, jar = new CookieJar()) =>
  app.request("/api/auth/sign-up/email", {
    method: "POST",
    json: { name: "", ...body },
    jar,
    headers: { "x-forwarded-for": `198.51.100.${++client}` },
  });
const userId = async (email: string) =>
  (await app.db.pool.query<{ id: string }>(`select id from "user" where email = $1`, [email])).rows[0]?.id;
const consents = async (email: string) =>
  (
    await app.db.pool.query<{ document: string; version: string; accepted_at: Date }>(
      `select document, version, accepted_at from consents where user_id = $1 order by document`,
      [await userId(email)],
    )
  ).rows;
const versionOf = async (type: string) =>
  (
    await app.db.pool.query<{ updated_at: Date }>(`select updated_at from content_entries where type = $1`, [type])
  ).rows[0]!.updated_at.toISOString();

describe("consent at registration", () => {
  it("REST sign-up without acceptTerms: 400 with a sentence that says what to do, and no account", async () => {
    for (const acceptTerms of [undefined, false, "yes", 1]) {
      const res = await restSignUp({ email: "undecided@example.org", password: "quiet-harbour-71", acceptTerms });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message: MESSAGES.consentRequired });
    }
    expect(await userId("undecided@example.org")).toBeUndefined();
  });

  it("records the acceptance of both documents, each with its version (its record's last change) and the time", async () => {
    const before = Date.now();
    const res = await restSignUp({ email: "agreed@example.org", password: "quiet-harbour-71", acceptTerms: true });
    expect(res.status).toBe(200);
    const rows = await consents("agreed@example.org");
    expect(rows.map((r) => [r.document, r.version])).toEqual([
      ["privacy", await versionOf("privacy")],
      ["terms", await versionOf("terms")],
    ]);
    for (const r of rows) expect(r.accepted_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("a changed notice is a new version for the next person", async () => {
    await app.db.pool.query(
      `update content_entries set updated_at = now() + interval '1 minute' where type = 'privacy'`,
    );
    await app.services.accounts.signUp(
      { email: "later@example.org", password: "quiet-harbour-71", acceptTerms: "on" },
      ctx(),
    );
    const [privacy] = await consents("later@example.org");
    expect(privacy!.version).toBe(await versionOf("privacy"));
    expect(privacy!.version).not.toBe((await consents("agreed@example.org"))[0]!.version);
  });

  it("our own sign-up (the register form) refuses without the box ticked, on the field", async () => {
    await expect(
      app.services.accounts.signUp({ email: "form@example.org", password: "quiet-harbour-71" }, ctx()),
    ).rejects.toMatchObject({ status: 400, errors: [{ field: "acceptTerms", message: MESSAGES.consentRequired }] });
  });

  it("the consents go with the account", async () => {
    const id = await userId("later@example.org");
    await app.db.pool.query(`delete from "user" where id = $1`, [id]);
    expect((await app.db.pool.query(`select 1 from consents where user_id = $1`, [id])).rowCount).toBe(0);
  });
});

describe("the password rule", () => {
  it("holds for the first administrator's ADMIN_PASSWORD: the start refuses a short or common one and says why", async () => {
    for (const [password, problem] of [
      ["short-pass1", MESSAGES.staffPasswordShort],
      ["password1234", MESSAGES.passwordCommon],
    ] as const) {
      const other = await startTestApp({ ADMIN_EMAIL: "first@example.org", ADMIN_PASSWORD: password });
      try {
        await expect(other.services.accounts.ensureFirstAdmin()).rejects.toThrow(`ADMIN_PASSWORD: ${problem}`);
        expect(await other.services.adminUsers.count()).toBe(0);
      } finally {
        await other.close();
      }
    }
  });

  it("refuses common passwords at sign-up, through REST and our own call", async () => {
    for (const password of ["123456", "password", "Password1", "qwerty123"]) {
      const res = await restSignUp({ email: "common@example.org", password, acceptTerms: true });
      expect(res.status, password).toBe(400);
      expect(await res.json()).toMatchObject({ message: MESSAGES.passwordCommon });
    }
    await expect(
      app.services.accounts.signUp({ email: "common@example.org", password: "letmein", acceptTerms: true }, ctx()),
    ).rejects.toMatchObject({ status: 400, errors: [{ field: "password", message: MESSAGES.passwordCommon }] });
    expect(await userId("common@example.org")).toBeUndefined();
  });

  it("keeps the spec's rules and messages first", async () => {
    await expect(
      app.services.accounts.signUp({ email: "short@example.org", password: "12345", acceptTerms: true }, ctx()),
    ).rejects.toMatchObject({ errors: [{ field: "password", message: MESSAGES.passwordShort }] });
  });

  it("asks staff (anyone in admin_users, whatever the role) for 12 characters at sign-up", async () => {
    await app.db.pool.query(
      `insert into admin_users (user_email, user_role) values ('new-staff@example.org', 'Admin')`,
    );
    const short = await restSignUp({ email: "new-staff@example.org", password: "staff-pass1", acceptTerms: true });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ message: MESSAGES.staffPasswordShort });
    // A customer may still use the spec's six.
    expect((await restSignUp({ email: "six@example.org", password: "kq7-zv", acceptTerms: true })).status).toBe(200);
    const long = await restSignUp({ email: "new-staff@example.org", password: "staff-pass-12", acceptTerms: true });
    expect(long.status).toBe(200);
  });

  it("refuses a common password on change-password, and a short one for staff", async () => {
    const jar = new CookieJar();
    expect(
      (await restSignUp({ email: "changer@example.org", password: "quiet-harbour-71", acceptTerms: true }, jar)).status,
    ).toBe(200);
    const change = (newPassword: string, j: CookieJar) =>
      app.request("/api/auth/change-password", {
        method: "POST",
        json: { currentPassword: j === jar ? "quiet-harbour-71" : "owner-pass-12", newPassword },
        jar: j,
      });
    const common = await change("iloveyou", jar);
    expect(common.status).toBe(400);
    expect(await common.json()).toMatchObject({ message: MESSAGES.passwordCommon });
    expect((await change("amber-quilt-9", jar)).status).toBe(200);

    const { jar: owner } = await attemptSignIn(app, "owner@example.org", "owner-pass-12");
    const staff = await change("owner-pass", owner);
    expect(staff.status).toBe(400);
    expect(await staff.json()).toMatchObject({ message: MESSAGES.staffPasswordShort });
  });

  it("refuses a common password on reset, and a short one for staff, on the link's account", async () => {
    const tokenFor = async (email: string) => {
      const mails = () =>
        outbox(app.config.dataDir).filter((m) => m.subject === "Reset your password" && m.to[0]!.includes(email));
      await app.services.accounts.requestPasswordReset({ email }, ctx());
      await expect.poll(() => mails().length, { timeout: 10_000 }).toBeGreaterThan(0);
      const link = new URL(linkOf(mails().at(-1)!.raw));
      const opened = await app.request(link.pathname + link.search);
      return new URL(opened.headers.get("location")!, app.url).searchParams.get("token")!;
    };
    const token = await tokenFor("agreed@example.org");
    await expect(app.services.accounts.resetPassword({ password: "abc123", token })).rejects.toMatchObject({
      status: 400,
      errors: [{ field: "password", message: MESSAGES.passwordCommon }],
    });
    const rest = await app.request("/api/auth/reset-password", {
      method: "POST",
      json: { newPassword: "football", token },
    });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ message: MESSAGES.passwordCommon });
    await app.services.accounts.resetPassword({ password: "mossy-lantern-3", token });

    const staffToken = await tokenFor("owner@example.org");
    await expect(
      app.services.accounts.resetPassword({ password: "short-pass", token: staffToken }),
    ).rejects.toMatchObject({
      errors: [{ field: "password", message: MESSAGES.staffPasswordShort }],
    });
    await app.services.accounts.resetPassword({ password: "a-much-longer-pass", token: staffToken });
    expect((await attemptSignIn(app, "owner@example.org", "a-much-longer-pass")).res.status).toBe(200);
  });
});
