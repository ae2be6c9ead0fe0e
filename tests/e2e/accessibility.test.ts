import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { signIn, signUp, signUpStaff } from "../support/accounts";
import { violations } from "../support/axe";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { logIn } from "../support/pages";
import { adminPages } from "../support/routes";

/**
 * axe-core over every kind of page, at desktop and phone widths (tests/support/axe.ts). Any violation fails, with what
 * and where.
 */
const PUBLIC = [
  "/",
  "/service/",
  "/pricing",
  "/contact",
  "/thanks",
  "/privacy",
  "/terms",
  "/login",
  "/register",
  "/reset",
  "/not-a-page",
  "/newsletter/confirm/not-a-token",
  "/newsletter/unsubscribe/not-a-token",
  "/account/email-confirmed",
  "/account/email-confirmed?error=INVALID_TOKEN",
];
/** The customer's pages; the back office's come from app/routes.ts (adminPages), every one without parameters. */
const CUSTOMER = [
  "/dashboard",
  "/my-order",
  "/account",
  "/account/password",
  "/account/sessions",
  "/account/security",
  "/account/subscriptions",
];

let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
  // The users screen's Staff section (decision 036) with an Editor beside the admin: a row of each role.
  await signUpStaff(env.server, env.db.pool, "editor@example.org", "Editor");
});
afterAll(() => env?.close());

describe("accessibility (axe-core, WCAG 2.1 AA)", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`public pages at ${name} width`, async () => {
      const page = await newPage(env.browser, env.server.url, { viewport });
      const found: string[] = [];
      for (const path of PUBLIC) found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
      await page.context().close();
    });

    // Every admin page of app/routes.ts, about forty pages in all: longer than the default minute on a loaded machine.
    it(`customer and back-office pages at ${name} width`, { timeout: 180_000 }, async () => {
      const page = await newPage(env.browser, env.server.url, { viewport });
      await logIn(page, ADMIN.email, ADMIN.password);
      const [pkg] = (await (await fetch(env.server.url + "/api/pricings")).json()) as { _id: string }[];
      const found: string[] = [];
      const paths = [...CUSTOMER, ...(await adminPages()), "/search-listings/home", `/order-now/${pkg!._id}`];
      expect(paths).toContain("/add-user");
      for (const path of paths) found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
      await page.context().close();
    });
  }
});

// Issue 26, part 5 (decision 039): the trash with something in it, the confirmation of "Restore this version", and
// the archived messages.
describe("accessibility of the trash, Restore this version and archived messages (axe-core, WCAG 2.1 AA)", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`at ${name} width`, async () => {
      const admin = await newPage(env.browser, env.server.url, { viewport });
      await logIn(admin, ADMIN.email, ADMIN.password);
      const api = (method: string, path: string, data?: unknown) =>
        admin.request.fetch(path, { method, data, headers: { origin: env.server.url } });
      const [faq] = (await (await api("GET", "/api/faq-items")).json()) as { _id: string }[];
      expect((await api("DELETE", `/api/faq-item/${faq!._id}`)).status()).toBe(200);
      const [banner] = (await (await api("GET", "/api/banner")).json()) as ({ _id: string } & object)[];
      const changed = { ...banner, _id: undefined, bannerHeading: `Changed at ${name}` };
      expect((await api("PUT", `/api/update-banner/${banner!._id}`, changed)).status()).toBe(200);
      const message = {
        name: "Ada",
        email: "ada@example.org",
        number: "",
        subject: "Archived",
        message: "Hello there.",
      };
      const sent = (await (await api("POST", "/api/add-message", message)).json()) as { insertedId: string };
      expect((await api("PUT", `/api/message/${sent.insertedId}/archive`, { archived: true })).status()).toBe(200);
      const [entry] = (
        await env.db.pool.query(
          "select id from activity_log where entity = 'content:banner' order by created_at desc limit 1",
        )
      ).rows as { id: string }[];
      const found: string[] = [];
      for (const path of [
        "/trash",
        `/trash?purge=${faq!._id}`,
        `/activity?restore=${entry!.id}`,
        "/all-messages?view=archived",
      ])
        found.push(...(await violations(admin, path)));
      expect(found).toEqual([]);
      await admin.context().close();
    });
  }
});

// Issue 25: my data and delete account as a customer sees them, and the back office's erasure page.
describe("accessibility of my data, delete account and erasure (axe-core, WCAG 2.1 AA)", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`at ${name} width`, async () => {
      const who = { email: `privacy-${name}@example.org`, password: "privacy-pass-12" };
      await signUp(env.server, who.email, { password: who.password });
      const [{ id }] = (await env.db.pool.query(`select id from "user" where email = $1`, [who.email])).rows;
      const customer = await newPage(env.browser, env.server.url, { viewport });
      await logIn(customer, who.email, who.password);
      const admin = await newPage(env.browser, env.server.url, { viewport });
      await logIn(admin, ADMIN.email, ADMIN.password);
      const found: string[] = [];
      for (const path of ["/account/data", "/account/delete", "/account/deleted"])
        found.push(...(await violations(customer, path)));
      found.push(...(await violations(admin, `/customers/${id}/delete`)));
      expect(found).toEqual([]);
      await customer.context().close();
      await admin.context().close();
    });
  }
});

// Issue 26, part 3: an invoice (decision 038) as its customer and the studio see it, with My Orders' and the order
// screen's links to it; /invoice-settings is among the back-office pages above.
describe("accessibility of invoices (axe-core, WCAG 2.1 AA)", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`at ${name} width`, async () => {
      const who = { email: `invoice-${name}@example.org`, password: "invoice-pass-12" };
      const jar = await signUp(env.server, who.email, { password: who.password });
      const [pkg] = (await (await fetch(env.server.url + "/api/pricings")).json()) as { _id: string }[];
      const placed = await fetch(env.server.url + "/api/new-order", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: jar.header() },
        body: JSON.stringify({
          packageId: pkg!._id,
          customerName: "Ada Axe",
          customerAddress: "1 Rule Row, York",
          customerCountry: "UK",
        }),
      });
      const { insertedId: id } = (await placed.json()) as { insertedId: string };
      const staff = await signIn(env.server, ADMIN.email, ADMIN.password);
      const paid = await fetch(`${env.server.url}/api/order/${id}`, {
        method: "PUT",
        headers: { "content-type": "application/json", cookie: staff.header() },
        body: JSON.stringify({ paymentStatus: "Paid" }),
      });
      expect(paid.status).toBe(200);
      const [{ number }] = (await env.db.pool.query("select number from orders where id = $1", [id])).rows;
      const customer = await newPage(env.browser, env.server.url, { viewport });
      await logIn(customer, who.email, who.password);
      const admin = await newPage(env.browser, env.server.url, { viewport });
      await logIn(admin, ADMIN.email, ADMIN.password);
      const found: string[] = [];
      for (const path of [`/invoice/${number}`, "/my-order"]) found.push(...(await violations(customer, path)));
      for (const path of [`/invoice/${number}`, `/admin/payment-status/${id}`])
        found.push(...(await violations(admin, path)));
      expect(found).toEqual([]);
      await customer.context().close();
      await admin.context().close();
    });
  }
});

// Issue 27 (decision 049) and issue 28 (decision 048): a discount code's own page, and the confirmation a customer is
// asked before an unpaid order is cancelled.
describe("accessibility of a discount code and of cancelling an order (axe-core, WCAG 2.1 AA)", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`at ${name} width`, async () => {
      const staff = await signIn(env.server, ADMIN.email, ADMIN.password);
      const added = await fetch(env.server.url + "/api/discount-codes", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: staff.header(), origin: env.server.url },
        body: JSON.stringify({ code: `AXE${name.toUpperCase()}`, kind: "percent", value: 10, maxUses: 3 }),
      });
      expect(added.status, await added.clone().text()).toBe(201);
      const { insertedId: code } = (await added.json()) as { insertedId: string };
      const who = { email: `cancel-${name}@example.org`, password: "cancel-pass-12" };
      const jar = await signUp(env.server, who.email, { password: who.password });
      const [pkg] = (await (await fetch(env.server.url + "/api/pricings")).json()) as { _id: string }[];
      const placed = await fetch(env.server.url + "/api/new-order", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: jar.header() },
        body: JSON.stringify({
          packageId: pkg!._id,
          customerName: "Cara Cancel",
          customerAddress: "2 Rule Row, York",
          customerCountry: "UK",
        }),
      });
      const { insertedId: order } = (await placed.json()) as { insertedId: string };
      const customer = await newPage(env.browser, env.server.url, { viewport });
      await logIn(customer, who.email, who.password);
      const admin = await newPage(env.browser, env.server.url, { viewport });
      await logIn(admin, ADMIN.email, ADMIN.password);
      const found = [
        ...(await violations(customer, `/my-order?cancel=${order}`)),
        ...(await violations(admin, `/discount-codes/${code}`)),
      ];
      expect(found).toEqual([]);
      // What was checked is the confirmation itself and the code's page, not an error page.
      expect(await customer.getByTestId("cancel-order").getAttribute("data-state")).toBe("confirm");
      expect(await admin.getByRole("main").textContent()).toContain(`AXE${name.toUpperCase()}`);
      await customer.context().close();
      await admin.context().close();
    });
  }
});
