import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { ADMIN, logIn, startE2E, type E2EEnv } from "../support/e2e";
import { main, payInSimulator, placeOrder, register } from "../support/pages";
import { pdfText } from "../support/pdf";

/**
 * Invoices (issue 26, part 3; decision 038): a customer pays in the PayPal simulator, opens the invoice from My
 * Orders, and downloads the PDF, whose text holds the invoice number, the amount and their name; the studio opens the
 * same invoice from the order's screen. At a laptop's width and a phone's.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const WIDTHS = [
  { name: "1280", viewport: { width: 1280, height: 900 } },
  { name: "390", viewport: { width: 390, height: 844 } },
] as const;

/** Orders Standard from the pricing page and pays it in the simulator: the order's id, once PayPal said Paid. */
async function buyStandard(page: Page, name: string): Promise<string> {
  const id = await placeOrder(page, { packageName: "Standard", name, address: "12 Canal Wharf, Leeds" });
  await payInSimulator(page, id);
  return id;
}

describe.each(WIDTHS)("an invoice at $name px", ({ name: width, viewport }) => {
  it("a customer pays, opens the invoice from My Orders and downloads its PDF; the studio opens it too", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport, acceptDownloads: true });
    const customer = `Ines Invoice ${width}`;
    await register(page, { email: `ines-${width}@example.org`, password: "invoice-pass-1" });
    const id = await buyStandard(page, customer);
    const [order] = (
      await env.db.pool.query("select number, invoice_number, package_price from orders where id = $1", [id])
    ).rows as { number: string; invoice_number: string; package_price: string }[];
    expect(order!.invoice_number).toMatch(/^INV-\d{4}-\d{5}$/);
    const amount = `$${Number(order!.package_price).toFixed(2)} USD`;

    await page.goto("/my-order");
    await main(page)
      .getByRole("link", { name: `View invoice ${order!.invoice_number}` })
      .click();
    await page.waitForURL((u) => u.pathname === `/invoice/${order!.number}`);
    const invoice = page.getByTestId("invoice");
    expect(await page.locator("h1").textContent()).toBe("Invoice");
    const text = (await invoice.textContent()) ?? "";
    for (const expected of [order!.invoice_number, order!.number, amount, customer, "United Kingdom", "PayPal"])
      expect(text).toContain(expected);
    // Nothing of the page is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("invoice-pdf").click()]);
    expect(download.suggestedFilename()).toBe(`${order!.invoice_number}.pdf`);
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdfWords = pdfText(pdf);
    for (const expected of [order!.invoice_number, amount, customer]) expect(pdfWords).toContain(expected);
    await page.context().close();

    // The studio: the order's screen links to the same invoice.
    const admin = await newPage(env.browser, env.server.url, { viewport });
    await logIn(admin, ADMIN.email, ADMIN.password);
    await admin.goto(`/admin/payment-status/${id}`);
    await admin.getByTestId("order-invoice").getByRole("link", { name: order!.invoice_number, exact: true }).click();
    await admin.waitForURL((u) => u.pathname === `/invoice/${order!.number}`);
    await expect.poll(() => admin.getByTestId("invoice").textContent()).toContain(customer);
    await admin.context().close();
  });
});
