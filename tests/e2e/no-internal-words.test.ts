import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, signUpStaff } from "../support/accounts";
import { newPage } from "../support/browser";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { logIn, placeOrder } from "../support/pages";
import { adminPages, customerPages, fromRecords, PUBLIC_PAGES } from "../support/routes";

/**
 * Issue 28, part 4: words meant for us do not reach the people using the site. The text a page shows (its title, its
 * body's text, hidden parts such as dialogs and menus included, and the attributes read out or shown: alt, title,
 * placeholder, aria-label, the meta description) never names the spec, a decision or an issue by number. Comments and
 * scripts are not shown, so they are not read.
 */
const INTERNAL = /\bspec(?:s|'s|’s)?\b|\bspecification\b|\bdecision \d+|\bissue #?\d+|\bDESIGN\.md\b/i;

/** The public pages, with the pages a visitor meets beside them. */
const PUBLIC = [
  ...new Set([...PUBLIC_PAGES, "/reset", "/not-a-page", "/newsletter/confirm/not-a-token", "/account/email-confirmed"]),
];
/** The signed-in customer's pages, from app/routes.ts. */
const CUSTOMER = customerPages();

let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
  await signUpStaff(env.server, env.db.pool, "editor@example.org", "Editor");
}, 120_000);
afterAll(() => env?.close());

/** What the open page shows a person, as one string per place, each with what it is (for the failure's message). */
function shownText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const body = document.body.cloneNode(true) as HTMLElement;
    for (const hidden of body.querySelectorAll("script, style, template")) hidden.remove();
    const texts = [`title: ${document.title}`, `text: ${body.textContent ?? ""}`];
    const description = document.querySelector('meta[name="description"]')?.getAttribute("content");
    if (description) texts.push(`description: ${description}`);
    for (const el of document.body.querySelectorAll("[alt], [title], [placeholder], [aria-label]")) {
      for (const name of ["alt", "title", "placeholder", "aria-label"]) {
        const value = el.getAttribute(name);
        if (value) texts.push(`${name}: ${value}`);
      }
    }
    return texts;
  });
}

/** Each internal word found on the pages, with the page and a few words around it. */
async function internalWords(page: Page, paths: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    for (const text of await shownText(page)) {
      const flat = text.replace(/\s+/g, " ");
      const m = INTERNAL.exec(flat);
      if (m) found.push(`${path}: “…${flat.slice(Math.max(0, m.index - 60), m.index + 40)}…”`);
    }
  }
  return found;
}

describe("no internal words in what people read", () => {
  it("the pattern finds what it is for, and leaves ordinary words alone", () => {
    for (const s of ["(the spec's rule)", "see spec 2", "as decision 039 says", "Issue 28", "the specs"])
      expect(s, s).toMatch(INTERNAL);
    for (const s of ["special", "specific", "inspect", "a decision", "no issues", "respect"])
      expect(s, s).not.toMatch(INTERNAL);
  });

  it("public pages", { timeout: 120_000 }, async () => {
    const page = await newPage(env.browser, env.server.url);
    expect(await internalWords(page, PUBLIC)).toEqual([]);
    await page.context().close();
  });

  it("a customer's pages, with an order", { timeout: 120_000 }, async () => {
    await signUp(env.server, "maya@example.org", { password: "quiet-harbour-71" });
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, "maya@example.org", "quiet-harbour-71");
    const order = await placeOrder(page, {});
    const paths = [...CUSTOMER, "/pending-order", `/pay-now/${order}`, `/order-cancelled/${order}`];
    expect(await internalWords(page, paths)).toEqual([]);
    await page.context().close();
  });

  it("every back-office page, for an Admin", { timeout: 300_000 }, async () => {
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, ADMIN.email, ADMIN.password);
    // Every page with a record to show; a page whose parameter tests/support/routes.ts cannot fill yet (one being
    // built) is left out here, not failed: the permission and accessibility suites hold it to being filled.
    // A customer's order as a PayPal subscription (the row its sign-up makes), for the studio's Mark cancelled page.
    const jar = await signUp(env.server, "sub-words@example.org", { password: "quiet-harbour-71" });
    const [pkg] = (await (await fetch(env.server.url + "/api/pricings")).json()) as { _id: string }[];
    const placed = await fetch(env.server.url + "/api/new-order", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: jar.header() },
      body: JSON.stringify({
        packageId: pkg!._id,
        customerName: "Sol Words",
        customerAddress: "1 Row",
        customerCountry: "UK",
      }),
    });
    const { insertedId } = (await placed.json()) as { insertedId: string };
    await env.db.pool.query(
      "insert into subscriptions (subscr_id, order_id, user_id, signed_up_at) select 'I-WORDS', id, user_id, now() from orders where id = $1",
      [insertedId],
    );
    const fill = fromRecords(env.db.pool);
    const paths = await adminPages({
      fill: (param, route) => Promise.resolve(fill(param, route)).catch(() => undefined),
    });
    expect(paths.some((p) => /^\/subscriptions\/[^/]+\/cancel$/.test(p))).toBe(true);
    // The users screen, and the orders desk whose settings' help once said "(the spec's rule)".
    expect(paths).toEqual(expect.arrayContaining(["/add-user", "/total-orders"]));
    expect(await internalWords(page, paths)).toEqual([]);
    await page.context().close();
  });
});
