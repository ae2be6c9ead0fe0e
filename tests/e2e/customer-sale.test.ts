import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { ADMIN, logIn, startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox } from "../support/mail";
import { payInSimulator } from "../support/pages";
import { CookieJar } from "../support/session";

/**
 * Sales made by hand (issue 35, part 7) as the owner makes them, at 1280 and 390 px: from the customer's record, New
 * sale; another price is refused without its reason, then a sale paid by bank transfer gets its invoice; a second sale
 * is mailed to the customer, who follows the mail's link and pays it on the pay screen like an order of their own.
 */
const PASSWORD = "quiet-harbour-71";
let env: E2EEnv;
let admin: Page;
const adminJar = new CookieJar();
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E({ TZ: "Europe/London" }));
  await post("/api/auth/sign-in/email", { email: ADMIN.email, password: ADMIN.password }, adminJar);
});
afterAll(() => env?.close());

const main = (page: Page) => page.getByRole("main");
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

async function post(path: string, json: unknown, jar: CookieJar) {
  const res = await fetch(env.server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(jar.size ? { cookie: jar.header() } : {}) },
    body: JSON.stringify(json),
    redirect: "manual",
  });
  jar.store(res);
  expect(res.status, `POST ${path}`).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
}

/** A customer who once placed an order of their own (the sale form starts from it). */
async function customer(email: string): Promise<string> {
  const jar = new CookieJar();
  await post("/api/auth/sign-up/email", { email, password: PASSWORD, name: "Sol Sale", acceptTerms: true }, jar);
  const pkg = ((await (await fetch(`${env.server.url}/api/pricings`)).json()) as { _id: string }[])[0]!;
  await post(
    "/api/new-order",
    { packageId: pkg._id, customerName: "Sol Sale", customerAddress: "5 Harbour Row", customerCountry: "UK" },
    jar,
  );
  const { rows } = await env.db.pool.query(`select id from "user" where email = $1`, [email]);
  return String(rows[0].id);
}

/** A message as its reader sees it: quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

const latestOrder = async (userId: string) =>
  (
    await env.db.pool.query(
      "select id, number, payment_status, payment_method, invoice_number from orders where user_id = $1 order by created_at desc limit 1",
      [userId],
    )
  ).rows[0] as {
    id: string;
    number: string;
    payment_status: string;
    payment_method: string | null;
    invoice_number: string | null;
  };

describe.each([
  [1280, 800],
  [390, 844],
])("at %i px", (width, height) => {
  it("makes a sale paid by bank transfer, then one the customer pays from the mailed link", async () => {
    await admin.setViewportSize({ width, height });
    const email = `sol-${width}@example.org`;
    const userId = await customer(email);

    await admin.goto(`/customers/${userId}`);
    await main(admin).getByRole("link", { name: "New sale…" }).click();
    await admin.waitForURL((u) => u.pathname === `/customers/${userId}/sale`);
    const form = admin.getByTestId("sale-form");
    // The customer's details come from their latest order.
    expect(await form.getByLabel("Full name").inputValue()).toBe("Sol Sale");
    expect(await form.getByLabel("Address", { exact: true }).inputValue()).toBe("5 Harbour Row");

    await form.getByLabel("Package", { exact: true }).selectOption({ index: 1 });
    await form.getByLabel(/^Price in USD/).fill("39");
    await form.getByLabel("Payment", { exact: true }).selectOption({ label: "Paid by bank transfer" });
    await form.getByLabel(/^Payment reference/).fill(`BACS ${width}`);
    await form.getByRole("button", { name: "Make the sale" }).click();
    // Another price wants its reason: said at the field, nothing made.
    await expect.poll(() => form.getByText("Say why the price differs from the package's").count()).toBeGreaterThan(0);
    expect((await latestOrder(userId)).payment_method).toBeNull();

    await form.getByLabel(/^Reason for another price/).fill("A returning client");
    await form.getByRole("button", { name: "Make the sale" }).click();
    await expect
      .poll(() => toast(admin, /is made and paid: invoice INV-\d{4}-\d{5}\./).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const paid = await latestOrder(userId);
    expect(paid).toMatchObject({ payment_status: "Paid", payment_method: "Bank transfer" });
    expect(paid.invoice_number).toMatch(/^INV-/);
    const invoice = await admin.goto(`/invoice/${paid.number}`);
    expect(invoice?.status()).toBe(200);
    expect(await admin.textContent("body")).toContain(paid.invoice_number!);

    // A second sale, left for them to pay: mailed once, paid on the pay screen like an order of their own.
    await admin.goto(`/customers/${userId}/sale`);
    await form.getByLabel("Package", { exact: true }).selectOption({ index: 1 });
    await form
      .getByLabel("Payment", { exact: true })
      .selectOption({ label: "Not paid yet: email them the link to pay" });
    await form.getByRole("button", { name: "Make the sale" }).click();
    await expect.poll(() => toast(admin, /They were emailed the link to pay it/).count()).toBeGreaterThan(0);
    const unpaid = await latestOrder(userId);
    expect(unpaid.payment_status).toBe("UnPaid");
    const payLink = new RegExp(`https?://[^\\s"<>]+/pay-now/${unpaid.id}`);
    const links = () =>
      outbox(env.server.dataDir).flatMap((m) => {
        const link = m.to[0]!.includes(email) ? payLink.exec(decoded(m.raw))?.[0] : undefined;
        return link ? [link] : [];
      });
    await expect.poll(() => links().length, { timeout: 15_000 }).toBe(1);

    const page = await newPage(env.browser, env.server.url, { viewport: { width, height } });
    await logIn(page, email, PASSWORD);
    await page.goto(links()[0]!);
    await payInSimulator(page, unpaid.id, { open: false });
    await page.context().close();
    expect((await latestOrder(userId)).payment_status).toBe("Paid");
    expect((await latestOrder(userId)).invoice_number).toMatch(/^INV-/);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  });
});
