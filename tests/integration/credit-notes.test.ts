import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dayKey } from "#domain/dates.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { demoPackage, noticesSettled, paidOnCheckout, placeOrderFor } from "../support/paypal";
import { pdfText } from "../support/pdf";
import { CookieJar } from "../support/session";

/**
 * Credit notes (issue 35 part 5, decision 073) against the real database, PayPal's simulator and the pages: a part
 * refund then the rest issue two notes numbered without a gap whose net and VAT add up to the order's; PayPal's resent
 * webhook issues none; a payment set to Refunded by hand credits what is left; the notes as JSON, page and PDF for the
 * customer and staff who see orders, "not found" for anyone else; the invoice of a VAT-registered seller, with its VAT
 * lines and its credit notes; erasure keeps them.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
const clock = new Date("2026-11-28T09:00:00Z");
const YEAR = Number(dayKey(clock, "UTC").slice(0, 4));
const admin = new CookieJar();
let jar: CookieJar;
let other: CookieJar;
let editor: CookieJar;
let basic: { _id: string; packagePrice: number };
let adminActor: { id: string; email: string };
const EMAIL = "cn-payer@example.org";

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "cn-admin@example.org", ADMIN_PASSWORD: "cn-admin-pass-1" },
    { now: () => clock, pages: true },
  );
  sim = app.services.payments.simulator!;
  basic = await demoPackage(app);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  // A UK seller registered for VAT, its prices including VAT: the Basic package's $49.00 holds $8.17 of VAT at 20 %.
  const put = await app.request("/api/settings", {
    method: "PUT",
    json: {
      money: {
        currency: "USD",
        sellerCountry: "GB",
        vatRegistered: true,
        vatNumber: "GB123456789",
        pricesIncludeVat: true,
        oss: false,
      },
    },
    jar: admin,
  });
  expect(put.status, await put.clone().text()).toBe(200);
  editor = await signUpStaff(app, app.db.pool, "cn-editor@example.org", "Editor");
  jar = await signUp(app, EMAIL);
  other = await signUp(app, "cn-other@example.org");
  const { rows } = await app.db.pool.query(`select id, email from "user" where email = 'cn-admin@example.org'`);
  adminActor = rows[0];
}, 120_000);
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

const post = (id: string, json: Record<string, unknown>) =>
  app.request(`/api/order-refund/${id}`, { method: "POST", json, jar: admin });
const notesOf = async (orderId: string) =>
  (
    await app.db.pool.query(
      `select c.number, c.refund_id, c.currency, c.gross_cents, c.tax_cents, c.tax_rate, c.reason, r.amount_cents
       from credit_notes c left join payment_refunds r on r.id = c.refund_id
       where c.order_id = $1 order by c.number`,
      [orderId],
    )
  ).rows as {
    number: string;
    refund_id: string | null;
    currency: string;
    gross_cents: number;
    tax_cents: number;
    tax_rate: number;
    reason: string | null;
    amount_cents: number | null;
  }[];
const lastNumber = async () =>
  Number(
    (await app.db.pool.query(`select last from number_sequences where scope = $1`, [`credit-note:${YEAR}`])).rows[0]
      ?.last ?? 0,
  );
const cn = (n: number) => `CN-${YEAR}-${String(n).padStart(5, "0")}`;
const orderRow = async (id: string) => (await app.db.pool.query("select * from orders where id = $1", [id])).rows[0];
const mailsFor = async (email: string) =>
  (
    await app.db.pool.query(
      `select data->'mail'->>'subject' as subject, data->'mail'->>'text' as text from pgboss.job
       where name = 'send-mail' and data->'mail'->>'to' = $1 order by created_on`,
      [email],
    )
  ).rows as { subject: string; text: string }[];
/** PayPal sends again every webhook it sent of the order's refunds: how many. */
async function resendRefundWebhooks(orderId: string): Promise<number> {
  const refundIds = (
    await app.db.pool.query("select refund_id from payment_refunds where order_id = $1", [orderId])
  ).rows.map((r) => r.refund_id as string);
  const sent = (await sim.transmissions()).filter((t) => refundIds.some((r) => t.body.includes(r)));
  for (const t of sent) await sim.outcomes.resendEvent(t.eventId);
  await noticesSettled(app);
  return sent.length;
}
const paidOrder = () => paidOnCheckout(app, jar, basic._id, adminActor);

describe("credit notes issued by refunds", () => {
  it("a part refund then the rest: two notes without a gap, net and VAT at the order's rate adding up to its VAT", async () => {
    const id = await paidOrder();
    const order = await orderRow(id);
    expect([order.package_price, order.tax_cents, order.tax_rate, order.invoice_number]).toEqual([
      "49.00",
      817,
      2000,
      expect.stringMatching(/^INV-/),
    ]);
    const before = await lastNumber();
    const part = await post(id, { amount: "10.50", reason: "Late start", seen: 0 });
    expect(part.status, await part.clone().text()).toBe(201);
    await noticesSettled(app);
    // PayPal sends the part's webhook again, and the refund is recorded again (our answer and the webhook both record
    // it, decision 067): it has its note, none more is issued.
    await resendRefundWebhooks(id);
    const [recorded] = (
      await app.db.pool.query("select refund_id, payment_id from payment_refunds where order_id = $1", [id])
    ).rows;
    await app.services.payments.refunds!.record({
      provider: "paypal",
      refundId: recorded.refund_id,
      orderId: id,
      paymentId: recorded.payment_id,
      amount: { currency: "USD", value: "10.50" },
      status: "completed",
    });
    expect(await notesOf(id)).toHaveLength(1);
    const rest = await post(id, { amount: "", seen: 1 });
    expect(rest.status, await rest.clone().text()).toBe(201);
    await noticesSettled(app);
    expect((await orderRow(id)).payment_status).toBe("Refunded");

    const notes = await notesOf(id);
    expect(notes).toMatchObject([
      { number: cn(before + 1), currency: "USD", gross_cents: 1050, tax_cents: 175, tax_rate: 2000 },
      { number: cn(before + 2), currency: "USD", gross_cents: 3850, tax_cents: 642, tax_rate: 2000 },
    ]);
    expect(notes[0]!.reason).toBe("Late start");
    // One per refund record, for its amount; together exactly what the order was charged.
    for (const n of notes) expect(n.gross_cents).toBe(n.amount_cents);
    expect(notes.reduce((s, n) => s + n.tax_cents, 0)).toBe(817);
    expect(await lastNumber()).toBe(before + 2);

    // Each refund mail names its credit note and links to it.
    const mails = await mailsFor(EMAIL);
    const partMail = mails.find((m) => m.subject.startsWith("$10.50"))!;
    expect(partMail.text).toContain(cn(before + 1));
    expect(partMail.text).toContain(`/credit-note/${cn(before + 1)}`);
    const wholeMail = mails.filter((m) => m.subject.startsWith("Your payment for") && m.text.includes(order.number));
    expect(wholeMail).toHaveLength(1);
    expect(wholeMail[0]!.text).toContain(`/credit-note/${cn(before + 2)}`);

    // PayPal sends every refund webhook again: nothing more is issued, no number is taken.
    expect(await resendRefundWebhooks(id)).toBeGreaterThanOrEqual(2);
    expect(await notesOf(id)).toHaveLength(2);
    expect(await lastNumber()).toBe(before + 2);
  });

  it("a payment set to Refunded by hand credits what no refund's note covers yet, once", async () => {
    const id = await paidOrder();
    expect((await post(id, { amount: "5.00", seen: 0 })).status).toBe(201);
    await noticesSettled(app);
    const before = await lastNumber();
    await app.services.orders.setPaymentStatus(id, { paymentStatus: "Refunded" }, adminActor);
    const notes = await notesOf(id);
    expect(notes).toMatchObject([
      { gross_cents: 500, tax_cents: 83 },
      { number: cn(before + 1), refund_id: null, gross_cents: 4400, tax_cents: 734 },
    ]);
    // Its mail names the note. Paid again by hand and Refunded again: nothing is left to credit.
    const mail = (await mailsFor(EMAIL)).filter((m) => m.text.includes(cn(before + 1)));
    expect(mail).toHaveLength(1);
    await app.services.orders.setPaymentStatus(id, { paymentStatus: "Paid" }, adminActor);
    await app.services.orders.setPaymentStatus(id, { paymentStatus: "Refunded" }, adminActor);
    expect(await notesOf(id)).toHaveLength(2);
    expect(await lastNumber()).toBe(before + 1);
  });

  it("are numbered without a gap or a repeat when refunds of several customers are recorded at once", async () => {
    const jars = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => signUp(app, `cn-many-${i}@example.org`)));
    const ids = await Promise.all(jars.map((j) => placeOrderFor(app, j, basic._id)));
    for (const [i, id] of ids.entries()) await app.services.orders.pay(id, PAYPAL_ACTOR, `TX-CN-MANY-${i}`);
    const before = await lastNumber();
    await Promise.all(
      ids.map((id) => app.services.orders.setPaymentStatus(id, { paymentStatus: "Refunded" }, adminActor)),
    );
    const numbers = (await Promise.all(ids.map(notesOf))).flat().map((n) => n.number);
    expect(numbers.sort()).toEqual([1, 2, 3, 4, 5, 6].map((i) => cn(before + i)));
    expect(await lastNumber()).toBe(before + 6);
  });

  it("an order with no invoice (unpaid, for no money) gets none", async () => {
    const before = await lastNumber();
    const free = await placeOrderFor(app, jar, basic._id);
    await app.db.pool.query(`update orders set package_price = 0, tax_cents = 0 where id = $1`, [free]);
    await app.services.orders.pay(free, PAYPAL_ACTOR);
    await app.services.orders.setPaymentStatus(free, { paymentStatus: "Refunded" }, adminActor);
    expect(await notesOf(free)).toEqual([]);
    expect(await lastNumber()).toBe(before);
  });
});

describe("a credit note", () => {
  it("is read by its customer and by staff who see orders, as JSON, page and PDF; anyone else is told it does not exist", async () => {
    const id = await paidOrder();
    expect((await post(id, { amount: "10.50", reason: "Late start", seen: 0 })).status).toBe(201);
    await noticesSettled(app);
    const { number } = (await notesOf(id))[0]!;
    const order = await orderRow(id);
    const get = (p: string, as?: CookieJar) => app.request(p, { jar: as });

    const own = await get(`/api/credit-notes/${number}`, jar);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      creditNoteNumber: number,
      invoiceNumber: order.invoice_number,
      orderNumber: order.number,
      currency: "USD",
      grossCents: 1050,
      taxCents: 175,
      netCents: 875,
      rateBasisPoints: 2000,
      taxed: true,
      seller: { vatNumber: "GB123456789" },
    });
    expect((await get(`/api/credit-notes/%20${number.toLowerCase()}%20`, jar)).status).toBe(200);
    expect((await get(`/api/credit-notes/${number}`, admin)).status).toBe(200);
    expect((await get(`/api/credit-notes/${number}`, other)).status).toBe(404);
    expect((await get(`/api/credit-notes/${number}`, editor)).status).toBe(403);
    expect((await get(`/api/credit-notes/${number}`)).status).toBe(401);
    for (const bad of ["CN-2026-1", "..%2F..%2Fetc", "x".repeat(300), "CN-9999-99999", order.invoice_number])
      expect((await get(`/api/credit-notes/${bad}`, admin)).status).toBe(404);

    const page = await get(`/credit-note/${number}`, jar);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(number);
    expect(html).toContain(order.invoice_number);
    expect(html).toContain(`href="/credit-note/${number}.pdf"`);
    expect((await get(`/credit-note/${number}`, admin)).status).toBe(200);
    expect((await get(`/credit-note/${number}`, other)).status).toBe(404);
    expect((await get(`/credit-note/${number}`, editor)).status).toBe(404);
    expect((await get(`/credit-note/${number}`)).status).toBe(302);

    const pdf = await get(`/credit-note/${number}.pdf`, jar);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="${number}.pdf"`);
    expect(pdf.headers.get("cache-control")).toBe("private, no-store");
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    for (const expected of [
      "Credit note",
      number,
      "Corrects invoice",
      order.invoice_number,
      "Net refunded",
      "$8.75 USD",
      "VAT at 20% refunded",
      "$1.75 USD",
      "Total refunded",
      "$10.50 USD",
      "VAT number GB123456789",
      "Reason: Late start",
    ])
      expect(text).toContain(expected);
    expect((await get(`/credit-note/${number}.pdf`, admin)).status).toBe(200);
    expect((await get(`/credit-note/${number}.pdf`, other)).status).toBe(404);
    expect((await get(`/credit-note/${number}.pdf`)).status).toBe(302);

    // The invoice beside it: a VAT invoice (net, the rate, the VAT, the seller's number) that lists its credit note.
    const invoice = await (await get(`/api/invoices/${order.number}`, jar)).json();
    expect(invoice).toMatchObject({
      currency: "USD",
      tax: { taxCents: 817, rateBasisPoints: 2000, treatment: "domestic" },
      creditNotes: [{ number, grossCents: 1050 }],
    });
    // The order's screen links each credit note beside the invoice.
    const screen = await (await get(`/admin/payment-status/${id}`, admin)).text();
    expect(screen).toContain(`href="/credit-note/${number}"`);
    expect(screen).toContain(`href="/credit-note/${number}.pdf"`);
    const invoicePage = await (await get(`/invoice/${order.number}`, jar)).text();
    expect(invoicePage).toContain(`href="/credit-note/${number}"`);
    const invoiceText = pdfText(Buffer.from(await (await get(`/invoice/${order.number}.pdf`, jar)).arrayBuffer()));
    for (const expected of ["Net", "$40.83 USD", "VAT at 20%", "$8.17 USD", "Total paid", "$49.00 USD", number])
      expect(invoiceText).toContain(expected);
  });

  it("is kept through the customer's erasure, with its number and amounts, and without the studio's reason", async () => {
    const id = await paidOrder();
    expect((await post(id, { amount: "2.00", reason: "Asked by the payer", seen: 0 })).status).toBe(201);
    await noticesSettled(app);
    const before = await notesOf(id);
    expect(before).toMatchObject([{ gross_cents: 200, reason: "Asked by the payer" }]);
    const { user_id: userId } = await orderRow(id);
    await app.services.privacy.eraseCustomer(userId, adminActor);
    expect(await notesOf(id)).toEqual([{ ...before[0], reason: null }]);
    // Staff still read it, and the invoice it corrects.
    const res = await app.request(`/api/credit-notes/${before[0]!.number}`, { jar: admin });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ grossCents: 200, reason: null });
  });
});
