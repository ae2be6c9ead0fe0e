import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { demoCatalogue } from "#server/seed/demo-catalogue.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { siteAddresses, siteRecords } from "../support/routes";
import { CookieJar } from "../support/session";
import { apiRoutes } from "#server/http/routes/index.ts";

/**
 * Issue 33, item 5: with ADMIN_2FA=required, staff who have not turned on their second factor have no staff powers
 * anywhere: not in the back office (two-factor.test.ts), and not on the customer pages and calls that grant staff more
 * than a customer (another customer's invoice and its PDF, pay-now, received-payment, PayPal's cancel page, the cancel
 * of someone else's order through POST /my-order, the simulator's pay button, the catalogue's templates). Once the
 * second factor is on, the same person has them again: the refusals are the due factor's, nothing else's.
 */
let app: TestApp;
const admin = new CookieJar();
let editor: CookieJar;
let customer: CookieJar;
/** A customer with no orders: what anyone who is not staff gets. */
let stranger: CookieJar;
let paid: { id: string; orderNumber: string };
let unpaid: { id: string; orderNumber: string };
let spare: { id: string; orderNumber: string };
/** What the pay screen's button posts to the simulator for the spare order (PayPal's form fields). */
/** The spare order's PayPal order, made by its customer's pay button (the approval page's token). */
let spareToken: string;
let itemId: string;
let packageId: string;

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_2FA: "required", ADMIN_EMAIL: "due-owner@example.org", ADMIN_PASSWORD: "due-owner-pass-12" },
    { pages: true },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  editor = await signUpStaff(app, app.db.pool, "due-editor@example.org", "Editor");
  customer = await signUp(app, "due-customer@example.org");
  stranger = await signUp(app, "due-stranger@example.org");
  const [pkg] = (await (await app.request("/api/pricings")).json()) as { _id: string }[];
  packageId = pkg!._id;
  const place = async () => {
    const res = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: pkg!._id, customerName: "Cleo", customerAddress: "1 Quay", customerCountry: "UK" },
      jar: customer,
    });
    const id = ((await res.json()) as { insertedId: string }).insertedId;
    const { rows } = await app.db.pool.query("select number from orders where id = $1", [id]);
    return { id, orderNumber: String(rows[0].number) };
  };
  paid = await place();
  unpaid = await place();
  spare = await place();
  const customerViewer = (await app.services.accounts.viewer(new Headers({ cookie: customer.header() })))!;
  spareToken = (await app.services.payments.checkout!.start(customerViewer, spare.id)).checkoutId;
  await app.services.orders.pay(paid.id, PAYPAL_ACTOR, `TX-${randomBytes(4).toString("hex")}`);
  const { rows } = await app.db.pool.query("select number from orders where id = $1", [paid.id]);
  paid.orderNumber = String(rows[0].number);
  await app.services.catalogue.seedIfEmpty(demoCatalogue);
  itemId = String((await app.db.pool.query("select id from catalogue_items limit 1")).rows[0].id);
}, 120_000);
afterAll(() => app?.close());

const staffDue = async (email: string, due: boolean) =>
  app.db.pool.query(`update "user" set two_factor_enabled = $2 where lower(email) = lower($1)`, [email, !due]);
const get = async (path: string, jar: CookieJar) => {
  const res = await app.request(path, { jar });
  return { status: res.status, text: await res.text() };
};
const postForm = async (path: string, jar: CookieJar, fields: Record<string, string>) => {
  const res = await app.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    jar,
  });
  await res.arrayBuffer();
  return res.status;
};
const statusOf = async (id: string) =>
  (await app.db.pool.query("select payment_status from orders where id = $1", [id])).rows[0].payment_status as string;

/** The customer pages and calls that show a customer's order; staff who see orders open them all. */
const ORDER_PAGES: [string, () => string][] = [
  ["invoice page", () => `/invoice/${paid.orderNumber}`],
  ["invoice PDF", () => `/invoice/${paid.orderNumber}.pdf`],
  ["pay-now page", () => `/pay-now/${unpaid.id}`],
  ["received-payment page", () => `/received-payment/${paid.id}`],
  ["PayPal cancel page (/order-cancelled)", () => `/order-cancelled/${unpaid.id}`],
  ["invoice call (GET /api/invoices)", () => `/api/invoices/${paid.orderNumber}`],
  ["order call (GET /api/order)", () => `/api/order/${unpaid.id}`],
];

describe("an Admin whose second factor is due", () => {
  it.each(ORDER_PAGES)("opens no customer's %s", async (_name, path) => {
    await staffDue(app.config.adminEmail!, true);
    const { status } = await get(path(), admin);
    expect(status, path()).toBeGreaterThanOrEqual(400);
    expect(status, path()).toBeLessThan(500);
  });

  it("cancels no customer's order through POST /my-order, PayPal's cancel page or the REST call", async () => {
    await staffDue(app.config.adminEmail!, true);
    expect(await postForm("/my-order", admin, { orderId: unpaid.id })).toBeLessThan(500);
    expect(await postForm(`/order-cancelled/${unpaid.id}`, admin, {})).toBeLessThan(500);
    const rest = await app.request(`/api/order-cancelled/${unpaid.id}`, {
      method: "PUT",
      json: { paymentStatus: "Cancelled" },
      jar: admin,
    });
    expect(rest.status).toBe(403);
    expect(await statusOf(unpaid.id)).toBe("UnPaid");
  });

  it("is not shown someone else's order to cancel on /my-order?cancel=", async () => {
    await staffDue(app.config.adminEmail!, true);
    const { status, text } = await get(`/my-order?cancel=${unpaid.id}`, admin);
    expect(status).toBe(200);
    expect(text).not.toContain('data-testid="cancel-order"');
    expect(text).not.toContain(unpaid.orderNumber);
  });

  it("starts no payment for, and approves none of, someone else's order (pay button, PayPal's approval page)", async () => {
    await staffDue(app.config.adminEmail!, true);
    expect(await postForm(`/pay-now/${spare.id}`, admin, {})).toBe(404);
    expect((await get(`/paypal-simulator/checkoutnow?token=${spareToken}`, admin)).status).toBe(403);
    expect(await postForm("/paypal-simulator/checkoutnow", admin, { token: spareToken, intent: "paypal" })).toBe(403);
    expect(await statusOf(spare.id)).toBe("UnPaid");
  });

  it("gets the customer's dashboard and no templates without a membership", async () => {
    await staffDue(app.config.adminEmail!, true);
    const dashboard = await get("/dashboard", admin);
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).not.toContain('data-testid="admin-banner"');
    expect((await get(`/item/${itemId}`, admin)).status).toBe(403);
  });
});

describe("an Editor whose second factor is due", () => {
  it("gets no catalogue templates without a membership", async () => {
    await staffDue("due-editor@example.org", true);
    expect((await get(`/item/${itemId}`, editor)).status).toBe(403);
  });
});

describe("every page and call outside the back office", () => {
  it("answers an Admin whose second factor is due as another customer (a REST call: that, or 403)", async () => {
    await staffDue(app.config.adminEmail!, true);
    const fill = siteRecords(app.db.pool, {
      package: packageId,
      paid: paid.id,
      paidNumber: paid.orderNumber,
      unpaid: unpaid.id,
      item: itemId,
    });
    const routes = (await siteAddresses(fill, { resources: true })).filter((r) => r.audience !== "admin");
    const differ: string[] = [];
    let compared = 0;
    const answer = async (path: string, jar: CookieJar) => {
      const res = await app.request(path, { jar });
      await res.arrayBuffer();
      return `${res.status} ${res.headers.get("location") ?? ""}`.trim();
    };
    for (const route of routes) {
      for (const path of route.page
        ? [route.address, route.address === "/" ? "/_root.data" : `${route.address}.data`]
        : [route.address]) {
        const [asAdmin, asStranger] = [await answer(path, admin), await answer(path, stranger)];
        compared++;
        if (asAdmin !== asStranger)
          differ.push(`GET ${path}: the due Admin ${asAdmin}, another customer ${asStranger}`);
      }
    }
    for (const route of apiRoutes(app.services).filter((r) => r.method === "get" && r.access === "user")) {
      const path = `/api${route.path.replace(/:(\w+)/g, (_m, p: string) => (p === "orderNumber" ? paid.orderNumber : paid.id))}`;
      const [asAdmin, asStranger] = [await answer(path, admin), await answer(path, stranger)];
      compared++;
      if (asAdmin !== asStranger && !asAdmin.startsWith("403"))
        differ.push(`GET ${path}: the due Admin ${asAdmin}, another customer ${asStranger}`);
    }
    console.info(
      `due Admin vs another customer: ${compared} answers compared over ${routes.length} routes, ${differ.length} differ`,
    );
    expect(differ).toEqual([]);
  }, 300_000);
});

describe("the same staff with their second factor on", () => {
  it("have their staff powers back on the same pages (the refusals above are the due factor's)", async () => {
    await staffDue(app.config.adminEmail!, false);
    await staffDue("due-editor@example.org", false);
    for (const [name, path] of ORDER_PAGES) expect((await get(path(), admin)).status, name).toBe(200);
    const { text } = await get(`/my-order?cancel=${unpaid.id}`, admin);
    expect(text).toContain('data-testid="cancel-order"');
    expect((await get("/dashboard", admin)).text).toContain('data-testid="admin-banner"');
    expect((await get(`/item/${itemId}`, admin)).status).toBe(200);
    expect((await get(`/item/${itemId}`, editor)).status).toBe(200);
    expect(await postForm("/my-order", admin, { orderId: unpaid.id })).toBe(200);
    expect(await statusOf(unpaid.id)).toBe("Cancelled");
    expect(await postForm("/paypal-simulator/checkoutnow", admin, { token: spareToken, intent: "paypal" })).toBe(303);
  });
});
