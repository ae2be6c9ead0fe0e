import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { signIn, signUp } from "../support/accounts";
import { violations } from "../support/axe";
import { ADMIN, startE2E, type E2EEnv } from "../support/e2e";
import { logIn } from "../support/pages";
import { PUBLIC_PAGES } from "../support/routes";

/**
 * axe-core over every kind of page, at desktop and phone widths (tests/support/axe.ts). Any violation fails, with what
 * and where. The customer's and the back office's pages, the longest part, are in accessibility-back-office.test.ts, so
 * that the two files run side by side.
 */
/** The public pages (tests/support/routes.ts), with the pages a visitor meets beside them. */
const PUBLIC = [
  ...new Set([
    ...PUBLIC_PAGES,
    "/blog",
    "/reset",
    "/not-a-page",
    "/newsletter/confirm/not-a-token",
    "/newsletter/unsubscribe/not-a-token",
    "/account/email-confirmed",
    "/account/email-confirmed?error=INVALID_TOKEN",
    "/staff/welcome?token=not-a-token",
  ]),
];
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
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
  }
});

type Viewport = typeof DESKTOP;
type Person = { email: string; password: string };

/** A case of pages that need records made first, run at desktop and phone widths (`name` tells the two apart). */
function atBothWidths(title: string, run: (viewport: Viewport, name: string) => Promise<void>) {
  describe(`accessibility of ${title} (axe-core, WCAG 2.1 AA)`, () => {
    for (const [name, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const)
      it(`at ${name} width`, () => run(viewport, name));
  });
}

/** axe's findings on each path, as `who` sees it signed in (the page is left open, for checks of what it read). */
async function seenBy(viewport: Viewport, who: Person, paths: string[]) {
  const page = await newPage(env.browser, env.server.url, { viewport });
  await logIn(page, who.email, who.password);
  const found: string[] = [];
  for (const path of paths) found.push(...(await violations(page, path)));
  return { page, found };
}

/** A new customer, signed up through the API, with an unpaid order of the first package. */
async function customerWithOrder(email: string): Promise<Person & { order: string }> {
  const who = { email, password: "axe-customer-12" };
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
  expect(placed.status).toBe(201);
  return { ...who, order: ((await placed.json()) as { insertedId: string }).insertedId };
}

/** A call to the REST API as the admin (signed in once: sign-ins are rate limited). */
let adminJar: Awaited<ReturnType<typeof signIn>> | undefined;
async function asAdmin(method: string, path: string, body?: unknown) {
  const staff = (adminJar ??= await signIn(env.server, ADMIN.email, ADMIN.password));
  return fetch(env.server.url + path, {
    method,
    headers: { "content-type": "application/json", cookie: staff.header(), origin: env.server.url },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

// Issue 26, part 5 (decision 039): the trash with something in it, the confirmation of "Restore this version", and
// the archived messages.
atBothWidths("the trash, Restore this version and archived messages", async (viewport, name) => {
  const [faq] = (await (await asAdmin("GET", "/api/faq-items")).json()) as { _id: string }[];
  expect((await asAdmin("DELETE", `/api/faq-item/${faq!._id}`)).status).toBe(200);
  const [banner] = (await (await asAdmin("GET", "/api/banner")).json()) as ({ _id: string } & object)[];
  const changed = { ...banner, _id: undefined, bannerHeading: `Changed at ${name}` };
  expect((await asAdmin("PUT", `/api/update-banner/${banner!._id}`, changed)).status).toBe(200);
  const message = { name: "Ada", email: "ada@example.org", number: "", subject: "Archived", message: "Hello there." };
  const sent = (await (await asAdmin("POST", "/api/add-message", message)).json()) as { insertedId: string };
  expect((await asAdmin("PUT", `/api/message/${sent.insertedId}/archive`, { archived: true })).status).toBe(200);
  const [entry] = (
    await env.db.pool.query(
      "select id from activity_log where entity = 'content:banner' order by created_at desc limit 1",
    )
  ).rows as { id: string }[];
  const admin = await seenBy(viewport, ADMIN, [
    "/trash",
    `/trash?purge=${faq!._id}`,
    `/activity?restore=${entry!.id}`,
    "/all-messages?view=archived",
  ]);
  expect(admin.found).toEqual([]);
  await admin.page.context().close();
});

// Issue 25: my data and delete account as a customer sees them, and the back office's erasure page.
atBothWidths("my data, delete account and erasure", async (viewport, name) => {
  const who = { email: `privacy-${name}@example.org`, password: "privacy-pass-12" };
  await signUp(env.server, who.email, { password: who.password });
  const [{ id }] = (await env.db.pool.query(`select id from "user" where email = $1`, [who.email])).rows;
  const customer = await seenBy(viewport, who, ["/account/data", "/account/delete", "/account/deleted"]);
  const admin = await seenBy(viewport, ADMIN, [`/customers/${id}/delete`]);
  expect([...customer.found, ...admin.found]).toEqual([]);
  await customer.page.context().close();
  await admin.page.context().close();
});

// Issue 26, part 3: an invoice (decision 038) as its customer and the studio see it, with My Orders' and the order
// screen's links to it; /invoice-settings is among the back-office pages above.
atBothWidths("invoices", async (viewport, name) => {
  const who = await customerWithOrder(`invoice-${name}@example.org`);
  expect((await asAdmin("PUT", `/api/order/${who.order}`, { paymentStatus: "Paid" })).status).toBe(200);
  const [{ number }] = (await env.db.pool.query("select number from orders where id = $1", [who.order])).rows;
  const customer = await seenBy(viewport, who, [`/invoice/${number}`, "/my-order"]);
  const admin = await seenBy(viewport, ADMIN, [`/invoice/${number}`, `/admin/payment-status/${who.order}`]);
  expect([...customer.found, ...admin.found]).toEqual([]);
  await customer.page.context().close();
  await admin.page.context().close();
});

// Issue 27 (decision 049) and issue 28 (decision 048): a discount code's own page, and the confirmation a customer is
// asked before an unpaid order is cancelled.
atBothWidths("a discount code and of cancelling an order", async (viewport, name) => {
  const code = `AXE${name.toUpperCase()}`;
  const added = await asAdmin("POST", "/api/discount-codes", { code, kind: "percent", value: 10, maxUses: 3 });
  expect(added.status, await added.clone().text()).toBe(201);
  const { insertedId } = (await added.json()) as { insertedId: string };
  const who = await customerWithOrder(`cancel-${name}@example.org`);
  const customer = await seenBy(viewport, who, [`/my-order?cancel=${who.order}`]);
  const admin = await seenBy(viewport, ADMIN, [`/discount-codes/${insertedId}`]);
  expect([...customer.found, ...admin.found]).toEqual([]);
  // What was checked is the confirmation itself and the code's page, not an error page.
  expect(await customer.page.getByTestId("cancel-order").getAttribute("data-state")).toBe("confirm");
  expect(await admin.page.getByRole("main").textContent()).toContain(code);
  await customer.page.context().close();
  await admin.page.context().close();
});

// Issue 27, parts 4 and 5 (decisions 052, 053): a subscription as its customer sees it, on the customer's record, and
// the studio's confirmation of "Mark cancelled". The row is the one PayPal's sign-up would have made.
atBothWidths("a subscription, for the customer and the studio", async (viewport, name) => {
  const who = await customerWithOrder(`subscriber-${name}@example.org`);
  const [{ user_id: userId }] = (await env.db.pool.query("select user_id from orders where id = $1", [who.order])).rows;
  const [{ id }] = (
    await env.db.pool.query(
      "insert into subscriptions (subscr_id, order_id, user_id, signed_up_at) values ($1, $2, $3, now()) returning id",
      [`I-AXE${name.toUpperCase()}`, who.order, userId],
    )
  ).rows;
  const customer = await seenBy(viewport, who, ["/account/subscriptions"]);
  const admin = await seenBy(viewport, ADMIN, [`/customers/${userId}`, `/subscriptions/${id}/cancel`]);
  expect([...customer.found, ...admin.found]).toEqual([]);
  expect(await customer.page.getByTestId("subscription").getAttribute("data-status")).toBe("active");
  expect(await admin.page.getByTestId("cancel-subscription").count()).toBe(1);
  await customer.page.context().close();
  await admin.page.context().close();
});
