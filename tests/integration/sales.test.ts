import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { erasedEmail } from "#domain/privacy.ts";
import { checkVatNumber } from "#domain/vat-number.ts";
import { ERASED_NO_SALE } from "#server/services/customers.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { CUSTOMER_PASSWORD, signIn, signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Sales made by hand (issue 35, part 7) through `POST /api/customers/:id/orders`, on the real database: an order the
 * studio makes for a customer, priced and taxed as the customer's own order would be, then paid at once (a bank
 * transfer, cash, PayPal taken elsewhere: invoiced by the payment path every order takes) or left to pay with the
 * link mailed once; every bad input refused with its field; every role.
 */
let app: TestApp;
let admin: CookieJar;
let editor: CookieJar;
const ids: Record<string, string> = {};
const jars: Record<string, CookieJar> = {};
let pkg: { _id: string; packageName: string; packagePrice: number; packageValidity: number };

type Sale = {
  insertedId: string;
  orderId: string;
  orderNumber: string;
  created: boolean;
  paymentStatus: string;
  orderStatus: string;
  invoiceNumber: string | null;
  amount: number;
  currency: string;
  membershipValid: string | null;
};

const address = { customerName: "Ada Byron", customerAddress: "1 Quay Street, Bristol", customerCountry: "GB" };
const sell = (who: string, json: Record<string, unknown>, init: { jar?: CookieJar; key?: string } = {}) =>
  app.request(`/api/customers/${ids[who]}/orders`, {
    method: "POST",
    json: { packageId: pkg._id, ...address, ...json },
    jar: init.jar ?? admin,
    headers: init.key ? { "Idempotency-Key": init.key } : {},
  });
const order = async (id: string) =>
  (
    await app.db.pool.query(
      `select payment_status, order_status, payment_method, payment_reference, txn_id, invoice_number,
              package_price::text as price, tax_cents, tax_rate, tax_treatment, currency, customer_vat_number,
              customer_country, user_id, customer_email
       from orders where id = $1`,
      [id],
    )
  ).rows[0] as Record<string, unknown>;
const mailsTo = async (email: string) =>
  (
    await app.db.pool.query(
      `select data->'mail' as mail from pgboss.job where name = 'send-mail' and data->'mail'->>'to' = $1
       order by created_on`,
      [email],
    )
  ).rows.map((r) => r.mail as { subject: string; text: string; link?: string });

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-1", TZ: "Europe/London" },
    { pages: true },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  admin = await signInAsAdmin(app);
  editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
  pkg = ((await (await app.request("/api/pricings")).json()) as (typeof pkg)[])[0]!;
  // A UK studio registered for VAT, prices entered without it, in pounds (before any order: the currency is free).
  const [owner] = (await app.db.pool.query(`select id from "user" where email = 'owner@example.org'`)).rows;
  await app.services.settings.update(
    {
      money: {
        currency: "GBP",
        sellerCountry: "GB",
        vatRegistered: true,
        vatNumber: "GB123456789",
        pricesIncludeVat: false,
        oss: false,
      },
    },
    { id: owner.id, email: "owner@example.org" },
  );
  for (const who of ["ada", "ben", "cleo", "dan", "eve", "fay"]) {
    jars[who] = await signUp(app, `${who}@example.org`, { name: who });
    const [u] = (await app.db.pool.query(`select id from "user" where email = $1`, [`${who}@example.org`])).rows;
    ids[who] = u.id;
  }
}, 120_000);
afterAll(() => app?.close());

describe("a sale made by hand", () => {
  it("is priced and taxed as the customer's own order of the package is, placed for them by the staff member", async () => {
    const own = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: pkg._id, ...address },
      jar: jars.ada,
    });
    expect(own.status).toBe(201);
    const placed = await order(((await own.json()) as { insertedId: string }).insertedId);
    const res = await sell("ada", { settle: "pay-link" });
    expect(res.status).toBe(201);
    const sale = (await res.json()) as Sale;
    expect(sale).toMatchObject({ created: true, paymentStatus: "UnPaid", orderStatus: "Pending", invoiceNumber: null });
    expect(sale.orderNumber).toMatch(/^AN-\d{4}-\d{5}$/);
    const made = await order(sale.orderId);
    for (const column of ["price", "tax_cents", "tax_rate", "tax_treatment", "currency", "customer_country"])
      expect(made[column], column).toEqual(placed[column]);
    // £49 net, 20 % UK VAT on top: £58.80, of which £9.80 VAT.
    expect(made).toMatchObject({ price: "58.80", tax_cents: 980, tax_rate: 2000, currency: "GBP" });
    expect(made).toMatchObject({ user_id: ids.ada, customer_email: "ada@example.org" });
    const log = await app.db.pool.query(
      "select actor_email, action from activity_log where entity = 'order' and record_id = $1",
      [sale.orderId],
    );
    expect(log.rows).toEqual([{ actor_email: "owner@example.org", action: "create" }]);
  });

  it("takes another price only with its reason, on the same footing as the package's (net here), audited", async () => {
    const noReason = await sell("ben", { price: "40", settle: "cash" });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(await noReason.json())).toContain('"field":"reason"');
    const res = await sell("ben", { price: "40", reason: "Agreed on the phone: a returning client", settle: "cash" });
    expect(res.status).toBe(201);
    const sale = (await res.json()) as Sale;
    // £40 net + 20 %: £48.00, £8.00 VAT; cash is a payment the studio received, its reference says so.
    expect(await order(sale.orderId)).toMatchObject({
      price: "48.00",
      tax_cents: 800,
      payment_status: "Paid",
      payment_method: "By hand",
      payment_reference: "Cash",
    });
    const record = (await (await app.request(`/api/customers/${ids.ben}`, { jar: admin })).json()) as {
      activity: { changes: { field: string; after: string }[] }[];
    };
    const changes = record.activity.flatMap((e) => e.changes);
    expect(changes).toContainEqual(
      expect.objectContaining({ field: "priceReason", after: "Agreed on the phone: a returning client" }),
    );
    // The package's own price, typed, needs no reason.
    const same = await sell("ben", { price: String(pkg.packagePrice), settle: "pay-link" });
    expect(same.status).toBe(201);
  });

  it("paid by bank transfer: Paid, invoiced by the payment path, the membership started, the receipt mailed", async () => {
    const res = await sell("cleo", { settle: "bank-transfer", reference: "BACS 7731", activate: true });
    expect(res.status).toBe(201);
    const sale = (await res.json()) as Sale;
    expect(sale.invoiceNumber).toMatch(/^INV-\d{4}-\d{5}$/);
    expect(sale).toMatchObject({ paymentStatus: "Paid", orderStatus: "Delivered", currency: "GBP", amount: 58.8 });
    expect(sale.membershipValid).toBeTruthy();
    expect(await order(sale.orderId)).toMatchObject({
      payment_method: "Bank transfer",
      payment_reference: "BACS 7731",
      txn_id: null,
      invoice_number: sale.invoiceNumber,
    });
    const keys = await app.db.pool.query("select key from job_keys where key like $1 order by key", [
      `order:${sale.orderId}:%`,
    ]);
    expect(keys.rows.map((r) => r.key)).toEqual([`order:${sale.orderId}:active`, `order:${sale.orderId}:paid`]);
    // The invoice is the one every paid order has: its page answers for staff.
    const invoice = await app.request(`/api/invoices/${sale.orderNumber}`, { jar: admin });
    expect(invoice.status).toBe(200);
    expect(JSON.stringify(await invoice.json())).toContain(sale.invoiceNumber!);
  });

  it("paid by PayPal elsewhere: PayPal with its transaction id as the reference, nothing to refund through the API", async () => {
    const res = await sell("cleo", { settle: "paypal", reference: "8MC585209K746392H" });
    const sale = (await res.json()) as Sale;
    expect(sale).toMatchObject({ paymentStatus: "Paid", orderStatus: "Pending" });
    expect(sale.invoiceNumber).toMatch(/^INV-/);
    expect(await order(sale.orderId)).toMatchObject({
      payment_method: "PayPal",
      payment_reference: "8MC585209K746392H",
      txn_id: null,
    });
  });

  it("with the pay link: unpaid, one mail with the link to the pay screen, one order per key", async () => {
    const key = randomUUID();
    const first = await sell("dan", { settle: "pay-link" }, { key });
    expect(first.status).toBe(201);
    const sale = (await first.json()) as Sale;
    const again = await sell("dan", { settle: "pay-link" }, { key });
    expect(again.status).toBe(201);
    expect((await again.json()) as Sale).toMatchObject({ orderId: sale.orderId, created: false });
    const mails = await mailsTo("dan@example.org");
    const payLinks = mails.filter((m) => m.link?.endsWith(`/pay-now/${sale.orderId}`));
    expect(payLinks).toHaveLength(1);
    expect(payLinks[0]!.subject).toBe(`Your order for ${pkg.packageName}: £58.80 GBP to pay`);
    expect(payLinks[0]!.text).toContain(sale.orderNumber);
    expect(
      (await app.db.pool.query("select count(*)::int n from orders where user_id = $1", [ids.dan])).rows[0].n,
    ).toBe(1);
    // The customer pays it like an order of their own: it is theirs.
    const mine = await app.request(`/api/order/${sale.orderId}`, { jar: jars.dan });
    expect(mine.status).toBe(200);
    // A key used for another package is refused.
    const other = ((await (await app.request("/api/pricings")).json()) as (typeof pkg)[])[1]!;
    const clash = await sell("dan", { packageId: other._id, settle: "pay-link" }, { key });
    expect(clash.status).toBe(409);
  });

  it("over the API, takes the buyer's details left out from the customer's latest order", async () => {
    const bare = (who: string) =>
      app.request(`/api/customers/${ids[who]}/orders`, {
        method: "POST",
        json: { packageId: pkg._id, settle: "pay-link" },
        jar: admin,
      });
    const res = await bare("ben");
    expect(res.status).toBe(201);
    const sale = (await res.json()) as Sale;
    expect(await order(sale.orderId)).toMatchObject({ customer_country: "United Kingdom", tax_rate: 2000 });
    const [row] = (
      await app.db.pool.query("select customer_name, customer_address from orders where id = $1", [sale.orderId])
    ).rows;
    expect(row).toEqual({ customer_name: address.customerName, customer_address: address.customerAddress });
    // Fay never ordered: her account's name is taken, her address and country are asked for.
    const none = await bare("fay");
    expect(none.status).toBe(400);
    const fields = ((await none.json()) as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields.sort()).toEqual(["customerAddress", "customerCountry"]);
  });

  it("refuses every bad input with its field and a sentence, making no order", async () => {
    const before = (await app.db.pool.query("select count(*)::int n from orders")).rows[0].n;
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ packageId: "no-such-package", settle: "cash" }, "packageId", "This package does not exist"],
      [{ price: "forty", settle: "cash" }, "price", "Enter the price as an amount, such as 49 or 49.50"],
      [{ price: "12.345", settle: "cash" }, "price"],
      [{ price: "0", settle: "cash" }, "price"],
      [{ settle: "cheque" }, "settle"],
      [{ settle: "bank-transfer" }, "reference", "Enter the transfer's reference"],
      [{ settle: "paypal", reference: " " }, "reference"],
      [{ customerName: "", settle: "cash" }, "customerName"],
      [
        { customerCountry: "Germany", customerVatNumber: "DE12", settle: "cash" },
        "customerVatNumber",
        checkVatNumber("DE", "DE12").ok ? "" : (checkVatNumber("DE", "DE12") as { message: string }).message,
      ],
    ];
    for (const [json, field, message] of cases) {
      const res = await sell("eve", json);
      const body = JSON.stringify(await res.json());
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(body, JSON.stringify(json)).toContain(`"field":"${field}"`);
      if (message) expect(body).toContain(message);
    }
    expect((await app.db.pool.query("select count(*)::int n from orders")).rows[0].n).toBe(before);
  });

  it("a German business with a valid VAT number is sold without VAT, under the reverse charge", async () => {
    const res = await sell("eve", {
      customerCountry: "Germany",
      customerVatNumber: "DE 123 456 789",
      settle: "bank-transfer",
      reference: "SEPA 42",
    });
    expect(res.status).toBe(201);
    const sale = (await res.json()) as Sale;
    expect(await order(sale.orderId)).toMatchObject({
      price: "49.00",
      tax_cents: 0,
      tax_treatment: "reverse-charge",
      customer_vat_number: "DE123456789",
    });
  });

  it("is not for an erased customer, a staff member, or nobody", async () => {
    const [staff] = (await app.db.pool.query(`select id from "user" where email = 'editor@example.org'`)).rows;
    const res = await app.request(`/api/customers/${staff.id}/orders`, {
      method: "POST",
      json: { packageId: pkg._id, ...address, settle: "cash" },
      jar: admin,
    });
    expect(res.status).toBe(404);
    const nobody = await app.request(`/api/customers/${randomUUID()}/orders`, {
      method: "POST",
      json: { packageId: pkg._id, ...address, settle: "cash" },
      jar: admin,
    });
    expect(nobody.status).toBe(404);
    await app.db.pool.query(`update "user" set email = $1 where id = $2`, [erasedEmail(ids.eve!), ids.eve]);
    const erased = await sell("eve", { settle: "cash" });
    expect(erased.status).toBe(409);
    expect(JSON.stringify(await erased.json())).toContain(ERASED_NO_SALE);
  });
});

describe("who may sell", () => {
  it("answers Admins; refuses Editors and customers (403) and visitors (401), making no order", async () => {
    const before = (await app.db.pool.query("select count(*)::int n from orders")).rows[0].n;
    const customer = await signIn(app, "ada@example.org", CUSTOMER_PASSWORD);
    for (const [jar, status] of [
      [editor, 403],
      [customer, 403],
      [new CookieJar(), 401],
    ] as const)
      expect((await sell("ada", { settle: "cash" }, { jar })).status).toBe(status);
    expect((await app.db.pool.query("select count(*)::int n from orders")).rows[0].n).toBe(before);
    expect((await sell("ada", { settle: "cash" })).status).toBe(201);
  });
});

describe("the sale page of the customer's record", () => {
  const page = (who: string, jar = admin) => app.request(`/customers/${ids[who]}/sale`, { jar });
  const post = (who: string, fields: Record<string, string>) =>
    app.request(`/customers/${ids[who]}/sale`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _form: "sale", packageId: pkg._id, ...fields }).toString(),
      jar: admin,
    });

  it("is linked from the record, and starts from the customer's latest order; an Editor is not let in", async () => {
    const record = await (await app.request(`/customers/${ids.ada}`, { jar: admin })).text();
    expect(record).toContain(`href="/customers/${ids.ada}/sale"`);
    const res = await page("ada");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('name="packageId"');
    expect(html).toContain('value="Ada Byron"');
    expect(html).toContain("Prices are entered without VAT");
    expect(html).toContain(`${pkg.packageName} · £${pkg.packagePrice.toFixed(2)}`);
    const refused = await page("ada", editor);
    await refused.arrayBuffer();
    expect(refused.status).not.toBe(200);
  });

  it("answers a bad form with each field's sentence, and a good one with the sale made and paid", async () => {
    const address = { customerName: "Ada Byron", customerAddress: "1 Quay Street", customerCountry: "GB" };
    const bad = await post("ada", { ...address, price: "abc", settle: "cash" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter the price as an amount, such as 49 or 49.50");
    const before = (await app.db.pool.query("select count(*)::int n from orders where user_id = $1", [ids.ada])).rows[0]
      .n;
    const key = randomUUID();
    const good = await post("ada", {
      ...address,
      settle: "bank-transfer",
      reference: "BACS 9001",
      activate: "on",
      idempotencyKey: key,
    });
    expect(good.status).toBe(200);
    expect(await good.text()).toMatch(
      /Order AN-\d{4}-\d{5} \(£58\.80, VAT £9\.80 included\) is made and paid: invoice INV-\d{4}-\d{5}\./,
    );
    const { rows } = await app.db.pool.query(
      "select payment_method, payment_reference, order_status from orders where user_id = $1 and idempotency_key = $2",
      [ids.ada, key],
    );
    expect(rows).toEqual([
      { payment_method: "Bank transfer", payment_reference: "BACS 9001", order_status: "Delivered" },
    ]);
    expect(
      (await app.db.pool.query("select count(*)::int n from orders where user_id = $1", [ids.ada])).rows[0].n,
    ).toBe(before + 1);
  });
});
