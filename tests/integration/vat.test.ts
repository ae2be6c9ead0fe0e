import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoContent } from "#server/seed/demo-content.ts";
import { CURRENCY_LOCKED } from "#domain/money-settings.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 35 parts 1 and 3 through the REST calls: the money settings as one audited record, and the VAT each order
 * keeps when it is placed (decision 072), worked out by domain/tax.ts.
 */
let app: TestApp;
let basicId = "";
const customer = new CookieJar();
const admin = new CookieJar();

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "vat-boss@example.org", ADMIN_PASSWORD: "vat-boss-pass-1" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  const pricing = (await (await app.request("/api/pricings")).json()) as { _id: string; packageName: string }[];
  basicId = pricing.find((p) => p.packageName === "Basic")!._id;
  await signUp(app, "vat-buyer@example.org", { jar: customer });
  await signInAsAdmin(app, { jar: admin });
});
afterAll(() => app?.close());

const putMoney = (money: Record<string, unknown>) =>
  app.request("/api/settings", { method: "PUT", json: { money }, jar: admin });

const UK_STUDIO = { currency: "GBP", sellerCountry: "GB", vatRegistered: true, vatNumber: "GB123456789", oss: true };

async function place(country: string, extra: Record<string, unknown> = {}) {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: {
      packageId: basicId,
      customerName: "Vera Buyer",
      customerAddress: "1 Quay, Hull",
      customerCountry: country,
      ...extra,
    },
    jar: customer,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const orderOf = async (id: string) =>
  (await (await app.request(`/api/order/${id}`, { jar: customer })).json()) as Record<string, unknown>;

describe("the money settings", () => {
  it("refuse a registered seller without a VAT number, or one of another form, naming the form", async () => {
    const missing = await putMoney({ ...UK_STUDIO, vatNumber: "" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors).toEqual([
      { field: "money.vatNumber", message: "A business registered for VAT needs its VAT number" },
    ]);
    const wrong = await putMoney({ ...UK_STUDIO, vatNumber: "GB12" });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(await wrong.json())).toContain("A UK VAT number is GB followed by");
    const country = await putMoney({ ...UK_STUDIO, sellerCountry: "US" });
    expect(country.status).toBe(400);
  });

  it("are saved as one audited record, the VAT number as invoices print it", async () => {
    const res = await putMoney({ ...UK_STUDIO, vatNumber: "gb 123 4567 89" });
    expect(res.status).toBe(200);
    const settings = await (await app.request("/api/settings", { jar: admin })).json();
    expect(settings.money).toEqual({ ...UK_STUDIO, pricesIncludeVat: false });
    const { rows } = await app.db.pool.query(
      `select changes from activity_log where entity = 'setting' and record_id = 'money' order by created_at desc limit 1`,
    );
    expect(rows[0].changes).toMatchObject({
      money: { before: { vatRegistered: false }, after: { vatRegistered: true } },
    });
  });
});

describe("an order placed", () => {
  it("keeps the VAT of its buyer: a UK consumer, a French consumer (OSS), a German business (reverse charge)", async () => {
    const uk = await place("United Kingdom");
    expect(uk.status).toBe(201);
    expect(await orderOf(uk.body.insertedId as string)).toMatchObject({
      packagePrice: 58.8,
      currency: "GBP",
      customerCountry: "United Kingdom",
      tax: { netCents: 4900, taxCents: 980, rateBasisPoints: 2000, country: "GB", treatment: "domestic", note: null },
    });
    const fr = await place("fr");
    expect(await orderOf(fr.body.insertedId as string)).toMatchObject({
      packagePrice: 58.8,
      customerCountry: "France",
      tax: { taxCents: 980, country: "FR", treatment: "oss" },
    });
    const de = await place("Germany", { customerVatNumber: "de 123456789" });
    expect(await orderOf(de.body.insertedId as string)).toMatchObject({
      packagePrice: 49,
      customerVatNumber: "DE123456789",
      tax: {
        netCents: 4900,
        taxCents: 0,
        treatment: "reverse-charge",
        note: "Reverse charge: customer to account for VAT",
      },
    });
    const us = await place("United States");
    expect(await orderOf(us.body.insertedId as string)).toMatchObject({
      packagePrice: 49,
      tax: { taxCents: 0, treatment: "outside-scope", note: "Outside the scope of UK VAT" },
    });
  });

  it("refuses a VAT number of the wrong form, naming the form, and one from outside the UK and the Union", async () => {
    const bad = await place("Germany", { customerVatNumber: "DE12" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: "customerVatNumber", message: "A German VAT number is DE followed by 9 digits (DE123456789)." },
    ]);
    const us = await place("United States", { customerVatNumber: "123456789" });
    expect(us.status).toBe(400);
  });

  it("the currency cannot change once orders exist; the rest of the record can", async () => {
    const res = await putMoney({ ...UK_STUDIO, currency: "EUR" });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(CURRENCY_LOCKED);
    expect((await putMoney({ ...UK_STUDIO, pricesIncludeVat: true })).status).toBe(200);
    const uk = await place("GB");
    // £49.00 including VAT at 20 %: £8.17 of VAT, £40.83 net.
    expect(await orderOf(uk.body.insertedId as string)).toMatchObject({
      packagePrice: 49,
      tax: { netCents: 4083, taxCents: 817 },
    });
  });
});
