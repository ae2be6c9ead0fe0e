import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, openOrderForm, payInSimulator, register, toast } from "../support/pages";
import { pdfText } from "../support/pdf";
import { outbox } from "../support/mail";

/**
 * Issue 35, end to end: a UK studio registered for VAT, selling in pounds with the One Stop Shop on. A UK consumer, a
 * French consumer and a German business with a VAT number order the same package (Basic, £49.00 before VAT): each sees
 * the VAT before placing the order and again on the pay screen, and pays PayPal the gross.
 */
let env: E2EEnv;
let admin: Page;
/** Each buyer's paid order, and their page (signed in). */
const paid = new Map<string, { id: string; page: Page }>();
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E());
});
afterAll(() => env?.close());

const BUYERS = [
  {
    who: "uk",
    email: "uk-consumer@example.org",
    name: "Harriet Hale",
    address: "12 Mill Road, Bath",
    country: "United Kingdom",
    vatNumber: null,
    net: "£49.00 GBP",
    vatLabel: "VAT at 20% (United Kingdom)",
    vat: "£9.80 GBP",
    total: "£58.80 GBP",
    note: null,
  },
  {
    who: "fr",
    email: "fr-consumer@example.org",
    name: "Amélie Laurent",
    address: "4 rue des Lilas, Lyon",
    country: "France",
    vatNumber: null,
    net: "£49.00 GBP",
    vatLabel: "VAT at 20% (France)",
    vat: "£9.80 GBP",
    total: "£58.80 GBP",
    note: null,
  },
  {
    who: "de",
    email: "de-business@example.org",
    name: "Jonas Weber, Weber Innenarchitektur GmbH",
    address: "Hauptstraße 5, Berlin",
    country: "Germany",
    vatNumber: "DE 123 456 789",
    net: "£49.00 GBP",
    vatLabel: "VAT",
    vat: "£0.00 GBP",
    total: "£49.00 GBP",
    note: "Reverse charge: customer to account for VAT",
  },
] as const;

/** The net, VAT and total rows a summary shows (TaxLines), by its test id. */
async function taxRows(page: Page, id: string) {
  const scope = main(page);
  await expect.poll(() => scope.getByTestId(`${id}-total`).count()).toBe(1);
  return {
    net: await scope.getByTestId(`${id}-net`).textContent(),
    vat: await scope.getByTestId(`${id}-vat`).textContent(),
    total: await scope.getByTestId(`${id}-total`).textContent(),
    note: (await scope.getByTestId(`${id}-note`).count()) ? await scope.getByTestId(`${id}-note`).textContent() : null,
  };
}

describe("VAT from the settings to the pay screen", () => {
  it("the studio sets pounds, its UK VAT number and the One Stop Shop; a bad VAT number is refused with its form", async () => {
    await admin.goto("/money-settings");
    const form = admin.getByTestId("money-settings");
    await form.getByLabel("Currency").selectOption("GBP");
    await form.getByLabel("The business is established in").selectOption("GB");
    await form.getByLabel("Registered for VAT: charge VAT and issue VAT invoices").check();
    await form.getByLabel("VAT number").fill("GB12345");
    await form.getByRole("button", { name: "Save currency and VAT" }).click();
    await expect
      .poll(() => form.locator(".field-error").first().textContent())
      .toContain("A UK VAT number is GB followed by");
    await form.getByLabel("VAT number").fill("GB 123 4567 89");
    await form.getByLabel("Use the One Stop Shop (OSS) for consumers in the European Union").check();
    await form.getByRole("button", { name: "Save currency and VAT" }).click();
    await expect.poll(() => toast(admin, "Currency and VAT are Updated").count()).toBe(1);
    await admin.reload();
    expect(await form.getByLabel("VAT number").inputValue()).toBe("GB123456789");
  });

  for (const buyer of BUYERS)
    it(`a ${buyer.who} buyer sees the VAT before placing the order and on the pay screen, and pays the gross`, async () => {
      const page = await newPage(env.browser, env.server.url);
      await register(page, { email: buyer.email, password: "vat-buyer-pass-1" });
      await openOrderForm(page, "Basic");
      await expect.poll(() => main(page).getByLabel("Price").inputValue()).toBe("£49");
      await main(page).getByLabel("Full Name").fill(buyer.name);
      await main(page).getByLabel("Address").fill(buyer.address);
      await main(page).getByLabel("Country").fill(buyer.country);
      if (buyer.vatNumber) {
        const field = main(page).getByLabel("Buying for a business? VAT number (optional)");
        await field.fill("DE12");
        await expect.poll(() => main(page).getByTestId("business").textContent()).toContain("DE followed by 9 digits");
        await field.fill(buyer.vatNumber);
      }
      expect(await taxRows(page, "order-tax")).toEqual({
        net: buyer.net,
        vat: buyer.vat,
        total: buyer.total,
        note: buyer.note,
      });
      await main(page).getByRole("button", { name: "Place Order Now" }).click();
      await page.waitForURL((u) => u.pathname === "/pending-order");
      const id = new URL(page.url()).searchParams.get("order")!;
      await page.goto(`/pay-now/${id}`);
      expect(await main(page).getByTestId("amount").textContent()).toBe(buyer.total);
      expect(await main(page).getByText(buyer.vatLabel, { exact: true }).count()).toBe(1);
      expect(await taxRows(page, "tax")).toEqual({
        net: buyer.net,
        vat: buyer.vat,
        total: buyer.total,
        note: buyer.note,
      });
      await payInSimulator(page, id);
      const { rows } = await env.db.pool.query(
        `select package_price, currency, tax_cents, tax_treatment, customer_vat_number from orders where id = $1`,
        [id],
      );
      expect(rows[0]).toMatchObject({
        currency: "GBP",
        package_price: buyer.total.replace(/[£ GBP]/g, ""),
        customer_vat_number: buyer.vatNumber ? "DE123456789" : null,
      });
      paid.set(buyer.who, { id, page });
    });

  it("each invoice PDF shows the seller's VAT number, the rate, the amounts and the note", async () => {
    for (const buyer of BUYERS) {
      const { id, page } = paid.get(buyer.who)!;
      const { rows } = await env.db.pool.query(`select number, invoice_number from orders where id = $1`, [id]);
      // The invoice is addressed by its order's number.
      const res = await page.request.get(`/invoice/${rows[0].number}.pdf`);
      expect(res.status()).toBe(200);
      const text = pdfText(Buffer.from(await res.body()));
      expect(text).toContain("VAT number GB123456789");
      expect(text).toContain(buyer.name);
      expect(text).toContain(rows[0].invoice_number);
      // The PDF's text has a line per cell: the label, then its amount.
      expect(text).toContain(`Net\n${buyer.net}`);
      expect(text).toContain(buyer.total);
      if (buyer.vatNumber) expect(text).toContain("DE123456789");
      if (buyer.note) expect(text).toContain(buyer.note);
      else expect(text).toContain(`${buyer.vatLabel.replace(/ \(United Kingdom\)$/, "")}\n${buyer.vat}`);
    }
  });

  it("a partial refund issues a credit note whose net and VAT match, named in the customer's mail", async () => {
    const { id, page } = paid.get("uk")!;
    await admin.goto(`/admin/payment-status/${id}`);
    const panel = admin.getByTestId("refund-panel");
    await panel.getByLabel("Amount in GBP").fill("10.00");
    await panel.getByRole("button", { name: "Refund through PayPal" }).click();
    await expect
      .poll(() => toast(admin, "£10.00 was refunded through PayPal. The order stays Paid").count(), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    await expect
      .poll(async () => (await env.db.pool.query(`select 1 from credit_notes where order_id = $1`, [id])).rowCount)
      .toBe(1);
    const [credit] = (await env.db.pool.query(`select * from credit_notes where order_id = $1`, [id])).rows;
    // £10.00 back at 20 %: £1.67 of VAT (10.00 × 20 / 120, to the penny) and £8.33 net.
    expect(credit).toMatchObject({ gross_cents: 1000, tax_cents: 167, currency: "GBP" });
    const res = await page.request.get(`/credit-note/${credit.number}.pdf`);
    expect(res.status()).toBe(200);
    const text = pdfText(Buffer.from(await res.body()));
    const { rows } = await env.db.pool.query(`select invoice_number from orders where id = $1`, [id]);
    expect(text).toContain(rows[0].invoice_number);
    expect(text).toContain("£8.33 GBP");
    expect(text).toContain("£1.67 GBP");
    expect(text).toContain("£10.00 GBP");
    // The customer's mail says how much went back and names the credit note.
    await expect
      .poll(
        () =>
          outbox(env.server.dataDir).filter((m) => m.to[0]?.includes("uk-consumer") && /was refunded/.test(m.subject))
            .length,
        { timeout: 15_000 },
      )
      .toBe(1);
    const mail = outbox(env.server.dataDir).find(
      (m) => m.to[0]?.includes("uk-consumer") && /was refunded/.test(m.subject),
    )!;
    expect(mail.subject).toContain("£10.00 GBP");
    expect(mail.raw.replace(/=\r?\n/g, "")).toContain(credit.number);
  });

  it("the tax report for the day shows the three sales by country and treatment, and the OSS sale", async () => {
    const { rows } = await env.db.pool.query(`select distinct day::text as day from tax_days`);
    expect(rows).toHaveLength(1);
    const day = rows[0].day as string;
    await admin.goto(`/reports/tax?from=${day}&to=${day}`);
    const pounds = admin.getByTestId("tax-GBP");
    const row = (name: string) => pounds.getByRole("row").filter({ hasText: name }).first();
    expect(await row("United Kingdom").textContent()).toContain("£49.00");
    expect(await row("United Kingdom").textContent()).toContain("£9.80");
    expect(await row("France").textContent()).toContain("£9.80");
    expect(await row("Germany").textContent()).toContain("£49.00");
    const germany = (await row("Germany").textContent())!;
    expect(germany).toMatch(/Reverse charge/i);
    expect(await pounds.textContent()).toContain("3 invoices");
    // The credit note of the partial refund: £1.67 of VAT back.
    expect(await pounds.textContent()).toContain("£1.67");
  });
});
