import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MY_ACCOUNT_MESSAGES } from "#domain/my-account-forms.ts";
import { MY_ACCOUNT_LIMITS } from "#server/services/my-account-auth.ts";
import { attemptSignIn, CUSTOMER_PASSWORD, signIn, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { linkOf, startSmtpServer } from "../support/mail";
import { CookieJar } from "../support/session";
import { queueDrained, untilNextSecond } from "../support/wait";

/**
 * My account (issue 25, part 1) against the real database, the real app (pages through Vite) and a real SMTP
 * listener: name, email change (both mails, the change only once the new address confirms), password change (limits,
 * every other session ended), sessions listed and ended, and an ended session refused at once.
 */
let app: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = await startTestApp(
    { SMTP_URL: smtp.url, ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-12-x" },
    { pages: true },
  );
  await app.services.accounts.ensureFirstAdmin();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

let n = 0;
const fresh = (prefix: string) => `${prefix}-${++n}-${Date.now().toString(36)}@example.org`;
const headersOf = (jar: CookieJar) => new Headers({ cookie: jar.header() });
/** A new customer, signed in, by the register page's call: each from an address of its own (sign-ups are limited per address). */
async function customer(email: string, headers: Record<string, string> = {}): Promise<CookieJar> {
  const cookies = await app.services.accounts.signUp(
    { email, password: CUSTOMER_PASSWORD, acceptTerms: true },
    { ip: `198.51.100.${n % 250}`, headers: new Headers(headers) },
  );
  const jar = new CookieJar();
  jar.store(new Response(null, { headers: cookies }));
  return jar;
}
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));
async function mailTo(email: string, subject: string) {
  await expect.poll(() => mailsTo(email).filter((m) => m.subject === subject).length, { timeout: 15_000 }).toBe(1);
  return mailsTo(email).find((m) => m.subject === subject)!;
}
const CONFIRM_SUBJECT = "Confirm your new email address";
const NOTICE_SUBJECT = "A change of your account's email was asked";

async function userRow(id: string) {
  const { rows } = await app.db.pool.query<{ email: string; email_verified: boolean; name: string }>(
    `select email, email_verified, name from "user" where id = $1`,
    [id],
  );
  return rows[0]!;
}
async function idOf(email: string) {
  return (await app.services.accounts.userByEmail(email))!.id;
}
/** Whether a session's cookie is still honoured: 200 on a REST call and the dashboard page, or 401 and a redirect. */
async function signedIn(jar: CookieJar): Promise<boolean> {
  const me = await app.request("/api/me", { jar });
  const page = await app.request("/dashboard", { jar });
  if (me.status === 200) {
    expect(page.status).toBe(200);
    return true;
  }
  expect(me.status).toBe(401);
  expect(page.status).toBe(302);
  expect(page.headers.get("location")).toMatch(/^\/login\?redirectTo=%2Fdashboard/);
  return false;
}
/** Follows an email's link to the app (better-auth's /verify-email), as a browser with this jar would. */
async function follow(link: string, jar?: CookieJar) {
  const url = new URL(link);
  return app.request(url.pathname + url.search, { jar });
}

describe("profile", () => {
  it("changes the name, trimmed, and refuses one over 100 characters", async () => {
    const email = fresh("named");
    const jar = await customer(email);
    await app.services.myAccount.updateName({ name: "  Ada Lovelace " }, headersOf(jar));
    expect((await userRow(await idOf(email))).name).toBe("Ada Lovelace");
    expect(((await (await app.request("/api/me", { jar })).json()) as { displayName: string }).displayName).toBe(
      "Ada Lovelace",
    );
    await expect(app.services.myAccount.updateName({ name: "x".repeat(101) }, headersOf(jar))).rejects.toMatchObject({
      status: 400,
      errors: [{ field: "name", message: MY_ACCOUNT_MESSAGES.nameTooLong }],
    });
  });
});

describe("email change", () => {
  it("mails a link to the new address and a notice to the old one; the email changes only when the link is followed", async () => {
    const oldEmail = fresh("mover");
    const newEmail = fresh("moved");
    const jar = await customer(oldEmail);
    const id = await idOf(oldEmail);
    await app.db.pool.query(`update "user" set email_verified = true where id = $1`, [id]);

    expect(
      await app.services.myAccount.requestEmailChange({ newEmail: newEmail.toUpperCase() }, headersOf(jar)),
    ).toEqual({ newEmail });
    const confirm = await mailTo(newEmail, CONFIRM_SUBJECT);
    const notice = await mailTo(oldEmail, NOTICE_SUBJECT);
    expect(notice.raw).toContain(newEmail);
    expect(notice.raw).not.toContain("verify-email?token"); // the old address gets no link that could confirm
    expect(confirm.raw).toContain(oldEmail);
    // Nothing changed yet: the old address still signs in, the new one does not.
    expect((await userRow(id)).email).toBe(oldEmail);
    expect((await attemptSignIn(app, newEmail, CUSTOMER_PASSWORD)).res.status).toBe(401);

    const followed = await follow(linkOf(confirm.raw));
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe("/account/email-confirmed");
    expect(await userRow(id)).toMatchObject({ email: newEmail, email_verified: true });
    await signIn(app, newEmail, CUSTOMER_PASSWORD);
    expect((await attemptSignIn(app, oldEmail, CUSTOMER_PASSWORD)).res.status).toBe(401);
    // The session that asked is still signed in, now under the new address.
    expect(((await (await app.request("/api/me", { jar })).json()) as { email: string }).email).toBe(newEmail);
    // The link works once: the account's address is no longer the one it was made for.
    const again = await follow(linkOf(confirm.raw));
    expect(again.headers.get("location")).toMatch(/error=/);
  });

  it("a customer who never confirmed the first address is confirmed by following the new one's link", async () => {
    const oldEmail = fresh("unconfirmed");
    const newEmail = fresh("confirmed");
    const jar = await customer(oldEmail);
    await app.services.myAccount.requestEmailChange({ newEmail }, headersOf(jar));
    await follow(linkOf((await mailTo(newEmail, CONFIRM_SUBJECT)).raw));
    expect(await userRow(await idOf(newEmail))).toMatchObject({ email: newEmail, email_verified: true });
  });

  it("refuses an address another account uses, plainly, and the same address; no mail goes out", async () => {
    const taken = fresh("taken");
    await customer(taken);
    const email = fresh("wants");
    const jar = await customer(email);
    await expect(app.services.myAccount.requestEmailChange({ newEmail: taken }, headersOf(jar))).rejects.toMatchObject({
      status: 409,
      errors: [{ field: "newEmail", message: MY_ACCOUNT_MESSAGES.emailTaken }],
    });
    // better-auth's own REST call obeys the same rule.
    const rest = await app.request("/api/auth/change-email", { method: "POST", json: { newEmail: taken }, jar });
    expect(rest.status).toBe(409);
    expect(await rest.json()).toMatchObject({ message: MY_ACCOUNT_MESSAGES.emailTaken });
    await expect(app.services.myAccount.requestEmailChange({ newEmail: email }, headersOf(jar))).rejects.toMatchObject({
      status: 400,
      errors: [{ field: "newEmail", message: MY_ACCOUNT_MESSAGES.emailSame }],
    });
    await expect(
      app.services.myAccount.requestEmailChange({ newEmail: "not an email" }, headersOf(jar)),
    ).rejects.toMatchObject({ status: 400, errors: [{ field: "newEmail" }] });
    await queueDrained(app);
    expect(mailsTo(taken).filter((m) => m.subject === CONFIRM_SUBJECT)).toHaveLength(0);
    expect(mailsTo(email).filter((m) => m.subject === NOTICE_SUBJECT)).toHaveLength(0);
  });

  it(`is limited to ${MY_ACCOUNT_LIMITS.emailChange.limit} requests an hour per account`, async () => {
    const jar = await customer(fresh("often"));
    for (let i = 0; i < MY_ACCOUNT_LIMITS.emailChange.limit; i++) {
      await app.services.myAccount.requestEmailChange({ newEmail: fresh("target") }, headersOf(jar));
    }
    await expect(
      app.services.myAccount.requestEmailChange({ newEmail: fresh("target") }, headersOf(jar)),
    ).rejects.toMatchObject({ status: 429, message: MY_ACCOUNT_MESSAGES.tooManyEmail });
  });

  it("a password changed after the request cancels it", async () => {
    const oldEmail = fresh("cancel");
    const newEmail = fresh("cancelled");
    const jar = await customer(oldEmail);
    await app.services.myAccount.requestEmailChange({ newEmail }, headersOf(jar));
    const asked = Date.now();
    const link = linkOf((await mailTo(newEmail, CONFIRM_SUBJECT)).raw);
    // JWT times are in seconds: the password's change must fall in a later second than the token's issue.
    await untilNextSecond(asked);
    await app.services.myAccount.changePassword(
      { currentPassword: CUSTOMER_PASSWORD, newPassword: "amber-quilt-river-9" },
      headersOf(jar),
    );
    const followed = await follow(link);
    expect(followed.headers.get("location")).toBe("/account/email-confirmed?error=CHANGE_CANCELLED");
    expect((await userRow(await idOf(oldEmail))).email).toBe(oldEmail);
  });

  it("a link followed after someone registered that address meanwhile is refused with a message, not a 500", async () => {
    const oldEmail = fresh("slow");
    const newEmail = fresh("snatched");
    const jar = await customer(oldEmail);
    await app.services.myAccount.requestEmailChange({ newEmail }, headersOf(jar));
    const link = linkOf((await mailTo(newEmail, CONFIRM_SUBJECT)).raw);
    await customer(newEmail);
    const followed = await follow(link);
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe("/account/email-confirmed?error=EMAIL_TAKEN");
    expect((await userRow(await idOf(oldEmail))).email).toBe(oldEmail);
    const page = await app.request(followed.headers.get("location")!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Another account registered this address");
  });

  it("a staff member's listing (admin_users, keyed by email) moves with the address, audited, and the role stays", async () => {
    const oldEmail = fresh("editor");
    const newEmail = fresh("editor-new");
    const jar = await signUpStaff(app, app.db.pool, oldEmail, "Editor", { password: "editor-pass-12-x" });
    await app.services.myAccount.requestEmailChange({ newEmail }, headersOf(jar));
    await mailTo(oldEmail, NOTICE_SUBJECT);
    await follow(linkOf((await mailTo(newEmail, CONFIRM_SUBJECT)).raw));

    const { rows } = await app.db.pool.query<{ user_email: string; user_role: string }>(
      `select user_email, user_role from admin_users where lower(user_email) in ($1, $2)`,
      [oldEmail, newEmail],
    );
    expect(rows).toEqual([{ user_email: newEmail, user_role: "Editor" }]);
    expect(((await (await app.request("/api/me", { jar })).json()) as { role: string }).role).toBe("Editor");
    const again = await signIn(app, newEmail, "editor-pass-12-x");
    expect(((await (await app.request("/api/me", { jar: again })).json()) as { role: string }).role).toBe("Editor");
    const { rows: log } = await app.db.pool.query<{ actor_email: string; changes: unknown }>(
      `select actor_email, changes from activity_log where entity = 'admin_user' and actor_email = $1`,
      [newEmail],
    );
    expect(log).toEqual([{ actor_email: newEmail, changes: { userEmail: { before: oldEmail, after: newEmail } } }]);
  });
});

describe("password change", () => {
  it("asks for the current password, applies the password rule, and ends every other session", async () => {
    const email = fresh("changer");
    const here = await customer(email);
    const elsewhere = await signIn(app, email, CUSTOMER_PASSWORD);
    const third = await signIn(app, email, CUSTOMER_PASSWORD);

    await expect(
      app.services.myAccount.changePassword(
        { currentPassword: "wrong-pass-1", newPassword: "amber-quilt-9" },
        headersOf(here),
      ),
    ).rejects.toMatchObject({
      status: 400,
      errors: [{ field: "currentPassword", message: MY_ACCOUNT_MESSAGES.currentWrong }],
    });
    await expect(
      app.services.myAccount.changePassword(
        { currentPassword: CUSTOMER_PASSWORD, newPassword: "password" },
        headersOf(here),
      ),
    ).rejects.toMatchObject({ status: 400, errors: [{ field: "newPassword" }] });
    await expect(
      app.services.myAccount.changePassword(
        { currentPassword: CUSTOMER_PASSWORD, newPassword: "12345" },
        headersOf(here),
      ),
    ).rejects.toMatchObject({ status: 400, errors: [{ field: "newPassword", message: "Minimum 6 Characters" }] });
    expect(await signedIn(elsewhere)).toBe(true);

    const cookies = await app.services.myAccount.changePassword(
      { currentPassword: CUSTOMER_PASSWORD, newPassword: "amber-quilt-9" },
      headersOf(here),
    );
    here.store(new Response(null, { headers: cookies }));
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    expect(await signedIn(third)).toBe(false);
    const { rows } = await app.db.pool.query(`select 1 from session where user_id = $1`, [await idOf(email)]);
    expect(rows).toHaveLength(1);
    expect((await attemptSignIn(app, email, CUSTOMER_PASSWORD)).res.status).toBe(401);
    await signIn(app, email, "amber-quilt-9");
  });

  it(`refuses the account after ${MY_ACCOUNT_LIMITS.passwordChangeFailures.limit} wrong current passwords, on the page's call and better-auth's REST call alike`, async () => {
    const email = fresh("guesser");
    const jar = await customer(email);
    const attempt = (currentPassword: string) =>
      app.services.myAccount.changePassword({ currentPassword, newPassword: "amber-quilt-9" }, headersOf(jar));
    for (let i = 0; i < MY_ACCOUNT_LIMITS.passwordChangeFailures.limit; i++) {
      await expect(attempt(`wrong-guess-${i}`)).rejects.toMatchObject({ status: 400 });
    }
    await expect(attempt(CUSTOMER_PASSWORD)).rejects.toMatchObject({
      status: 429,
      message: MY_ACCOUNT_MESSAGES.tooManyPassword,
    });
    const rest = await app.request("/api/auth/change-password", {
      method: "POST",
      json: { currentPassword: CUSTOMER_PASSWORD, newPassword: "amber-quilt-9" },
      jar,
    });
    expect(rest.status).toBe(429);
    // Another account is not affected.
    const other = await customer(fresh("bystander"));
    await app.services.myAccount.changePassword(
      { currentPassword: CUSTOMER_PASSWORD, newPassword: "amber-quilt-9" },
      headersOf(other),
    );
  });

  it("signed out: the page's call is refused", async () => {
    await expect(
      app.services.myAccount.changePassword(
        { currentPassword: "x-y-z-1", newPassword: "amber-quilt-9" },
        new Headers(),
      ),
    ).rejects.toMatchObject({ status: 401 });
  });
});

describe("sessions", () => {
  it("lists this person's sessions with device, address and this device marked; a client cannot choose its address", async () => {
    const email = fresh("lister");
    const here = await customer(email, {
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    });
    await signIn(app, email, CUSTOMER_PASSWORD, {
      headers: {
        "user-agent":
          "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        "x-atelier-client-ip": "198.51.100.99",
      },
    });
    await customer(fresh("someone-else"));
    const viewer = (await app.services.accounts.viewer(headersOf(here)))!;
    const list = await app.services.myAccount.sessions(viewer, headersOf(here));
    expect(list.map((s) => ({ device: s.device, current: s.current, ip: s.ipAddress }))).toEqual([
      { device: "Firefox on Linux", current: true, ip: "127.0.0.1" },
      { device: "Safari on iPhone", current: false, ip: "127.0.0.1" },
    ]);
  });

  it("signs out one other session by its id, at once: its cookie gets 401 from the API and a redirect from /dashboard", async () => {
    const email = fresh("ender");
    const here = await customer(email);
    const there = await signIn(app, email, CUSTOMER_PASSWORD);
    const stranger = await customer(fresh("stranger"));
    expect(await signedIn(there)).toBe(true);
    const viewer = (await app.services.accounts.viewer(headersOf(here)))!;
    const other = (await app.services.myAccount.sessions(viewer, headersOf(here))).find((s) => !s.current)!;

    // Someone else cannot end it, nor can this browser end its own session here.
    const strangerViewer = (await app.services.accounts.viewer(headersOf(stranger)))!;
    await expect(
      app.services.myAccount.endSession(strangerViewer, { sessionId: other.id }, headersOf(stranger)),
    ).rejects.toMatchObject({ status: 404 });
    const mine = (await app.services.myAccount.sessions(viewer, headersOf(here))).find((s) => s.current)!;
    await expect(
      app.services.myAccount.endSession(viewer, { sessionId: mine.id }, headersOf(here)),
    ).rejects.toMatchObject({ status: 400 });
    expect(await signedIn(there)).toBe(true);

    await app.services.myAccount.endSession(viewer, { sessionId: other.id }, headersOf(here));
    expect(await signedIn(there)).toBe(false);
    expect(await signedIn(here)).toBe(true);
    await expect(
      app.services.myAccount.endSession(viewer, { sessionId: other.id }, headersOf(here)),
    ).rejects.toMatchObject({ status: 404, message: MY_ACCOUNT_MESSAGES.sessionGone });
  });

  it("signs out of every other session and says how many", async () => {
    const email = fresh("everyone");
    const here = await customer(email);
    const others = [await signIn(app, email, CUSTOMER_PASSWORD), await signIn(app, email, CUSTOMER_PASSWORD)];
    const viewer = (await app.services.accounts.viewer(headersOf(here)))!;
    expect(await app.services.myAccount.endOtherSessions(viewer, headersOf(here))).toBe(2);
    for (const jar of others) expect(await signedIn(jar)).toBe(false);
    expect(await signedIn(here)).toBe(true);
    expect(await app.services.myAccount.endOtherSessions(viewer, headersOf(here))).toBe(0);
  });

  it("the pages answer a visitor with the sign-in page", async () => {
    for (const path of ["/account", "/account/password", "/account/sessions", "/account/subscriptions"]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    expect((await app.request("/account/email-confirmed")).status).toBe(200);
  });
});
