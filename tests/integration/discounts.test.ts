import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_HOLD_MS, DISCOUNT_REFUSALS, UNKNOWN_PACKAGE_MESSAGE } from "#domain/discounts.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { startTestApp, type TestApp } from "../support/app";
import { signInAsAdmin } from "../support/accounts";
import { CookieJar } from "../support/session";
import { markGenuine, postIpn } from "../support/paypal";

/**
 * Discount codes (decision 049) against the real database: the back office's calls, the price an order takes and
 * keeps (PayPal's amount, the listener's check, the invoice, the reports' revenue), each reason a code does not apply,
 * and customers racing for a code's last use under real concurrency: one wins.
 */
let app: TestApp;
const START = Date.UTC(2026, 10, 25, 15);
/** The services' clock: moved forward by the hold's test, set back after it. */
let clock = START;
let admin: CookieJar;
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
  admin = await signInAsAdmin(app);
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
    await app.db.pool.query("select outcome from payment_notices where order_id = $1 order by received_at", [id])
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
    await expect.poll(() => outcomes(id), { timeout: 10_000 }).toEqual(["flagged"]);
    expect((await orderRow(id)).payment_status).toBe("UnPaid");
    await notify(id, expected.toFixed(2));
    await expect.poll(() => outcomes(id), { timeout: 10_000 }).toEqual(["flagged", "applied"]);
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

const refused = async (res: Response, reason: keyof typeof DISCOUNT_REFUSALS) => {
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ errors: [{ field: "discountCode", message: DISCOUNT_REFUSALS[reason] }] });
};

describe("a code that does not apply says why, on the field, and places nothing", () => {
  it.each([
    ["unknown", {}, "NOSUCHCODE"],
    ["expired", { validTo: "2026-11-24" }, null],
    ["notYet", { validFrom: "2026-11-26" }, null],
    ["notForPackage", { packageIds: ["premium"] }, null],
    ["free", { kind: "amount", value: 100000 }, null],
  ] as const)("%s", async (reason, fields, typed) => {
    const { code } = await addCode(
      "packageIds" in fields ? { ...fields, packageIds: fields.packageIds.map(() => premium._id) } : fields,
    );
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

const cancel = async (jar: CookieJar, id: string) =>
  expect((await app.request(`/api/order-cancelled/${id}`, { method: "PUT", json: {}, jar })).status).toBeLessThan(300);
const placed = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
};
/** A payment's notification, waited for until the listener has processed it. */
async function pays(orderId: string, amount: string) {
  const done = async () =>
    Number(
      (
        await app.db.pool.query("select count(*) from payment_notices where order_id = $1 and outcome <> 'received'", [
          orderId,
        ])
      ).rows[0].count,
    );
  const before = await done();
  await notify(orderId, amount);
  await expect.poll(done, { timeout: 10_000 }).toBe(before + 1);
}
const usesOf = async (id: string) =>
  ((await (await app.request(`/api/discount-codes/${id}`, { jar: admin })).json()) as { uses: number }).uses;
const lastReason = async (orderId: string) =>
  (
    await app.db.pool.query(
      "select outcome, reason from payment_notices where order_id = $1 order by received_at desc limit 1",
      [orderId],
    )
  ).rows[0] as { outcome: string; reason: string };

/** Issue 33, item 2: a code's limits hold when an order is paid, not only when it is placed (decision 060). */
describe("a code's limit holds when the money comes", () => {
  it("a kept pay form paid after cancelling, once another customer took the last use: refused and recorded", async () => {
    const { code, id } = await addCode({ maxUses: 1 });
    const [a, b] = [pool[0]!, pool[1]!];
    const kept = await placed(await place(a, basic._id, code));
    const price = (await orderRow(kept)).package_price as string;
    await cancel(a, kept);
    const other = await placed(await place(b, basic._id, code));
    await pays(other, price);
    expect((await orderRow(other)).payment_status).toBe("Paid");
    await pays(kept, price);
    expect((await orderRow(kept)).payment_status).toBe("Cancelled");
    expect(await lastReason(kept)).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/used up/) });
    expect(await usesOf(id)).toBe(1);
    // Every admin is mailed to refund it, once per transaction.
    const { rows } = await app.db.pool.query("select key from job_keys where key like '%not-applied%'");
    expect(rows.length).toBeGreaterThan(0);
  });

  it("once per customer: a second order paid after the first was cancelled and a new one paid is refused", async () => {
    const { code, id } = await addCode({ oncePerCustomer: true });
    const a = pool[0]!;
    const kept = await placed(await place(a, basic._id, code));
    const price = (await orderRow(kept)).package_price as string;
    await cancel(a, kept);
    const again = await placed(await place(a, basic._id, code));
    await pays(again, price);
    await pays(kept, price);
    expect((await orderRow(kept)).payment_status).toBe("Cancelled");
    expect(await lastReason(kept)).toMatchObject({
      outcome: "refused",
      reason: expect.stringMatching(/already used/),
    });
    expect(await usesOf(id)).toBe(1);
  });

  it("the studio cannot mark Paid by hand an order whose code is used up meanwhile: a 409 that says why", async () => {
    const { code } = await addCode({ maxUses: 1 });
    const [a, b] = [pool[0]!, pool[1]!];
    const kept = await placed(await place(a, basic._id, code));
    await cancel(a, kept);
    const other = await placed(await place(b, basic._id, code));
    await pays(other, (await orderRow(other)).package_price as string);
    const res = await app.request(`/api/order/${kept}`, {
      method: "PUT",
      json: { paymentStatus: "Paid" },
      jar: admin,
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: expect.stringMatching(/used up/) });
    expect((await orderRow(kept)).payment_status).toBe("Cancelled");
  });

  it("an unpaid order holds its use for a bounded time; one customer's unpaid orders hold one use", async () => {
    const { code, id } = await addCode({ maxUses: 2 });
    const [a, b, c] = [pool[0]!, pool[1]!, pool[2]!];
    const first = await placed(await place(a, basic._id, code));
    await placed(await place(a, premium._id, code));
    await placed(await place(a, basic._id, code));
    // A's three unpaid orders hold one use: B takes the second.
    const second = await placed(await place(b, basic._id, code));
    await refused(await place(c, basic._id, code), "usedUp");
    expect(await usesOf(id)).toBe(2);
    try {
      clock = START + DISCOUNT_HOLD_MS + 60_000;
      // The holds expired: nobody paid, so the code is free again.
      expect(await usesOf(id)).toBe(0);
      const third = await placed(await place(c, basic._id, code));
      await pays(third, (await orderRow(third)).package_price as string);
      await pays(second, (await orderRow(second)).package_price as string);
      expect((await orderRow(second)).payment_status).toBe("Paid");
      // A pays late, once the two uses were paid by others: refused, recorded, not Paid.
      await pays(first, (await orderRow(first)).package_price as string);
      expect((await orderRow(first)).payment_status).toBe("UnPaid");
      expect(await lastReason(first)).toMatchObject({ outcome: "refused" });
      expect(await usesOf(id)).toBe(2);
    } finally {
      clock = START;
    }
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

  it("refuses a code naming a package that does not exist, on add and on edit, with a message", async () => {
    const ghost = "00000000-0000-4000-8000-000000000000";
    const add = await app.request("/api/discount-codes", {
      method: "POST",
      json: { code: "GHOSTPKG", kind: "percent", value: 20, packageIds: [basic._id, ghost] },
      jar: admin,
    });
    expect(add.status).toBe(400);
    expect(await add.json()).toMatchObject({
      errors: [{ field: "packageIds", message: UNKNOWN_PACKAGE_MESSAGE }],
    });
    const { id } = await addCode({});
    const edit = await app.request(`/api/discount-codes/${id}`, {
      method: "PUT",
      json: { code: "GHOSTPKG2", kind: "percent", value: 20, packageIds: [ghost] },
      jar: admin,
    });
    expect(edit.status).toBe(400);
    expect(await edit.json()).toMatchObject({ errors: [{ field: "packageIds", message: UNKNOWN_PACKAGE_MESSAGE }] });
    expect(
      (await app.db.pool.query("select count(*) from discount_codes where code like 'GHOSTPKG%'")).rows[0].count,
    ).toBe("0");
  });
});
