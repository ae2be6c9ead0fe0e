import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockType, pages, type PageKey } from "#app/content/pages.ts";
import { getSection, recordTitle } from "#domain/registry.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { newPage } from "../support/browser";
import { notifyContentChanged, startAdminE2E, type E2EEnv } from "../support/e2e";
import { main } from "../support/pages";

let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

describe("public pages follow app/content/pages.ts", () => {
  it("each page shows the title of every section it declares, in the declared order", async () => {
    const page = await newPage(env.browser, env.server.url);
    for (const key of ["home", "service", "pricing", "contact"] as const satisfies PageKey[]) {
      await page.goto(pages[key].path);
      const text = (await main(page).textContent())!.replace(/\s+/g, " ");
      let from = 0;
      for (const block of pages[key].blocks) {
        const type = blockType(block);
        const first = demoContent.find((r) => r.type === type)!;
        const title = recordTitle(getSection(type)!, first.data).replace(/\s+/g, " ");
        const at = text.indexOf(title, from);
        expect(at, `${key}: ${type} ("${title}") after position ${from}`).toBeGreaterThanOrEqual(0);
        from = at + title.length;
      }
    }
    await page.context().close();
  });
});

describe("the back office, from the registry", () => {
  it("the dashboard's cards are the six screens spec 2 names", async () => {
    await admin.goto("/admin");
    for (const [label, href] of [
      ["Pricing Setting", "/add-pricing/"],
      ["Call to Setting", "/update-calltoaction"],
      ["Testimonial Setting", "/edit-testimonial/"],
      ["Footer Address", "/add-address-footer/"],
      ["Footer Social Link", "/add-social-footer/"],
      ["Footer CopyRight", "/add-copyright"],
    ]) {
      expect(
        await main(admin)
          .getByRole("link", { name: `${label} →` })
          .getAttribute("href"),
        label,
      ).toBe(href);
    }
  });

  it("the settings hub groups the screens by page, each group linking to its page", async () => {
    await admin.goto("/setting");
    for (const page of Object.values(pages)) {
      const group = main(admin).getByRole("region", { name: page.name });
      expect(await group.getByRole("link", { name: `View on site (${page.name})` }).getAttribute("href")).toBe(
        page.path,
      );
    }
    const home = main(admin).getByRole("region", { name: "Home" });
    expect(await home.getByRole("link", { name: /^Update Banner/ }).getAttribute("href")).toBe("/edit-banner");
    const chrome = main(admin).getByRole("region", { name: "Header and footer" });
    expect(await chrome.getByRole("link", { name: /^Update Logo/ }).getAttribute("href")).toBe("/add-logo");

    await main(admin).getByRole("link", { name: "View on site (Pricing page)" }).click();
    await admin.waitForURL((url) => url.pathname === "/pricing");
  });

  it("list screens show their records in the registry's look", async () => {
    // Cards: name, price per month, validity and an 'Edit Pricing' link.
    await admin.goto("/add-pricing/");
    const { rows: packages } = await env.db.pool.query(
      "select id, data from content_entries where type = 'pricing' order by position",
    );
    const card = main(admin).getByRole("listitem").filter({ hasText: packages[0].data.packageName }).first();
    expect(await card.textContent()).toContain(`Valid for ${packages[0].data.packageValidity} days`);
    expect(await card.textContent()).toMatch(/\$\d+(\.\d\d)?\/month/);
    expect(await card.getByRole("link", { name: "Edit Pricing" }).getAttribute("href")).toBe(
      `/package-edit/${packages[0].id}`,
    );

    // Steps: boxes headed 'Step N', each title linking to its edit screen.
    await admin.goto("/step-section");
    const { rows: steps } = await env.db.pool.query(
      "select id, data from content_entries where type = 'step' order by position limit 1",
    );
    expect(await main(admin).getByText(`Step ${steps[0].data.stepNumber}`, { exact: true }).count()).toBe(1);
    expect(await main(admin).getByRole("link", { name: steps[0].data.stepTitle }).getAttribute("href")).toBe(
      `/edit-step/${steps[0].id}`,
    );

    // Numbers: the work section lists 01 to 04 only, even when another record exists.
    await env.db.pool.query(
      `insert into content_entries (type, data, position) values ('workStep', '{"stepNumber":"05","stepTitle":"Extra","stepDetails":"x","stapIcon":"/images/logo.svg"}', 99)`,
    );
    await notifyContentChanged(env.db);
    await admin.goto("/edit-work");
    const numbers = await main(admin)
      .getByRole("link", { name: /^0\d$/ })
      .evaluateAll((els) => els.map((e) => e.textContent));
    expect(numbers).toEqual(["01", "02", "03", "04"]);
  });
});
