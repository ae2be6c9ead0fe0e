import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUND_IN_DASHBOARD } from "#domain/refunds.ts";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { axeViolations } from "../support/axe";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox } from "../support/mail";
import { markGenuine, simulatedPayPalOf } from "../support/paypal";
import { main, payInSimulator, placeOrder, register, setOrderStatus, toast } from "../support/pages";

/**
 * Issue 34 part 3 in Chromium (decision 067): the order screen's Refund panel refunds through PayPal (the built-in
 * simulator) in full and in part, a refund made in PayPal's own dashboard arrives by webhook and shows there, and a
 * payment taken through Payments Standard says to refund it in PayPal's dashboard.
 */
let env: E2EEnv;
let admin: Page;
/** What PayPal does on its side (a refund in its dashboard), played on the server's own simulated PayPal. */
let paypal: PayPalRestSimulator;
let n = 0;

beforeAll(async () => {
  ({ env, admin } = await startAdminE2E());
  paypal = simulatedPayPalOf(env);
});
afterAll(async () => {
  await paypal?.webhooksSent();
  await env?.close();
});

const orderRow = async (id: string) =>
  (await env.db.pool.query("select * from orders where id = $1", [id])).rows[0] as {
    payment_status: string;
    membership_valid: Date | null;
    txn_id: string;
    number: string;
  };
const mailsTo = (email: string) => outbox(env.server.dataDir).filter((m) => m.to[0]?.includes(email));
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const panel = (page: Page) => page.getByTestId("refund-panel");

/** A new customer's Basic order, paid on PayPal Checkout and delivered by the studio, so its days run. */
async function paidMember(): Promise<{ id: string; email: string }> {
  const customer = await newPage(env.browser, env.server.url);
  const email = `refund-${++n}@example.org`;
  await register(customer, { email, password: "refund-pass-123" });
  const id = await placeOrder(customer, { packageName: "Basic" });
  await payInSimulator(customer, id);
  await customer.context().close();
  await setOrderStatus(admin, id, "Order Status", "Delivered");
  return { id, email };
}

describe("refunds from the order screen, through PayPal", () => {
  it("in full: the order is Refunded, its days removed, the customer mailed with the note", async () => {
    const { id, email } = await paidMember();
    expect((await orderRow(id)).membership_valid).not.toBeNull();
    await admin.goto(`/admin/payment-status/${id}`);
    const terms = await panel(admin).getByTestId("refund-terms").textContent();
    expect(terms).toContain("PayPal refunds a payment only within 180 days of it: this one can be refunded until");
    expect(terms).toContain("A part refund keeps the customer's membership days.");
    expect(await axeViolations(admin)).toEqual([]);
    for (const size of [DESKTOP, PHONE]) {
      await admin.setViewportSize(size);
      await admin.screenshot({ path: `/tmp/hR-refund-panel-${size.width}.png`, fullPage: true });
    }
    await admin.setViewportSize(DESKTOP);
    await panel(admin).getByLabel("Reason (kept for the studio)").fill("Changed their mind");
    await panel(admin)
      .getByLabel(/Note to the customer/)
      .fill("We are sorry to see you go.");
    await panel(admin).getByRole("button", { name: "Refund through PayPal" }).click();
    await expect
      .poll(() => toast(admin, "the payment is refunded in full, the order is Refunded").count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await expect.poll(async () => (await orderRow(id)).payment_status).toBe("Refunded");
    expect((await orderRow(id)).membership_valid).toBeNull();
    await expect.poll(() => panel(admin).getByTestId("refund-list").textContent()).toContain("admin@example.org");
    expect(await panel(admin).textContent()).toContain("This payment has been refunded in full.");
    expect(await admin.getByTestId("order-details").textContent()).toMatch(/Refunded.*Not Set/s);
    await expect
      .poll(() => mailsTo(email).filter((m) => /was refunded/.test(m.subject)).length, { timeout: 15_000 })
      .toBe(1);
    expect(decoded(mailsTo(email).find((m) => /was refunded/.test(m.subject))!.raw)).toContain(
      "We are sorry to see you go.",
    );
  });

  it("in part: the order stays Paid with its days, the screen says so, the customer mailed the amount", async () => {
    const { id, email } = await paidMember();
    const before = (await orderRow(id)).membership_valid!.getTime();
    await admin.goto(`/admin/payment-status/${id}`);
    // A bad amount is refused with a sentence, at the field.
    await panel(admin).getByLabel("Amount in USD").fill("10.505");
    await panel(admin).getByRole("button", { name: "Refund through PayPal" }).click();
    await expect
      .poll(() => panel(admin).getByText("Enter the amount with at most two decimals, such as 25.50.").count())
      .toBeGreaterThan(0);
    await panel(admin).getByLabel("Amount in USD").fill("10.50");
    await panel(admin)
      .getByLabel(/Note to the customer/)
      .fill("For the week you could not use.");
    await panel(admin).getByRole("button", { name: "Refund through PayPal" }).click();
    await expect
      .poll(() => toast(admin, "The order stays Paid and keeps its membership days.").count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const row = await orderRow(id);
    expect(row.payment_status).toBe("Paid");
    expect(row.membership_valid!.getTime()).toBe(before);
    await expect
      .poll(() => panel(admin).getByTestId("refund-summary").textContent())
      .toContain("Refunded so far: $10.50.");
    await admin.screenshot({ path: "/tmp/hR-refund-part-1280.png", fullPage: true });
    await admin.setViewportSize(PHONE);
    await admin.screenshot({ path: "/tmp/hR-refund-part-390.png", fullPage: true });
    await admin.setViewportSize(DESKTOP);
    expect(await axeViolations(admin)).toEqual([]);
    await expect
      .poll(() => mailsTo(email).filter((m) => m.subject.startsWith("$10.50")).length, { timeout: 15_000 })
      .toBe(1);
    const mail = decoded(mailsTo(email).find((m) => m.subject.startsWith("$10.50"))!.raw);
    expect(mail).toContain("For the week you could not use.");
    expect(mail).toContain("your membership days stay");
  });

  it("a refund made in PayPal's dashboard arrives by webhook and shows on the order screen", async () => {
    const { id, email } = await paidMember();
    await paypal.outcomes.refundInPayPal((await orderRow(id)).txn_id, { currency_code: "USD", value: "5.00" });
    await paypal.webhooksSent();
    await expect
      .poll(
        async () => {
          await admin.goto(`/admin/payment-status/${id}`);
          return (await panel(admin).getByTestId("refund-list").count()) > 0;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const list = await panel(admin).getByTestId("refund-list").textContent();
    expect(list).toContain("$5.00");
    expect(list).toContain("In PayPal");
    expect((await orderRow(id)).payment_status).toBe("Paid");
    await expect
      .poll(() => mailsTo(email).filter((m) => m.subject.startsWith("$5.00")).length, { timeout: 15_000 })
      .toBe(1);
  });

  it("an order paid through Payments Standard says to refund it in PayPal's dashboard, with no button", async () => {
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: `standard-${++n}@example.org`, password: "refund-pass-123" });
    const id = await placeOrder(customer, { packageName: "Basic" });
    await customer.context().close();
    // The studio's PayPal account, then PayPal's IPN for a Buy Now payment of the order (as the legacy rail paid it).
    const added = await admin.request.post(`${env.server.url}/api/add-email`, {
      data: { paypalEmail: "shop@example.org" },
    });
    expect(added.status()).toBe(201);
    const { rows } = await env.db.pool.query("select package_price from orders where id = $1", [id]);
    const body = new URLSearchParams({
      payment_status: "Completed",
      receiver_email: "shop@example.org",
      business: "shop@example.org",
      mc_gross: Number(rows[0].package_price).toFixed(2),
      mc_currency: "USD",
      txn_id: `T${Date.now()}`,
      custom: id,
      item_number: "1",
      txn_type: "web_accept",
    }).toString();
    await markGenuine(env.db.pool, body);
    const res = await fetch(`${env.server.url}/api/paypal/ipn`, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    await expect.poll(async () => (await orderRow(id)).payment_status, { timeout: 15_000 }).toBe("Paid");
    await admin.goto(`/admin/payment-status/${id}`);
    expect(await panel(admin).getByTestId("refund-in-dashboard").textContent()).toBe(REFUND_IN_DASHBOARD);
    expect(await panel(admin).getByRole("button", { name: "Refund through PayPal" }).count()).toBe(0);
    expect(await main(admin).getByRole("button", { name: "Update Payment Status" }).count()).toBe(1);
  });
});
