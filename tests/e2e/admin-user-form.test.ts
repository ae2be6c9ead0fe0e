import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, signUpStaff } from "../support/accounts";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, toast } from "../support/pages";

/**
 * Issue 28, part 4: the spec's admin user form carries its hidden userRole (default 'Admin', the only value offered),
 * on the add form and on the edit form, and the server takes no other value from it.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E());
  // A second Admin: the users screen then shows the add form (with exactly one, only its edit link).
  await signUpStaff(env.server, env.db.pool, "partner@example.org", "Admin");
  await signUp(env.server, "new-address@example.org");
  await env.db.pool.query(`update "user" set email_verified = true where email = 'new-address@example.org'`);
}, 120_000);
afterAll(() => env?.close());

const roleOf = async (email: string) =>
  (await env.db.pool.query("select user_role from admin_users where user_email = $1", [email])).rows[0]?.user_role;

describe("the admin user form's hidden userRole", () => {
  it("the add form posts userRole 'Admin', hidden, and offers no other role", async () => {
    await admin.goto("/add-user");
    const form = main(admin)
      .locator("form")
      .filter({ has: admin.getByRole("button", { name: "Add Admin" }) });
    const role = form.locator('input[name="userRole"]');
    expect(await role.count()).toBe(1);
    expect(await role.getAttribute("type")).toBe("hidden");
    expect(await role.getAttribute("value")).toBe("Admin");
    expect(await form.getByRole("combobox").count()).toBe(0);
  });

  it("the edit form carries the role they have, keeps it, and refuses another one", async () => {
    const { rows } = await env.db.pool.query("select id from admin_users where user_email = 'partner@example.org'");
    await admin.goto(`/admin-user/${rows[0].id}`);
    const form = main(admin)
      .locator("form")
      .filter({ has: admin.getByRole("button", { name: "Update Admin" }) });
    expect(await form.locator('input[type="hidden"][name="userRole"]').getAttribute("value")).toBe("Admin");

    // A form whose hidden role was changed (by hand, or a stale page) changes nothing.
    // The address is typed first: a render while typing would draw the hidden role again.
    await form.getByLabel("Admin email").fill("new-address@example.org");
    await form.locator('input[name="userRole"]').evaluate((input: HTMLInputElement) => (input.value = "Editor"));
    await form.getByRole("button", { name: "Update Admin" }).click();
    await expect
      .poll(() =>
        admin.getByRole("alert").filter({ hasText: "Their role changed meanwhile: open this page again." }).count(),
      )
      .toBe(1);
    expect(await roleOf("partner@example.org")).toBe("Admin");
    expect(await roleOf("new-address@example.org")).toBeUndefined();

    // As sent: the address changes, the role stays Admin.
    await admin.goto(`/admin-user/${rows[0].id}`);
    await form.getByLabel("Admin email").fill("new-address@example.org");
    await form.getByRole("button", { name: "Update Admin" }).click();
    await expect.poll(() => toast(admin, "Admin user is updated").count()).toBe(1);
    expect(await roleOf("new-address@example.org")).toBe("Admin");
  });
});
