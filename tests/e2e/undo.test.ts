import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContent } from "#server/seed/demo-content.ts";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { logIn, main, toast } from "../support/pages";

/**
 * Issue 26, part 5 (decision 039), in Chromium at 1280, 1024 and 390 px: the admin deletes a testimonial, finds it in
 * the trash and restores it (the home page shows it again); changes the banner's heading, then restores the older
 * heading from the activity log after its confirmation (the home page shows it again); archives a message and brings
 * it back.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const demo = (type: string) => demoContent.filter((r) => r.type === type).map((r) => r.data as Record<string, string>);
const ORIGINAL_HEADING = demo("banner")[0]!.bannerHeading!;
/** The home page as a visitor gets it (the page cache's copy, which a change must drop). */
const home = async () => (await (await fetch(env.server.url + "/")).text()).replace(/&#x27;|&#39;/g, "'");
const path = (page: Page) => new URL(page.url()).pathname;

const WIDTHS = [
  ["1280", DESKTOP],
  ["1024", { width: 1024, height: 768 }],
  ["390", PHONE],
] as const;

describe.each(WIDTHS)("undo at %s px", (width, viewport) => {
  let admin: Page;
  beforeAll(async () => {
    admin = await newPage(env.browser, env.server.url, { viewport });
    await logIn(admin, ADMIN.email, ADMIN.password);
  });
  afterAll(() => admin?.context().close());

  it("restores a deleted testimonial from the trash", async () => {
    const person = demo("testimonial")[1]!.personName!;
    expect(await home()).toContain(person);

    await admin.goto("/edit-testimonial/");
    await main(admin)
      .getByRole("button", { name: `Delete ${person}` })
      .click();
    const dialog = admin.getByTestId("delete-dialog-testimonial");
    expect(await dialog.textContent()).toContain("It stays in the trash for 30 days, where it can be restored.");
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await toast(admin, "Testimonial deleted").waitFor();
    expect(await home()).not.toContain(person);

    await admin.goto("/trash");
    const row = main(admin).getByTestId("trash");
    expect(await row.textContent()).toContain(person);
    expect(await row.textContent()).toContain(ADMIN.email);
    await main(admin)
      .getByRole("button", { name: `Restore ${person}` })
      .click();
    await toast(admin, `Restored: “${person}”.`).waitFor();
    await main(admin).getByText("The trash is empty.").waitFor();
    expect(await home()).toContain(person);
    // Back in its place: the second of the list again.
    await admin.goto("/edit-testimonial/");
    const names = demo("testimonial").map((t) => t.personName!);
    const text = (await main(admin).textContent())!;
    expect(names.map((n) => text.indexOf(n))).toEqual([...names.map((n) => text.indexOf(n))].sort((a, b) => a - b));
  });

  it("restores an older banner heading from the activity log, after its confirmation", async () => {
    const changed = `Rooms that breathe (${width})`;
    await admin.goto("/edit-banner");
    await main(admin).getByRole("link", { name: "Edit Banner Section" }).click();
    await admin.waitForURL((u) => u.pathname.startsWith("/banner/"));
    await main(admin).getByLabel("Banner Heading", { exact: true }).fill(changed);
    await main(admin).getByRole("button", { name: "Update Banner" }).click();
    await toast(admin, "Banner is Updated").waitFor();
    expect(await home()).toContain(changed);

    await admin.goto("/activity?kind=content%3Abanner");
    await main(admin).getByRole("link", { name: "Restore this version" }).first().click();
    const dialog = admin.getByTestId("restore-version");
    await dialog.waitFor();
    expect(await dialog.getByRole("heading").first().textContent()).toBe("Restore this version?");
    const shown = (await dialog.textContent())!;
    expect(shown).toContain("Banner Heading");
    expect(shown).toContain(`Now: ${changed}`);
    expect(shown).toContain(`Restored: ${ORIGINAL_HEADING}`);
    await dialog.getByRole("button", { name: "Restore this version" }).click();
    await toast(admin, "Version restored").waitFor();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(path(admin)).toBe("/activity");
    expect(await home()).toContain(ORIGINAL_HEADING);
    expect(await home()).not.toContain(changed);
    // The restore is itself a change in the log, newest first.
    await admin.goto("/activity?kind=content%3Abanner");
    const newest = main(admin).getByTestId("activity").locator("tr.data-row").first();
    expect(await newest.textContent()).toContain(ORIGINAL_HEADING);
  });

  it("archives a message and brings it back to the inbox", async () => {
    const subject = `A question at ${width}`;
    const sent = await fetch(env.server.url + "/api/add-message", {
      method: "POST",
      headers: { "content-type": "application/json", origin: env.server.url },
      body: JSON.stringify({
        name: "Ada",
        email: "ada@example.org",
        number: "",
        subject,
        message: "Do you do kitchens?",
      }),
    });
    expect(sent.status).toBe(201);
    await admin.goto("/all-messages");
    await main(admin)
      .getByRole("button", { name: `Archive: ${subject}` })
      .click();
    await toast(admin, "Message archived").waitFor();
    await expect.poll(async () => (await main(admin).textContent())!.includes(subject)).toBe(false);
    await main(admin).getByRole("link", { name: "Archived" }).click();
    await admin.waitForURL((u) => u.search === "?view=archived");
    await main(admin)
      .getByRole("button", { name: `Move to inbox: ${subject}` })
      .click();
    await toast(admin, "Message moved back to the inbox").waitFor();
    await admin.goto("/all-messages");
    expect(await main(admin).getByTestId("unread-messages").textContent()).toContain(subject);
  });
});
