import { staffHome } from "#domain/capabilities.ts";
import { STAFF_WELCOME } from "#domain/staff-words.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CUSTOMER_PASSWORD, signIn, signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/** Issue 25, part 3: staff roles (decision 036): invite, change a role, remove, never the last Admin. */
let app: TestApp;
const admin = new CookieJar();
let editor: CookieJar;

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-long-1" });
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  editor = await signUpStaff(app, app.db.pool, "ed@example.org", "Editor");
});
afterAll(() => app?.close());

/** The link of the last staff invitation queued for an address. */
async function inviteMail(email: string): Promise<{ url: string; setPassword: boolean } | undefined> {
  const { rows } = await app.db.pool.query(
    `select data->'mail'->>'link' as url from pgboss.job
     where data->>'key' like 'staff-invite:%' and lower(data->'mail'->>'to') = lower($1) order by created_on desc limit 1`,
    [email],
  );
  const url = rows[0]?.url as string | undefined;
  return url ? { url, setPassword: url.includes("/reset-password/") } : undefined;
}

describe("an Editor", () => {
  it("edits content and reads messages, and is refused orders, payments, users, settings and the job queue", async () => {
    const get = (path: string) => app.request(path, { jar: editor }).then((r) => r.status);
    expect(await get("/api/me").then(() => 0)).toBe(0);
    const me = await (await app.request("/api/me", { jar: editor })).json();
    expect(me.role).toBe("Editor");
    expect(await get("/api/messages")).toBe(200);
    expect(await get("/api/media")).toBe(200);
    for (const path of [
      "/api/orders",
      "/api/users",
      "/api/paypal-email",
      "/api/settings",
      "/api/jobs",
      "/api/subscribers",
    ])
      expect(await get(path), path).toBe(403);
    const add = await app.request("/api/add-copyright".replace("copyright", "footer-copyright"), {
      method: "POST",
      json: { copyrightText: "© Editors" },
      jar: editor,
    });
    expect(add.status).toBe(201);
  });
});

describe("the staff screen's calls", () => {
  it("invites a new address: an account nobody can sign in to until the mailed link sets its password", async () => {
    const res = await app.request("/api/staff-invite", {
      method: "POST",
      json: { userEmail: "New.Editor@example.org", userRole: "Editor" },
      jar: admin,
    });
    expect(res.status).toBe(201);
    const mail = await inviteMail("new.editor@example.org");
    expect(mail?.setPassword).toBe(true);
    // The link is better-auth's reset-password callback: it sends the browser to the staff's own page (issue 33,
    // item 14), /staff/welcome?token=…, which knows the role, sets the password and signs them in at once.
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail!.url)![1]!;
    const followed = await fetch(mail!.url.replace(/^https?:\/\/[^/]+/, app.url), { redirect: "manual" });
    expect(followed.headers.get("location")).toContain(`/staff/welcome?token=${token}`);
    expect(await app.services.accounts.invitationOf(token)).toEqual({ role: "Editor" });
    const ctx = { ip: "203.0.113.9", headers: new Headers() };
    const signedIn = await app.services.accounts.acceptInvitation({ token, password: "a-long-new-password-9" }, ctx);
    expect(signedIn).toMatchObject({ secondFactor: false, landing: staffHome("Editor") });
    expect(signedIn.headers.get("set-cookie")).toContain("session_token");
    // Spent: the page says so in the staff's words.
    expect(await app.services.accounts.invitationOf(token)).toBeNull();
    await expect(
      app.services.accounts.acceptInvitation({ token, password: "a-long-new-password-9" }, ctx),
    ).rejects.toMatchObject({ status: 400, message: STAFF_WELCOME.expired });
    const jar = await signIn(app, "new.editor@example.org", "a-long-new-password-9");
    expect((await (await app.request("/api/me", { jar })).json()).role).toBe("Editor");
    expect((await app.request("/api/orders", { jar })).status).toBe(403);
    // Twice: a conflict.
    const again = await app.request("/api/staff-invite", {
      method: "POST",
      json: { userEmail: "new.editor@example.org", userRole: "Admin" },
      jar: admin,
    });
    expect(again.status).toBe(409);
  });

  it("an unconfirmed account someone registered with the address loses its password and sessions", async () => {
    const squatter = await signUp(app, "taken@example.org");
    const res = await app.request("/api/staff-invite", {
      method: "POST",
      json: { userEmail: "taken@example.org", userRole: "Editor" },
      jar: admin,
    });
    expect(res.status).toBe(201);
    expect((await app.request("/api/me", { jar: squatter })).status).toBe(401);
    expect((await inviteMail("taken@example.org"))?.setPassword).toBe(true);
  });

  it("a confirmed account is told it can sign in; bad input is a 400", async () => {
    await signUpStaff(app, app.db.pool, "helper@example.org", "Editor");
    await app.db.pool.query(`delete from admin_users where user_email = 'helper@example.org'`);
    const res = await app.request("/api/staff-invite", {
      method: "POST",
      json: { userEmail: "helper@example.org", userRole: "Admin" },
      jar: admin,
    });
    expect(res.status).toBe(201);
    const mail = await inviteMail("helper@example.org");
    expect(mail?.setPassword).toBe(false);
    // The sign-in it links to speaks to staff (issue 33, item 14; the page: e2e staff.test).
    expect(new URL(mail!.url).pathname + new URL(mail!.url).search).toBe("/login?for=staff");
    for (const json of [
      {},
      { userEmail: "x", userRole: "Editor" },
      { userEmail: "a@example.org", userRole: "Owner" },
    ]) {
      const bad = await app.request("/api/staff-invite", { method: "POST", json, jar: admin });
      expect(bad.status, JSON.stringify(json)).toBe(400);
    }
  });

  it("changes a role and removes a member, but never the last Admin", async () => {
    const users = (await (await app.request("/api/users", { jar: admin })).json()) as {
      _id: string;
      userEmail: string;
      userRole: string;
    }[];
    const id = (email: string) => users.find((u) => u.userEmail === email)!._id;
    const put = (userId: string, userRole: string) =>
      app.request(`/api/users/${userId}/role`, { method: "PUT", json: { userRole }, jar: admin });
    // helper@ is an Admin too: the owner may become an Editor, then helper@ is the last Admin.
    expect((await put(id("owner@example.org"), "Editor")).status).toBe(200);
    const helper = await signIn(app, "helper@example.org", CUSTOMER_PASSWORD);
    expect((await put(id("helper@example.org"), "Editor")).status).toBe(403); // the owner is an Editor now
    const last = await app.request(`/api/users/${id("helper@example.org")}/role`, {
      method: "PUT",
      json: { userRole: "Editor" },
      jar: helper,
    });
    expect(last.status).toBe(409);
    expect((await last.json()).error).toContain("last admin");
    const removeLast = await app.request(`/api/users/${id("helper@example.org")}`, { method: "DELETE", jar: helper });
    expect(removeLast.status).toBe(409);
    expect(
      (
        await app.request(`/api/users/${id("owner@example.org")}/role`, {
          method: "PUT",
          json: { userRole: "Admin" },
          jar: helper,
        })
      ).status,
    ).toBe(200);
    const removed = await app.request(`/api/users/${id("ed@example.org")}`, { method: "DELETE", jar: helper });
    expect(removed.status).toBe(200);
    // Off the staff: a customer again.
    expect((await (await app.request("/api/me", { jar: editor })).json()).role).toBe("Customer");
  });
});
