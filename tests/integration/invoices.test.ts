import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dayKey } from "#domain/dates.ts";
import type { Viewer } from "#server/services/accounts.ts";
import { jobKey } from "#server/services/jobs.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { databaseBefore, statements } from "../support/migrations";
import { pdfText } from "../support/pdf";
import { CookieJar } from "../support/session";

/**
 * Invoices (decision 038) against the real database and pages: numbers taken by payments made at once have no gap and
 * no repeat, a failed payment gives its number back, refunds and corrections keep it, gifts get none; the invoice as
 * JSON, page and PDF for its customer and staff who see orders, "not found" for anyone else; the legal details from
 * the settings; the mail's link; and migration 0020's backfill of orders paid before it.
 */
let app: TestApp;
const clock = Date.UTC(2026, 10, 25, 10);
const admin = new CookieJar();
let nora: { jar: CookieJar; viewer: Viewer };
let basic: { _id: string; packagePrice: number; packageName: string };
const form = {
  customerName: "Nora Lindqvist",
  customerAddress: "2 Dock Road, Hull",
  customerCountry: "United Kingdom",
};
const YEAR = Number(dayKey(new Date(clock), "UTC").slice(0, 4));

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "boss@example.org", ADMIN_PASSWORD: "boss-pass-12", PAYPAL_RECEIVER_EMAIL: "shop@example.org" },
    { now: () => new Date(clock), pages: true },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  const pricing = (await (await app.request("/api/pricings")).json()) as (typeof basic)[];
  basic = pricing.find((p) => p.packageName === "Basic")!;
  const jar = await signUp(app, "nora@example.org", { name: "Nora" });
  nora = { jar, viewer: (await app.services.accounts.viewer(new Headers({ cookie: jar.header() })))! };
}, 120_000);
afterAll(() => app?.close());

/** A customer the services act for (an account row, no session). */
async function customerRow(): Promise<Viewer> {
  const id = crypto.randomUUID();
  const email = `p-${id.slice(0, 8)}@example.org`;
  await app.db.pool.query(`insert into "user" (id, name, email) values ($1, '', $2)`, [id, email]);
  return { id, email, name: "", displayName: email, emailVerified: true, staffRole: null, isAdmin: false } as Viewer;
}
const place = async (viewer: Viewer) => (await app.services.orders.place(viewer, basic._id, form)).order;
const invoiceOf = async (id: string) =>
  (await app.db.pool.query(`select invoice_number, invoiced_at from orders where id = $1`, [id])).rows[0] as {
    invoice_number: string | null;
    invoiced_at: Date | null;
  };
const lastInvoice = async () =>
  Number(
    (await app.db.pool.query(`select last from number_sequences where scope = $1`, [`invoice:${YEAR}`])).rows[0]
      ?.last ?? 0,
  );
const seq = (n: number) => `INV-${YEAR}-${String(n).padStart(5, "0")}`;

/** Nora's order, paid by PayPal: its invoice number. */
async function norasPaidOrder(): Promise<{ id: string; orderNumber: string; invoiceNumber: string }> {
  const order = await place(nora.viewer);
  await app.services.orders.pay(order._id, PAYPAL_ACTOR, `TX-${randomBytes(4).toString("hex")}`);
  return { id: order._id, orderNumber: order.orderNumber, invoiceNumber: (await invoiceOf(order._id)).invoice_number! };
}

describe("invoice numbers", () => {
  it("are gap-free and unique under payments made at once; a payment that fails gives its number back", async () => {
    const before = await lastInvoice();
    const people = await Promise.all(Array.from({ length: 6 }, () => customerRow()));
    const orders = await Promise.all(people.flatMap((c) => [0, 1, 2].map(() => place(c))));
    // One payment reuses a PayPal transaction id another payment holds: its transaction fails after taking a number.
    const taken = await place(people[0]!);
    await app.services.orders.pay(taken._id, PAYPAL_ACTOR, "TX-TAKEN");
    const results = await Promise.allSettled([
      ...orders.map((o, i) => app.services.orders.pay(o._id, PAYPAL_ACTOR, `TX-AT-ONCE-${i}`)),
      app.services.orders.pay((await place(people[1]!))._id, PAYPAL_ACTOR, "TX-TAKEN"),
    ]);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    const numbers = (await Promise.all([taken, ...orders].map((o) => invoiceOf(o._id)))).map((r) => r.invoice_number);
    expect([...numbers].sort()).toEqual(Array.from({ length: 19 }, (_, i) => seq(before + 1 + i)));
    expect(await lastInvoice()).toBe(before + 19);
    // The invoice date is the payment's.
    expect((await invoiceOf(orders[0]!._id)).invoiced_at).toEqual(new Date(clock));
  });

  it("are kept by a refund and by a payment set back to unpaid and paid again; gifts and unpaid orders get none", async () => {
    const { id, invoiceNumber } = await norasPaidOrder();
    const put = (json: unknown) => app.request(`/api/order/${id}`, { method: "PUT", json, jar: admin });
    expect((await put({ paymentStatus: "UnPaid" })).status).toBe(200);
    expect((await put({ paymentStatus: "Paid" })).status).toBe(200);
    expect((await invoiceOf(id)).invoice_number).toBe(invoiceNumber);
    expect((await put({ paymentStatus: "Refunded" })).status).toBe(200);
    expect((await invoiceOf(id)).invoice_number).toBe(invoiceNumber);
    const before = await lastInvoice();
    // A zero-price order (a gift) paid: no sale, no invoice, no number taken.
    const gift = await place(nora.viewer);
    await app.db.pool.query(`update orders set package_price = 0 where id = $1`, [gift._id]);
    await app.services.orders.pay(gift._id, PAYPAL_ACTOR);
    expect((await invoiceOf(gift._id)).invoice_number).toBeNull();
    const unpaid = await place(nora.viewer);
    expect((await invoiceOf(unpaid._id)).invoice_number).toBeNull();
    expect(await lastInvoice()).toBe(before);
    // A bank transfer the studio records is a payment like any other: invoiced, with its reference.
    const transfer = await place(nora.viewer);
    await app.services.orders.payOutside(transfer._id, PAYPAL_ACTOR, "BANK-REF-77", false);
    expect((await invoiceOf(transfer._id)).invoice_number).toBe(seq(before + 1));
    const byBank = await (await app.request(`/api/invoices/${transfer.orderNumber}`, { jar: nora.jar })).json();
    expect(byBank.payment).toMatchObject({ method: "Bank transfer", reference: "BANK-REF-77" });
    // The refunded invoice says so.
    const invoice = await (await app.request(`/api/invoices/${(await orderNumber(id))!}`, { jar: nora.jar })).json();
    expect(invoice).toMatchObject({ invoiceNumber, paymentStatus: "Refunded" });
    for (const o of [gift, unpaid])
      expect((await app.request(`/api/invoices/${o.orderNumber}`, { jar: nora.jar })).status).toBe(404);
  });
});

const orderNumber = async (id: string) =>
  (await app.db.pool.query(`select number from orders where id = $1`, [id])).rows[0]?.number as string | undefined;

describe("an invoice", () => {
  it("is read by its customer and by staff who see orders; anyone else is told it does not exist", async () => {
    const { orderNumber: number, invoiceNumber } = await norasPaidOrder();
    const other = await signUp(app, "other@example.org");
    const editor = await signUpStaff(app, app.db.pool, "ed@example.org", "Editor");
    const get = (p: string, jar?: CookieJar) => app.request(p, { jar });

    const own = await get(`/api/invoices/${number}`, nora.jar);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      invoiceNumber,
      orderNumber: number,
      paymentStatus: "Paid",
      amount: basic.packagePrice,
      currency: "USD",
      customer: { name: form.customerName, address: form.customerAddress, country: form.customerCountry },
      item: { packageName: "Basic" },
      payment: { method: "PayPal", paidAt: new Date(clock).toISOString() },
    });
    // Any case and spaces around, as typed.
    expect((await get(`/api/invoices/%20${number.toLowerCase()}%20`, nora.jar)).status).toBe(200);
    expect((await get(`/api/invoices/${number}`, admin)).status).toBe(200);
    expect((await get(`/api/invoices/${number}`, other)).status).toBe(404);
    expect((await get(`/api/invoices/${number}`, editor)).status).toBe(403);
    expect((await get(`/api/invoices/${number}`)).status).toBe(401);
    for (const bad of ["AN-2026-1", "..%2F..%2Fetc", "x".repeat(300), "AN-9999-99999"])
      expect((await get(`/api/invoices/${bad}`, admin)).status).toBe(404);

    // The page: the customer, staff; another customer and the Editor (a customer of their own) get 404.
    const page = await get(`/invoice/${number}`, nora.jar);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(invoiceNumber);
    expect(html).toContain(`href="/invoice/${number}.pdf"`);
    expect((await get(`/invoice/${number}`, admin)).status).toBe(200);
    expect((await get(`/invoice/${number}`, other)).status).toBe(404);
    expect((await get(`/invoice/${number}`, editor)).status).toBe(404);
    const signedOut = await get(`/invoice/${number}`);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toContain("/login");

    // The PDF: the same people, the same data.
    const pdf = await get(`/invoice/${number}.pdf`, nora.jar);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="${invoiceNumber}.pdf"`);
    expect(pdf.headers.get("cache-control")).toBe("private, no-store");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = pdfText(bytes);
    expect(text).toContain(invoiceNumber);
    expect(text).toContain(`$${basic.packagePrice.toFixed(2)} USD`);
    expect(text).toContain(form.customerName);
    expect(text).toContain(number);
    expect((await get(`/invoice/${number}.pdf`, admin)).status).toBe(200);
    expect((await get(`/invoice/${number}.pdf`, other)).status).toBe(404);
    expect((await get(`/invoice/${number}.pdf`, editor)).status).toBe(404);
    expect((await get(`/invoice/${number}.pdf`)).status).toBe(302);
  });

  it("prints the legal details set in the back office, and the mail links to it", async () => {
    const put = await app.request("/api/settings", {
      method: "PUT",
      json: {
        invoiceCompanyNumber: "SC123456",
        money: { currency: "USD", sellerCountry: "GB", vatNumber: "GB 123 4567 89" },
      },
      jar: admin,
    });
    expect(put.status).toBe(200);
    const bad = await app.request("/api/settings", {
      method: "PUT",
      json: { money: { currency: "USD", sellerCountry: "GB", vatNumber: "12" } },
      jar: admin,
    });
    expect(bad.status).toBe(400);
    const { id, orderNumber: number, invoiceNumber } = await norasPaidOrder();
    const invoice = await (await app.request(`/api/invoices/${number}`, { jar: nora.jar })).json();
    expect(invoice.seller).toMatchObject({ companyNumber: "SC123456", vatNumber: "GB123456789" });
    const text = pdfText(
      Buffer.from(await (await app.request(`/invoice/${number}.pdf`, { jar: nora.jar })).arrayBuffer()),
    );
    expect(text).toContain("VAT number GB123456789");
    expect(text).toContain("Company number SC123456");
    // The receipt names the invoice and links to its page.
    const { rows } = await app.db.pool.query(`select data from pgboss.job where data->>'key' = $1`, [
      jobKey("order", id, "paid"),
    ]);
    const mail = rows[0]!.data.mail as { text: string };
    expect(mail.text).toContain(invoiceNumber);
    expect(mail.text).toContain(`/invoice/${number}`);
    // The activity entry of the payment shows the invoice it issued.
    const entry = await app.db.pool.query(
      `select changes from activity_log where entity = 'order' and record_id = $1 and changes ? 'invoiceNumber'`,
      [id],
    );
    expect(entry.rows.map((r) => r.changes.invoiceNumber)).toEqual([{ before: null, after: invoiceNumber }]);
  });
});

/**
 * Issue 33, item 8: the PDF's fonts draw every character an invoice prints. A discount's line starts with the minus sign
 * (U+2212, not in the PDF's built-in Helvetica), and a customer's name may be in any script.
 */
describe("an invoice's PDF", () => {
  const names = {
    Greek: "Ελένη Παπαδοπούλου",
    Cyrillic: "Наталья Иванова",
    Arabic: "ليلى حداد",
    Hebrew: "שרה לוי",
  };

  it("prints a discount's minus sign and a name in Greek, Cyrillic, Arabic and Hebrew", async () => {
    const code = `MINUS${randomBytes(3).toString("hex").toUpperCase()}`;
    const added = await app.request("/api/discount-codes", {
      method: "POST",
      json: { code, kind: "percent", value: 20 },
      jar: admin,
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const discount = Math.round(basic.packagePrice * 20) / 100;
    for (const [script, name] of Object.entries(names)) {
      const jar = await signUp(app, `pdf-${script.toLowerCase()}@example.org`);
      const res = await app.request("/api/new-order", {
        method: "POST",
        json: { packageId: basic._id, ...form, customerName: name, discountCode: code },
        jar,
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const id = ((await res.json()) as { insertedId: string }).insertedId;
      await app.services.orders.pay(id, PAYPAL_ACTOR, `TX-${randomBytes(4).toString("hex")}`);
      const pdf = await app.request(`/invoice/${(await orderNumber(id))!}.pdf`, { jar });
      expect(pdf.status).toBe(200);
      const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
      expect(text, script).toContain(`\u2212$${discount.toFixed(2)} USD`);
      expect(text, script).toContain(`$${(basic.packagePrice - discount).toFixed(2)} USD`);
      // Arabic and Hebrew run right to left: pdftotext gives their words in reading order, the order of the name itself.
      expect(text, script).toContain(name);
    }
  });
});

/** Migration 0020 on orders paid before it: invoiced in payment order, per year of the site's zone. */
describe("migration 0020", () => {
  const { admin: adminUrl } = inject("testDb");
  let client: pg.Client;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ client, drop } = await databaseBefore(adminUrl, "0020_invoice_numbers")));
  afterAll(() => drop?.());

  it("invoices the orders paid for money in the order they were paid and starts each year's counter after them", async () => {
    await client.query(`update order_tally_zone set time_zone = 'America/New_York'`);
    await client.query(`insert into "user" (id, name, email) values ('u1', '', 'a@example.org')`);
    let n = 0;
    const order = async (status: string, paidAt: string | null, price = 29) =>
      (
        await client.query(
          `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email,
             customer_name, customer_address, customer_country, payment_status, order_status, order_date, paid_at,
             created_at, updated_at)
           values ($1, 'u1', 'Basic', $4, 30, 'a@example.org', 'A', 'Road', 'UK', $2, 'Pending', '01/01/2026', $3,
             '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')
           returning id`,
          [`AN-2025-${String(++n).padStart(5, "0")}`, status, paidAt, price],
        )
      ).rows[0].id as string;
    // 2026-01-01 03:00 UTC is still 2025 in New York.
    const a = await order("Paid", "2026-01-01T03:00:00Z");
    const b = await order("Refunded", "2025-06-01T12:00:00Z");
    const c = await order("Paid", "2026-02-01T12:00:00Z");
    const unpaid = await order("UnPaid", null);
    const cancelled = await order("Cancelled", null);
    const gift = await order("Paid", "2026-03-01T12:00:00Z", 0);
    const d = await order("Paid", "2026-01-15T12:00:00Z");
    await client.query("begin");
    for (const s of statements("0020_invoice_numbers")) await client.query(s);
    await client.query("commit");

    const rows = new Map(
      (await client.query(`select id, invoice_number, invoiced_at, paid_at from orders`)).rows.map((r) => [r.id, r]),
    );
    expect(rows.get(b)!.invoice_number).toBe("INV-2025-00001");
    expect(rows.get(a)!.invoice_number).toBe("INV-2025-00002");
    expect(rows.get(d)!.invoice_number).toBe("INV-2026-00001");
    expect(rows.get(c)!.invoice_number).toBe("INV-2026-00002");
    for (const none of [unpaid, cancelled, gift]) expect(rows.get(none)!.invoice_number).toBeNull();
    expect(rows.get(a)!.invoiced_at).toEqual(rows.get(a)!.paid_at);
    expect(
      (await client.query(`select scope, last from number_sequences where scope like 'invoice:%' order by scope`)).rows,
    ).toEqual([
      { scope: "invoice:2025", last: 2 },
      { scope: "invoice:2026", last: 2 },
    ]);
    await expect(
      client.query(`update orders set invoice_number = 'INV-2026-00001' where id = $1`, [c]),
    ).rejects.toThrow(/orders_invoice_number_unique/);
  });
});
