import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { markGenuine, postIpn } from "../support/paypal";

/** The orders desk's REST face: filters, the to-deliver count, the activation setting and what it changes. */
let app: TestApp;
let pkg: { _id: string; packagePrice: number };
const admin = new CookieJar();
const nora = new CookieJar();
const omar = new CookieJar();
const visitor = new CookieJar();

beforeAll(async () => {
  app = await startTestApp({
    ADMIN_EMAIL: "desk@example.org",
    ADMIN_PASSWORD: "desk-pass-12",
    PAYPAL_RECEIVER_EMAIL: "shop@example.org",
    TZ: "America/New_York",
  });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  pkg = ((await (await app.request("/api/pricings")).json()) as (typeof pkg)[])[0]!;
  for (const [jar, email] of [
    [nora, "nora.north@example.org"],
    [omar, "omar@example.org"],
  ] as const)
    await signUp(app, email, { jar });
  await signInAsAdmin(app, { jar: admin });
});
afterAll(() => app?.close());

async function order(jar: CookieJar, customerName: string): Promise<string> {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: pkg._id, customerName, customerAddress: "1 Quay", customerCountry: "UK" },
    jar,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}
const put = (path: string, json: unknown, jar = admin) => app.request(path, { method: "PUT", json, jar });
const list = async (query: string, jar = admin) => {
  const res = await app.request(`/api/orders?${query}`, { jar });
  expect(res.status, query).toBe(200);
  return { ids: ((await res.json()) as { _id: string }[]).map((o) => o._id), total: res.headers.get("x-total-count") };
};

function ipn(orderId: string) {
  const body = new URLSearchParams({
    payment_status: "Completed",
    receiver_email: "shop@example.org",
    business: "shop@example.org",
    mc_gross: pkg.packagePrice.toFixed(2),
    mc_currency: "USD",
    txn_id: `T${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
    custom: orderId,
    item_number: "1",
    txn_type: "web_accept",
  }).toString();
  return body;
}
async function payByPayPal(orderId: string) {
  const body = ipn(orderId);
  await markGenuine(app.db.pool, body);
  expect((await postIpn(app, body)).status).toBe(200);
  await expect
    .poll(async () => (await app.db.pool.query("select payment_status from orders where id = $1", [orderId])).rows[0])
    .toEqual({ payment_status: "Paid" });
  return (await app.db.pool.query("select order_status from orders where id = $1", [orderId])).rows[0].order_status;
}

describe("the orders desk over REST", () => {
  let a: string, b: string, c: string;
  beforeAll(async () => {
    a = await order(nora, "Nora North");
    b = await order(omar, "Omar 100%_West");
    c = await order(nora, "Nora Again");
    await put(`/api/order/${b}`, { paymentStatus: "Paid" });
    await put(`/api/order/${c}`, { paymentStatus: "Paid" });
    await put(`/api/order-status/${c}`, { orderStatus: "Delivered" });
    // a: yesterday in New York (the site's time zone), the others today.
    await app.db.pool.query("update orders set created_at = now() - interval '1 day' where id = $1", [a]);
  });

  it("filters by name or email, payment, order status, dates and the to-deliver view; the admin sees everyone", async () => {
    expect((await list("q=Nora+NORTH")).ids).toEqual([a]);
    expect((await list("q=north")).ids.sort()).toEqual([a, c].sort()); // Nora's email
    expect((await list("q=omar@")).ids).toEqual([b]);
    expect((await list("q=100%25_")).ids).toEqual([b]); // % and _ are meant literally
    expect((await list("q=100%25x")).ids).toEqual([]);
    expect((await list("payment=Paid")).ids.sort()).toEqual([b, c].sort());
    expect((await list("payment=Paid&status=Pending")).ids).toEqual([b]);
    expect((await list("view=to-deliver&payment=UnPaid")).ids).toEqual([b]);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date());
    expect((await list(`from=${today}`)).ids.sort()).toEqual([b, c].sort());
    expect((await list(`to=${today}&q=nora`)).ids.sort()).toEqual([a, c].sort());
    const all = await list("");
    expect(all.ids.length).toBe(3);
    expect(all.total).toBe("3");
  });

  it("a customer's filters apply to their own orders only", async () => {
    expect((await list("q=omar", nora)).ids).toEqual([]);
    expect((await list("q=nora", nora)).ids.sort()).toEqual([a, c].sort());
    expect((await list("", omar)).ids).toEqual([b]);
  });

  it("a bad filter is a 400 naming it; signed out is 401", async () => {
    const bad = await app.request("/api/orders?payment=Free", { jar: admin });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "payment" });
    expect((await app.request("/api/orders?from=2026-02-31", { jar: admin })).status).toBe(400);
    expect((await app.request("/api/orders?q=x", { jar: visitor })).status).toBe(401);
  });

  it("counts the orders to deliver: admin only", async () => {
    const res = await app.request("/api/orders-to-deliver/count", { jar: admin });
    expect(await res.json()).toEqual({ total: 1, capped: false });
    expect((await app.request("/api/orders-to-deliver/count", { jar: nora })).status).toBe(403);
    expect((await app.request("/api/orders-to-deliver/count")).status).toBe(401);
  });

  it("the desk's queries use their indexes", async () => {
    await app.db.pool.query("set enable_seqscan = off");
    const plan = async (where: string) =>
      JSON.stringify(
        (
          await app.db.pool.query(
            `explain (format json) select id from orders where ${where} order by created_at desc limit 10`,
          )
        ).rows[0],
      );
    expect(await plan("lower(customer_name || ' ' || customer_email || ' ' || number) like '%nora%'")).toContain(
      "orders_customer_search_idx",
    );
    expect(await plan("order_status = 'Pending'")).toContain("orders_order_status_idx");
    expect(await plan("payment_status = 'Paid' and order_status = 'Pending'")).toMatch(/orders_to_deliver_idx|orders_/);
    await app.db.pool.query("reset enable_seqscan");
  });
});

describe("activating memberships automatically", () => {
  it("the setting: off by default, admin only, 400 on a bad value, every change in the activity log", async () => {
    expect(await (await app.request("/api/settings", { jar: admin })).json()).toMatchObject({ autoActivate: false });
    expect((await app.request("/api/settings", { jar: nora })).status).toBe(403);
    expect((await app.request("/api/settings")).status).toBe(401);
    expect((await put("/api/settings", { autoActivate: true }, nora)).status).toBe(403);
    expect((await put("/api/settings", { autoActivate: true }, visitor)).status).toBe(401);
    const bad = await put("/api/settings", { autoActivate: "sometimes" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "autoActivate" });
    expect(await (await put("/api/settings", {})).json()).toMatchObject({ modifiedCount: 0 });
  });

  it("off: a verified payment waits for delivery; on: it is delivered at once", async () => {
    const waiting = await order(omar, "Omar West");
    expect(await payByPayPal(waiting)).toBe("Pending");
    const viewer = (await app.services.accounts.viewer(new Headers({ cookie: omar.header() })))!;
    expect((await app.services.orders.membership(viewer)).state).toBe("waiting");

    const on = await put("/api/settings", { autoActivate: true });
    expect(await on.json()).toMatchObject({ modifiedCount: 1, settings: { autoActivate: true } });
    const { rows } = await app.db.pool.query(
      "select actor_email, changes from activity_log where entity = 'setting' and record_id = 'autoActivate'",
    );
    expect(rows).toEqual([
      { actor_email: "desk@example.org", changes: { autoActivate: { before: false, after: true } } },
    ]);

    const instant = await order(nora, "Nora Instant");
    expect(await payByPayPal(instant)).toBe("Delivered");
    const noraViewer = (await app.services.accounts.viewer(new Headers({ cookie: nora.header() })))!;
    expect((await app.services.orders.membership(noraViewer)).state).toBe("active");

    // An admin's own "Paid" is not a verified payment: delivery stays the admin's step.
    const manual = await order(nora, "Nora Manual");
    await put(`/api/order/${manual}`, { paymentStatus: "Paid" });
    expect((await app.db.pool.query("select order_status from orders where id = $1", [manual])).rows[0]).toEqual({
      order_status: "Pending",
    });
    await put("/api/settings", { autoActivate: false });
  });
});
