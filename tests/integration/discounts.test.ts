import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_REFUSALS } from "../../domain/discounts";
import { demoContent } from "../../server/seed/demo-content";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { markGenuine, postIpn } from "../support/paypal";

/**
 * Discount codes (decision 049) against the real database: the back office's calls, the price an order takes and
 * keeps (PayPal's amount, the listener's check, the invoice, the reports' revenue), each reason a code does not apply,
 * and customers racing for a code's last use under real concurrency: one wins.
 */
let app: TestApp;
const clock = Date.UTC(2026, 10, 25, 15);
const admin = new CookieJar();
type Pkg = { _id: string; packageName: string; packagePrice: number; packageValidity: number };
let basic: Pkg;
let premium: Pkg;
const form = {
  customerName: "Dana Deal",
  customerAddress: "3 Quay Street, Bristol",
  customerCountry: "United Kingdom",
};

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "boss@example.org", ADMIN_PASSWORD: "boss-pass-12", PAYPAL_RECEIVER_EMAIL: "shop@example.org" },
    { now: () => new Date(clock) },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  const pricing = (await (await app.request("/api/pricings")).json()) as Pkg[];
  basic = pricing.find((p) => p.packageName === "Basic")!;
  premium = pricing.find((p) => p.packageName === "Premium")!;
  await app.request("/api/auth/sign-in/email", {
    method: "POST",
    json: { email: "boss@example.org", password: "boss-pass-12" },
    jar: admin,
  });
});
afterAll(() => app?.close());

/** Three signed-in customers (sign-ups are rate-limited per address): each case uses fresh codes, so they can share. */
const pool: CookieJar[] = [];
let n = 0;
async function signUp(): Promise<CookieJar> {
  const jar = new CookieJar();
  const res = await app.request("/api/auth/sign-up/email", {
    method: "POST",
    json: {
      email: `d${++n}-${Math.random().toString(36).slice(2, 8)}@example.org`,
      password: "quiet-harbour-71",
      name: "",
      acceptTerms: true,
    },
    jar,
  });
  expect(res.status).toBe(200);
  return jar;
}
beforeAll(async () => {
  for (let i = 0; i < 3; i++) pool.push(await signUp());
});
let turn = 0;
const customer = async () => pool[turn++ % pool.length]!;
let codes = 0;
async function addCode(fields: Record<string, unknown>): Promise<{ id: string; code: string }> {
  const code = `TEST${++codes}`;
  const res = await app.request("/api/discount-codes", {
    method: "POST",
    json: { code, kind: "percent", value: 20, ...fields },
    jar: admin,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { id: ((await res.json()) as { insertedId: string }).insertedId, code };
}
const place = (jar: CookieJar, packageId: string, discountCode?: string) =>
  app.request("/api/new-order", { method: "POST", json: { packageId, ...form, discountCode }, jar });
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];

async function notify(orderId: string, amount: string) {
  const body = new URLSearchParams({
    payment_status: "Completed",
    receiver_email: "shop@example.org",
    business: "shop@example.org",
    mc_gross: amount,
    mc_currency: "USD",
    txn_id: `T${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
    custom: orderId,
    item_number: "1",
    txn_type: "web_accept",
  }).toString();
  await markGenuine(app.db.pool, body);
  expect((await postIpn(app, body)).status).toBe(200);
}
const outcomes = async (id: string) =>
  (
    await app.db.pool.query("select outcome from payment_events where order_id = $1 order by received_at", [id])
  ).rows.map((r) => r.outcome as string);
const revenue = async () =>
  Number((await app.db.pool.query("select coalesce(sum(revenue), 0) as r from report_days")).rows[0].r);

describe("an order placed with a code", () => {
  it("stores the price before, the discount and the code; PayPal is asked for, and checked against, the lower amount; the invoice and the reports show it", async () => {
    const { code } = await addCode({ value: 25, packageIds: [basic._id] });
    const jar = await customer();
    const res = await place(jar, basic._id, ` ${code.toLowerCase()} `);
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { insertedId: string }).insertedId;
    const expected = Math.round(basic.packagePrice * 75) / 100;
    const row = await orderRow(id);
    expect(row).toMatchObject({
      discount_code: code,
      package_price: expected.toFixed(2),
      price_before: basic.packagePrice.toFixed(2),
      discount_amount: (basic.packagePrice - expected).toFixed(2),
    });
    const record = await (await app.request(`/api/order/${id}`, { jar })).json();
    expect(record).toMatchObject({ packagePrice: expected, priceBefore: basic.packagePrice, discountCode: code });
    const checkout = await app.services.paypal.checkout(record);
    expect(checkout.fields.amount).toBe(expected.toFixed(2));
    // A subscription (a first-period code, the default): the discounted price for PayPal's introductory period only.
    expect(row.discount_period).toBe("first");
    const subscribe = await app.services.paypal.subscribeCheckout({ ...record, discountPeriod: row.discount_period });
    expect(subscribe?.fields).toMatchObject({ a1: expected.toFixed(2), a3: basic.packagePrice.toFixed(2) });

    const before = await revenue();
    // The package's full price is not what this order asked for: refused.
    await notify(id, basic.packagePrice.toFixed(2));
    await expect.poll(() => outcomes(id), { timeout: 10_000 }).toEqual(["rejected"]);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    await notify(id, expected.toFixed(2));
    await expect.poll(() => outcomes(id), { timeout: 10_000 }).toEqual(["rejected", "applied"]);
    const paid = await orderRow(id);
    expect(paid.payment_status).toBe("Paid");
    expect(await revenue()).toBeCloseTo(before + expected, 2);

    const invoice = await app.services.invoices.get(
      (await app.services.accounts.viewer(new Headers({ cookie: jar.header() })))!,
      paid.number,
    );
    expect(invoice).toMatchObject({ amount: expected, discount: { code, priceBefore: basic.packagePrice } });
  });

  it("without a code, nothing changes: the package's price, no discount", async () => {
    const res = await place(await customer(), basic._id, "");
    expect(res.status).toBe(201);
    const row = await orderRow(((await res.json()) as { insertedId: string }).insertedId);
    expect(row).toMatchObject({
      discount_code: null,
      price_before: null,
      discount_amount: "0.00",
      package_price: basic.packagePrice.toFixed(2),
    });
  });
});

describe("a code that does not apply says why, on the field, and places nothing", () => {
  const refused = async (res: Response, reason: keyof typeof DISCOUNT_REFUSALS) => {
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ field: "discountCode", message: DISCOUNT_REFUSALS[reason] }] });
  };
  it.each([
    ["unknown", {}, "NOSUCHCODE"],
    ["expired", { validTo: "2026-11-24" }, null],
    ["notYet", { validFrom: "2026-11-26" }, null],
    ["notForPackage", { packageIds: ["00000000-0000-4000-8000-000000000000"] }, null],
    ["free", { kind: "amount", value: 100000 }, null],
  ] as const)("%s", async (reason, fields, typed) => {
    const { code } = await addCode(fields);
    const jar = await customer();
    const count = async () => Number((await app.db.pool.query("select count(*) from orders")).rows[0].count);
    const before = await count();
    await refused(await place(jar, basic._id, typed ?? code), reason);
    expect(await count()).toBe(before);
  });

  it("a disabled code is unknown; enabled again, it works", async () => {
    const { id, code } = await addCode({});
    const state = (disabled: boolean) =>
      app.request(`/api/discount-codes/${id}/state`, { method: "PUT", json: { disabled }, jar: admin });
    expect((await state(true)).status).toBe(200);
    const jar = await customer();
    await refused(await place(jar, basic._id, code), "unknown");
    expect((await state(false)).status).toBe(200);
    expect((await place(jar, basic._id, code)).status).toBe(201);
  });

  it("once per customer: the second order says already used; a cancelled order gives its use back", async () => {
    const { code } = await addCode({ oncePerCustomer: true });
    const jar = await customer();
    const first = await place(jar, basic._id, code);
    expect(first.status).toBe(201);
    await refused(await place(jar, premium._id, code), "alreadyUsed");
    const id = ((await first.json()) as { insertedId: string }).insertedId;
    expect((await app.request(`/api/order-cancelled/${id}`, { method: "PUT", json: {}, jar })).status).toBeLessThan(
      300,
    );
    expect((await place(jar, premium._id, code)).status).toBe(201);
  });

  it("used up: the maximum counts every customer's orders", async () => {
    const { code, id } = await addCode({ maxUses: 2 });
    expect((await place(await customer(), basic._id, code)).status).toBe(201);
    expect((await place(await customer(), premium._id, code)).status).toBe(201);
    await refused(await place(await customer(), basic._id, code), "usedUp");
    expect(await (await app.request(`/api/discount-codes/${id}`, { jar: admin })).json()).toMatchObject({ uses: 2 });
  });
});

describe("customers racing for a code's last use", () => {
  it("one wins, every time (12 races of 3 customers at once)", async () => {
    const jars = pool;
    for (let race = 0; race < 12; race++) {
      const { code, id } = await addCode({ maxUses: 1 });
      const answers = await Promise.all(jars.map((jar) => place(jar, basic._id, code)));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 400, 400]);
      const used = await app.db.pool.query("select count(*) from orders where discount_code_id = $1", [id]);
      expect(Number(used.rows[0].count)).toBe(1);
    }
  });
});

describe("the back office's calls", () => {
  it("lists codes newest first, paged, with their uses", async () => {
    const res = await app.request("/api/discount-codes?limit=2&page=1", { jar: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-page")).toBe("1");
    expect(Number(res.headers.get("x-total-count"))).toBeGreaterThan(2);
    const rows = (await res.json()) as { code: string; uses: number }[];
    expect(rows).toHaveLength(2);
  });

  it("refuses a bad form with a message per field, a taken code with 409, and a customer with 403", async () => {
    const bad = await app.request("/api/discount-codes", {
      method: "POST",
      json: { code: "x", kind: "percent", value: 20 },
      jar: admin,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ field: "code" }] });
    const { code, id } = await addCode({});
    const dup = await app.request("/api/discount-codes", {
      method: "POST",
      json: { code, kind: "amount", value: 5 },
      jar: admin,
    });
    expect(dup.status).toBe(409);
    const edit = await app.request(`/api/discount-codes/${id}`, {
      method: "PUT",
      json: { code, kind: "amount", value: "5.50", maxUses: "10", period: "every" },
      jar: admin,
    });
    expect(await edit.json()).toMatchObject({ modifiedCount: 1 });
    expect(await (await app.request(`/api/discount-codes/${id}`, { jar: admin })).json()).toMatchObject({
      kind: "amount",
      value: 5.5,
      maxUses: 10,
      period: "every",
    });
    const jar = await customer();
    expect((await app.request("/api/discount-codes", { jar })).status).toBe(403);
    const log = await app.db.pool.query(
      "select action from activity_log where entity = 'discount_code' and record_id = $1",
      [id],
    );
    expect(log.rows.map((r) => r.action).sort()).toEqual(["create", "update"].sort());
  });
});
