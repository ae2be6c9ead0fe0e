import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { newPage } from "../support/browser";
import { startE2E, type E2EEnv } from "../support/e2e";
import { chooseInPayPal, main, payInSimulator, placeOrder, register, toPayPal } from "../support/pages";
import { simulatedPayPalOf } from "../support/paypal";

/**
 * Issue 34 part 2 in Chromium: the pay screen on PayPal Checkout (decision 066). "Pay Now With PayPal" goes through
 * our server to PayPal's approval page (the built-in simulator's), and each of its outcomes ends where a buyer expects.
 */
let env: E2EEnv;
/** What PayPal does later (a pending payment clearing), played on the server's own simulated PayPal (its database). */
let paypal: PayPalRestSimulator;
let n = 0;

beforeAll(async () => {
  env = await startE2E();
  paypal = simulatedPayPalOf(env);
});
afterAll(async () => {
  await paypal?.webhooksSent();
  await env?.close();
});

/** A new customer with a new unpaid Basic order, on its pay page's way to PayPal. */
async function customerWithOrder(): Promise<{ page: Page; id: string }> {
  const page = await newPage(env.browser, env.server.url);
  await register(page, { email: `checkout-${++n}@example.org`, password: "checkout-pass-123" });
  return { page, id: await placeOrder(page, { packageName: "Basic" }) };
}
const paymentStatus = async (id: string) =>
  (await env.db.pool.query("select payment_status from orders where id = $1", [id])).rows[0].payment_status as string;
const state = (page: Page) => page.getByTestId("payment-state").getAttribute("data-status");

describe("paying on PayPal Checkout", () => {
  it("pay with PayPal: the approval page says no money moves, the return shows Paid", async () => {
    const { page, id } = await customerWithOrder();
    await toPayPal(page, id);
    expect(await page.getByText("No money moves.").count()).toBe(1);
    expect(new URL(page.url()).searchParams.get("token")).toBeTruthy();
    await chooseInPayPal(page, id);
    expect(new URL(page.url()).searchParams.get("PayerID")).toBeTruthy();
    await expect.poll(() => state(page), { timeout: 15_000 }).toBe("Paid");
    // A reload of the return address changes nothing.
    await page.reload();
    expect(await state(page)).toBe("Paid");
    const { rows } = await env.db.pool.query(
      "select count(*)::int as n from activity_log where record_id = $1 and changes->'paymentStatus'->>'after' = 'Paid'",
      [id],
    );
    expect(rows[0].n).toBe(1);
    await page.context().close();
  });

  it("pay by card as a guest", async () => {
    const { page, id } = await customerWithOrder();
    await payInSimulator(page, id, { choice: "Pay by card as a guest" });
    expect(await paymentStatus(id)).toBe("Paid");
    await page.context().close();
  });

  it("the buyer approves and closes the tab before coming back: PayPal's webhook pays the order", async () => {
    const { page, id } = await customerWithOrder();
    await toPayPal(page, id);
    // The way back never loads: the tab is closed while PayPal redirects.
    await page.route("**/received-payment/**", (route) => route.abort());
    const back = page.waitForRequest((r) => r.url().includes(`/received-payment/${id}`));
    await page.getByRole("button", { name: "Pay with PayPal", exact: true }).click();
    await back;
    await page.close();
    await expect.poll(() => paymentStatus(id), { timeout: 15_000 }).toBe("Paid");
  });

  it("pending, then completed: the return page says pending, then Paid by itself", async () => {
    const { page, id } = await customerWithOrder();
    await toPayPal(page, id);
    await chooseInPayPal(page, id, "Payment pending");
    await expect
      .poll(() => main(page).getByRole("status").textContent(), { timeout: 15_000 })
      .toContain("PayPal reports the payment as Pending");
    expect(await paymentStatus(id)).toBe("UnPaid");
    const { rows } = await env.db.pool.query(
      "select id from paypal_simulator_rest_objects where kind = 'capture' and data->>'custom_id' = $1",
      [id],
    );
    await paypal.outcomes.settleCapture(rows[0].id, "COMPLETED");
    await expect.poll(() => state(page), { timeout: 15_000 }).toBe("Paid");
    await page.context().close();
  });

  it("denied: the return page says so, and trying again pays", async () => {
    const { page, id } = await customerWithOrder();
    await toPayPal(page, id);
    await chooseInPayPal(page, id, "Payment denied");
    await expect.poll(() => main(page).getByTestId("payment-denied").count()).toBe(1);
    expect(await paymentStatus(id)).toBe("UnPaid");
    await main(page).getByRole("link", { name: "Try again" }).click();
    await page.waitForURL((u) => u.pathname === `/pay-now/${id}`);
    await payInSimulator(page, id, { open: false });
    await page.context().close();
  });

  it("later at PayPal: the payment's webhook sent again changes nothing; a reversal makes the order Refunded", async () => {
    const { page, id } = await customerWithOrder();
    await toPayPal(page, id);
    const approval = page.url();
    await chooseInPayPal(page, id);
    await expect.poll(() => state(page), { timeout: 15_000 }).toBe("Paid");
    const notices = async () =>
      (
        await env.db.pool.query(
          "select outcome, times_received from payment_notices where order_id = $1 and notice_type = 'payment.completed'",
          [id],
        )
      ).rows;
    // The approval page, after the payment: what PayPal does later.
    await page.goto(approval);
    expect(await page.getByTestId("sim-capture-status").textContent()).toContain("completed");
    await page.getByRole("button", { name: "Send the payment's webhook again" }).click();
    await expect.poll(() => page.getByTestId("sim-done").count()).toBe(1);
    // One notice, received twice (applied, or a duplicate when the return's capture paid the order first).
    await expect.poll(async () => (await notices()).map((n) => n.times_received), { timeout: 15_000 }).toEqual([2]);
    expect(await paymentStatus(id)).toBe("Paid");
    await page.getByRole("button", { name: "Reverse (a dispute lost)" }).click();
    await expect.poll(() => page.getByTestId("sim-done").textContent()).toContain("took the payment back");
    await expect.poll(() => paymentStatus(id), { timeout: 15_000 }).toBe("Refunded");
    await page.context().close();
  });
});
