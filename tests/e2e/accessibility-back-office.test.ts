import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { signUpStaff } from "../support/accounts";
import { violations } from "../support/axe";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { logIn } from "../support/pages";
import { adminPages, customerPages } from "../support/routes";

/**
 * axe-core over the customer's pages and every page of the back office, at desktop and phone widths
 * (tests/support/axe.ts): the longest part of the accessibility checks, in a file of its own so that it runs beside
 * accessibility.test.ts.
 */
/** The customer's pages and the back office's come from app/routes.ts (customerPages, adminPages), those without parameters. */

let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
  // The users screen's Staff section (decision 036) with an Editor beside the admin: a row of each role.
  await signUpStaff(env.server, env.db.pool, "editor@example.org", "Editor");
});
afterAll(() => env?.close());

describe("accessibility of the customer's and the back office's pages (axe-core, WCAG 2.1 AA)", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    // Every admin page of app/routes.ts, about forty pages in all: longer than the default minute on a loaded machine.
    it(`customer and back-office pages at ${name} width`, { timeout: 180_000 }, async () => {
      const page = await newPage(env.browser, env.server.url, { viewport });
      await logIn(page, ADMIN.email, ADMIN.password);
      const [pkg] = (await (await fetch(env.server.url + "/api/pricings")).json()) as { _id: string }[];
      const found: string[] = [];
      const paths = [...customerPages(), ...(await adminPages()), "/search-listings/home", `/order-now/${pkg!._id}`];
      expect(paths).toContain("/add-user");
      for (const path of paths) found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
      await page.context().close();
    });
  }
});
