import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_AREAS } from "#app/content/admin-screens.ts";
import { MESSAGES } from "#domain/account-forms.ts";
import { STAFF_RESET, STAFF_SIGN_IN, STAFF_WELCOME, staffRefusal } from "#domain/staff-words.ts";
import { can, staffHome } from "#domain/capabilities.ts";
import { signUpStaff } from "../support/accounts";
import { newPage } from "../support/browser";
import { ADMIN, startAdminE2E, type E2EEnv } from "../support/e2e";
import { linkOf, outbox } from "../support/mail";
import { backOfficeNavLabels, heading, logIn, main, toast } from "../support/pages";

/**
 * Staff roles in the browser (decision 036): the admin invites an Editor on /add-user, the Editor follows the mailed
 * link, chooses a password, signs in and gets only their areas; the admin changes a role and removes a member, never
 * the last Admin. The same forms once more without JavaScript, as plain posts.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

const EDITOR = { email: "editor@example.org", password: "harbour-lantern-meadow-42" };
const LAST_ADMIN = "The last admin cannot be removed or made an Editor: make someone else an Admin first.";

const path = (page: Page) => new URL(page.url()).pathname;
const sql = async (query: string, values: unknown[] = []) => (await env.db.pool.query(query, values)).rows;
const roleOf = async (email: string) =>
  (await sql("select user_role from admin_users where user_email = $1", [email]))[0]?.user_role as string | undefined;
const row = (page: Page, email: string): Locator =>
  page.getByTestId("staff-row").filter({ has: page.getByLabel(`Role of ${email}`, { exact: true }) });
/** The staff invitation mailed to an address (written to the server's outbox: no SMTP_URL in the tests). */
const invitations = (email: string) =>
  outbox(env.server.dataDir).filter((m) => m.to[0] === email && m.subject.includes("invited to the"));

describe("staff roles on the users screen", () => {
  it("an admin invites an Editor, who sets a password from the mail, signs in and gets only their areas", async () => {
    await admin.goto("/add-user");
    const form = admin.getByTestId("invite-form");
    expect(await form.getByLabel("Role").inputValue()).toBe("Editor");
    await form.getByLabel("Email").fill(EDITOR.email);
    await form.getByRole("button", { name: "Send invitation" }).click();
    await expect.poll(() => toast(admin, "Invitation sent: a link to choose a password").count()).toBe(1);
    await expect.poll(() => row(admin, EDITOR.email).count()).toBe(1);
    expect(await row(admin, EDITOR.email).textContent()).toContain("Editor");
    expect(await form.getByLabel("Email").inputValue()).toBe("");
    expect(await roleOf(EDITOR.email)).toBe("Editor");

    await expect.poll(() => invitations(EDITOR.email).length, { timeout: 20_000 }).toBe(1);
    const link = linkOf(invitations(EDITOR.email)[0]!.raw);
    expect(link).toContain("/api/auth/reset-password/");

    const editor = await newPage(env.browser, env.server.url);
    await editor.goto(link);
    // Staff get their own words in the back office's frame (issue 33, item 14): not the customer's reset page, no
    // marketing header, no "Sign Up".
    await editor.waitForURL((u) => u.pathname === "/staff/welcome");
    await expect.poll(() => heading(editor).textContent()).toBe(STAFF_WELCOME.title);
    expect(await editor.getByText(STAFF_WELCOME.lead("Editor")).count()).toBe(1);
    expect(await editor.getByRole("banner").count()).toBe(0);
    expect(await editor.getByRole("contentinfo").count()).toBe(0);
    expect(await editor.getByText("Don't have an account?").count()).toBe(0);
    expect(await editor.getByText("Choose a new password").count()).toBe(0);
    // A staff password needs 12 characters: refused at the field, then the long one is taken.
    await editor.getByLabel(STAFF_WELCOME.field).fill("short-pass1");
    await editor.getByRole("button", { name: STAFF_WELCOME.button }).click();
    await expect.poll(() => editor.getByText(MESSAGES.staffPasswordShort).count()).toBeGreaterThan(0);
    expect(path(editor)).toBe("/staff/welcome");
    await editor.getByLabel(STAFF_WELCOME.field).fill(EDITOR.password);
    await editor.getByRole("button", { name: STAFF_WELCOME.button }).click();
    // Signed in at once: straight to their back office, never the customer's sign-in page.
    await editor.waitForURL((u) => u.pathname === staffHome("Editor"));
    expect(await editor.getByText("Your password has been changed").count()).toBe(0);
    // Staff land on their back office (issue 26, decision 040): an Editor's starts on the site content.
    expect(path(editor)).toBe(staffHome("Editor"));
    // The link works once.
    const again = await newPage(env.browser, env.server.url);
    await again.goto(link);
    await again.waitForURL((u) => u.pathname === "/staff/welcome");
    await expect.poll(() => again.getByText(STAFF_WELCOME.expired).count()).toBe(1);
    expect(await again.getByText("Ask for a new link").count()).toBe(0);
    await again.context().close();
    // From the public site, staff get the header's Admin link, to the same place.
    await editor.goto("/dashboard");
    await editor.getByRole("banner").getByRole("link", { name: "Admin" }).click();
    await editor.waitForURL((u) => u.pathname === staffHome("Editor"));
    expect(path(editor)).toBe("/setting");
    const labels = () => backOfficeNavLabels(editor);
    // The client-side navigation from the dashboard renders the layout a moment after the address changes.
    await expect.poll(labels).toEqual(ADMIN_AREAS.filter((a) => can("Editor", a.area)).map((a) => a.label));
    expect(await labels()).not.toContain("Orders");
    expect(await labels()).not.toContain("Users");

    const banner = await editor.goto("/edit-banner");
    expect(banner!.status()).toBe(200);
    expect(await main(editor).getByRole("link", { name: "Edit Banner Section" }).count()).toBe(1);

    const orders = await editor.goto("/total-orders");
    expect(orders!.status()).toBe(403);
    expect(await heading(editor).textContent()).toBe("You don't have any permission");
    // The refusal speaks to staff, in the back office: their role, who can change it, the way back; no public links.
    expect(await main(editor).getByText(staffRefusal("Editor")).count()).toBe(1);
    expect(await editor.getByRole("link", { name: "Contact Us" }).count()).toBe(0);
    expect(await editor.getByRole("link", { name: "Back Home" }).count()).toBe(0);
    await main(editor).getByRole("link", { name: "Back to the back office" }).click();
    await editor.waitForURL((u) => u.pathname === staffHome("Editor"));
    await editor.context().close();
  });

  it("an invitation to a confirmed account links to the sign-in in staff words, without the customer's Sign Up", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/login?for=staff");
    expect(await heading(page).textContent()).toBe(STAFF_SIGN_IN.title);
    expect(await page.getByText(STAFF_SIGN_IN.subtitle).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Sign Up" }).count()).toBe(0);
    await main(page).getByLabel("Email", { exact: true }).fill(EDITOR.email);
    await main(page).getByLabel("Password", { exact: true }).fill(EDITOR.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((u) => u.pathname === staffHome("Editor"));
    await page.context().close();
  });

  it("a staff member who forgot their password chooses a new one in the back office's frame and words", async () => {
    const resets = () =>
      outbox(env.server.dataDir).filter((m) => m.to[0] === EDITOR.email && m.subject === "Reset your password");
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/reset");
    await main(page).getByLabel("Email", { exact: true }).fill(EDITOR.email);
    await main(page).getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => resets().length, { timeout: 20_000 }).toBe(1);
    const link = linkOf(resets()[0]!.raw);
    await page.goto(link);
    // Not the customer's "Choose a new password" with its Sign Up, nor the invitation's welcome.
    await page.waitForURL((u) => u.pathname === "/staff/welcome");
    await expect.poll(() => heading(page).textContent()).toBe(STAFF_RESET.title);
    expect(await page.getByText(STAFF_RESET.lead("Editor")).count()).toBe(1);
    expect(await page.getByText(STAFF_WELCOME.lead("Editor")).count()).toBe(0);
    expect(await page.getByRole("banner").count()).toBe(0);
    expect(await page.getByRole("contentinfo").count()).toBe(0);
    expect(await page.getByText("Don't have an account?").count()).toBe(0);
    await page.getByLabel(STAFF_WELCOME.field).fill(EDITOR.password);
    await page.getByRole("button", { name: STAFF_RESET.button }).click();
    // Signed in at once, on their back office.
    await page.waitForURL((u) => u.pathname === staffHome("Editor"));
    // The link works once, and says so in the same words.
    const again = await newPage(env.browser, env.server.url);
    await again.goto(link);
    await again.waitForURL((u) => u.pathname === "/staff/welcome");
    await expect.poll(() => heading(again).textContent()).toBe(STAFF_RESET.title);
    expect(await again.getByText(STAFF_RESET.expired).count()).toBe(1);
    await again.context().close();
    await page.context().close();
  });

  it("the admin makes the Editor an Admin and removes another member; the last Admin cannot be made an Editor", async () => {
    await signUpStaff(env.server, env.db.pool, "leaving@example.org", "Editor");
    await admin.goto("/add-user");

    const editorRow = row(admin, EDITOR.email);
    await editorRow.getByLabel(`Role of ${EDITOR.email}`).selectOption("Admin");
    await editorRow.getByRole("button", { name: "Change role" }).click();
    await expect.poll(() => toast(admin, "Role is changed").count()).toBe(1);
    await expect.poll(() => roleOf(EDITOR.email)).toBe("Admin");
    await expect.poll(async () => (await row(admin, EDITOR.email).textContent())?.includes("Admin")).toBe(true);

    // The new Admin opens the orders desk on their next request.
    const promoted = await newPage(env.browser, env.server.url);
    await logIn(promoted, EDITOR.email, EDITOR.password);
    expect((await promoted.goto("/total-orders"))!.status()).toBe(200);
    await promoted.context().close();

    // Remove asks first; dismissed, nothing happens; accepted, the member is off the staff.
    const leaving = row(admin, "leaving@example.org");
    admin.once("dialog", (d) => void d.dismiss());
    await leaving.getByRole("button", { name: "Remove" }).click();
    expect(await roleOf("leaving@example.org")).toBe("Editor");
    admin.once("dialog", (d) => {
      expect(d.message()).toBe("Remove leaving@example.org from the staff?");
      void d.accept();
    });
    await leaving.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => toast(admin, "Staff member is removed").count()).toBe(1);
    await expect.poll(() => row(admin, "leaving@example.org").count()).toBe(0);
    expect(await roleOf("leaving@example.org")).toBeUndefined();
    // Their account stays, as a customer's.
    expect(await sql(`select 1 from "user" where email = 'leaving@example.org'`)).toHaveLength(1);

    // Back to one Admin: the Editor again; then the first admin, the last Admin, cannot become an Editor.
    await row(admin, EDITOR.email).getByLabel(`Role of ${EDITOR.email}`).selectOption("Editor");
    await row(admin, EDITOR.email).getByRole("button", { name: "Change role" }).click();
    await expect.poll(() => roleOf(EDITOR.email)).toBe("Editor");
    const me = row(admin, ADMIN.email);
    expect(await me.textContent()).toContain("(you)");
    await me.getByLabel(`Role of ${ADMIN.email}`).selectOption("Editor");
    await me.getByRole("button", { name: "Change role" }).click();
    await expect.poll(() => admin.getByRole("alert").filter({ hasText: LAST_ADMIN }).count()).toBeGreaterThan(0);
    expect(await roleOf(ADMIN.email)).toBe("Admin");
    // Nor removed.
    admin.once("dialog", (d) => void d.accept());
    await me.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => admin.getByRole("alert").filter({ hasText: LAST_ADMIN }).count()).toBeGreaterThan(0);
    expect(await roleOf(ADMIN.email)).toBe("Admin");
    await admin.reload();
    expect(await row(admin, ADMIN.email).count()).toBe(1);
  });
});

describe("the staff forms without JavaScript", () => {
  async function noScript(): Promise<Page> {
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>external</title>" }),
    );
    return context.newPage();
  }
  /** Submits as a browser without JavaScript does: a navigation to the form's action, with no script run. */
  async function post(page: Page, button: Locator) {
    await button.click();
    await page.waitForLoadState();
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
  }

  it("invite, change a role and remove are plain posts; the last Admin's refusal comes back with the page", async () => {
    const page = await noScript();
    await page.goto("/login");
    await main(page).getByLabel("Email", { exact: true }).fill(ADMIN.email);
    await main(page).getByLabel("Password", { exact: true }).fill(ADMIN.password);
    await post(page, main(page).getByRole("button", { name: "Login" }));
    expect(path(page)).not.toBe("/login");
    await page.goto("/add-user");
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);

    // Invite: refused with what was typed and the field's message, then sent.
    const plain = "plain-staff@example.org";
    let form = page.getByTestId("invite-form");
    await form.getByLabel("Email").fill("not-an-email");
    await post(page, form.getByRole("button", { name: "Send invitation" }));
    form = page.getByTestId("invite-form");
    const email = form.getByLabel("Email");
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    expect(await email.inputValue()).toBe("not-an-email");
    await email.fill(plain);
    await form.getByLabel("Role").selectOption("Editor");
    await post(page, form.getByRole("button", { name: "Send invitation" }));
    expect(await toast(main(page), "Invitation sent: a link to choose a password").count()).toBe(1);
    expect(await roleOf(plain)).toBe("Editor");
    expect(await row(page, plain).count()).toBe(1);
    await expect.poll(() => invitations(plain).length, { timeout: 20_000 }).toBe(1);

    // Change the role.
    await row(page, plain).getByLabel(`Role of ${plain}`).selectOption("Admin");
    await post(page, row(page, plain).getByRole("button", { name: "Change role" }));
    expect(await toast(main(page), "Role is changed").count()).toBe(1);
    expect(await roleOf(plain)).toBe("Admin");
    expect(await row(page, plain).textContent()).toContain("Admin");

    // Remove (without a script there is no confirmation: the post itself removes).
    await post(page, row(page, plain).getByRole("button", { name: "Remove" }));
    expect(await toast(main(page), "Staff member is removed").count()).toBe(1);
    expect(await roleOf(plain)).toBeUndefined();
    expect(await row(page, plain).count()).toBe(0);

    // The last Admin: the refusal is in the page that comes back.
    await row(page, ADMIN.email).getByLabel(`Role of ${ADMIN.email}`).selectOption("Editor");
    await post(page, row(page, ADMIN.email).getByRole("button", { name: "Change role" }));
    expect(await main(page).getByRole("alert").filter({ hasText: LAST_ADMIN }).count()).toBe(1);
    expect(await roleOf(ADMIN.email)).toBe("Admin");
    await page.context().close();
  });
});
