import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DISCOUNT_HOLD_MS } from "#domain/discounts.ts";
import { PROVIDER_DOWN } from "#server/services/payments/checkout.ts";
import type { PayPalRestSimulator } from "#server/services/payments/paypal/simulator.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { demoPackage, noticesSettled, placeOrderFor } from "../support/paypal";
import type { CookieJar } from "../support/session";

/**
 * Issue 34 part 2, the pay screen on PayPal Checkout (decision 066): "Pay Now With PayPal" posts to our server, which
 * sends the buyer to PayPal's approval page (the simulator's here); each of its buttons comes back as PayPal does, and
 * the return page captures once. Through the real pages, as a browser without scripts would.
 */
let app: TestApp;
let sim: PayPalRestSimulator;
let clock = Date.UTC(2026, 10, 27, 12);
let basic: { _id: string };
let buyer: CookieJar;
let other: CookieJar;
let admin: CookieJar;

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "pay-owner@example.org", ADMIN_PASSWORD: "pay-owner-pass-12" },
    { pages: true, now: () => new Date(clock) },
  );
  sim = app.services.payments.simulator!;
  basic = await demoPackage(app);
  await app.services.accounts.ensureFirstAdmin();
  admin = await signInAsAdmin(app);
  buyer = await signUp(app, "pay-buyer@example.org");
  other = await signUp(app, "pay-other@example.org");
  await app.services.payments.registerWebhook();
}, 120_000);
afterAll(async () => {
  await sim?.webhooksSent();
  await app?.close();
});

const placeOrder = (jar = buyer, discountCode?: string) => placeOrderFor(app, jar, basic._id, discountCode);
const post = (path: string, jar: CookieJar, fields: Record<string, string> = {}) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    jar,
  });
const page = async (path: string, jar = buyer) => {
  const res = await app.request(path, { jar });
  return { status: res.status, html: await res.text() };
};
const statusOf = async (id: string) =>
  (await app.db.pool.query("select payment_status from orders where id = $1", [id])).rows[0].payment_status as string;
const paidEntries = async (id: string) =>
  (
    await app.db.pool.query(
      "select count(*)::int as n from activity_log where record_id = $1 and changes->'paymentStatus'->>'after' = 'Paid'",
      [id],
    )
  ).rows[0].n as number;
/** Where a redirect sends the browser, as a path on this site (PayPal's approval page is ours in simulator mode). */
const location = (res: Response) => {
  const to = new URL(res.headers.get("location")!, app.url);
  return { path: to.pathname, token: to.searchParams.get("token"), url: to.pathname + to.search };
};

/** The pay button: a 303 to the approval page, whose token is the PayPal order. */
async function startPaying(id: string, jar = buyer) {
  const res = await post(`/pay-now/${id}`, jar);
  expect(res.status, await res.clone().text()).toBe(303);
  const to = location(res);
  expect(to.path).toBe("/paypal-simulator/checkoutnow");
  return to.token!;
}
/** A button on the approval page: where PayPal sends the buyer back. */
async function choose(token: string, intent: string, jar = buyer) {
  const res = await post("/paypal-simulator/checkoutnow", jar, { token, intent });
  expect(res.status, await res.clone().text()).toBe(303);
  return location(res);
}

describe("the pay screen on PayPal Checkout", () => {
  it("keeps the spec's screen; the button posts to our server, never `_xclick`, and goes to PayPal's approval page", async () => {
    const id = await placeOrder();
    const { html } = await page(`/pay-now/${id}`);
    expect(html).toContain("Order summary");
    expect(html).toContain("Pay Now With PayPal");
    expect(html).toContain("we never see your card or PayPal password");
    expect(html).not.toContain("_xclick");
    expect(html).not.toContain('name="cmd"');
    const token = await startPaying(id);
    const approval = await page(`/paypal-simulator/checkoutnow?token=${token}`);
    expect(approval.status).toBe(200);
    expect(approval.html).toContain("No money moves.");
    for (const button of ["Pay with PayPal", "Pay by card as a guest", "Payment pending", "Payment denied", "Cancel"])
      expect(approval.html).toContain(button);
  });

  it("pay with PayPal: back with ?token=&PayerID=, captured on return; a reload and a second return: one Paid", async () => {
    const id = await placeOrder();
    sim.outcomes.holdWebhooks(true);
    const token = await startPaying(id);
    const back = await choose(token, "paypal");
    expect(back.path).toBe(`/received-payment/${id}`);
    expect(back.url).toContain(`token=${token}&PayerID=`);
    const [first, second] = await Promise.all([page(back.url), page(back.url)]);
    for (const p of [first, second]) expect(p.html).toContain('data-status="Paid"');
    expect(await paidEntries(id)).toBe(1);
    sim.outcomes.holdWebhooks(false);
    await sim.outcomes.sendHeldWebhooks();
    await noticesSettled(app);
    expect(await paidEntries(id)).toBe(1);
  });

  it("pay by card as a guest; the webhook first, then the return: one Paid", async () => {
    const id = await placeOrder();
    const back = await choose(await startPaying(id), "card");
    await noticesSettled(app);
    expect(await statusOf(id)).toBe("Paid");
    expect((await page(back.url)).html).toContain('data-status="Paid"');
    expect(await paidEntries(id)).toBe(1);
  });

  it("cancel on PayPal's page goes back to /order-cancelled/{id}; the order can still be paid", async () => {
    const id = await placeOrder();
    const token = await startPaying(id);
    const back = await choose(token, "cancel");
    expect(back.path).toBe(`/order-cancelled/${id}`);
    expect(await statusOf(id)).toBe("UnPaid");
    expect(await startPaying(id)).toBe(token);
  });

  it("pending: the return page says PayPal reports it pending", async () => {
    const id = await placeOrder();
    const back = await choose(await startPaying(id), "pending");
    expect((await page(back.url)).html).toContain("PayPal reports the payment as Pending");
    expect(await statusOf(id)).toBe("UnPaid");
  });

  it("denied: the return page says so with a way to try again, which is a new PayPal order", async () => {
    const id = await placeOrder();
    const token = await startPaying(id);
    const back = await choose(token, "denied");
    const { html } = await page(back.url);
    expect(html).toContain("PayPal declined this payment");
    expect(html).toContain(`href="/pay-now/${id}"`);
    const again = await startPaying(id);
    expect(again).not.toBe(token);
    await page((await choose(again, "paypal")).url);
    expect(await statusOf(id)).toBe("Paid");
  });

  it("PayPal down: the pay page says so, nothing is written, and trying again works", async () => {
    const id = await placeOrder();
    sim.fault({ path: "/v2/checkout/orders", status: 503, times: 3 });
    const res = await post(`/pay-now/${id}`, buyer);
    expect(res.status).toBe(503);
    expect((await res.text()).replace(/&#x27;|&#39;/g, "'")).toContain(PROVIDER_DOWN);
    const { rows } = await app.db.pool.query("select count(*)::int as n from payment_checkouts where order_id = $1", [
      id,
    ]);
    expect(rows[0].n).toBe(0);
    await startPaying(id);
  });

  it("another site's form, a visitor, another customer: no checkout, no approval", async () => {
    const id = await placeOrder();
    const cross = await app.request(`/pay-now/${id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: "",
      jar: buyer,
    });
    expect(cross.status).toBe(403);
    expect((await post(`/pay-now/${id}`, other)).status).toBe(404);
    const token = await startPaying(id);
    const stranger = await post("/paypal-simulator/checkoutnow", other, { token, intent: "paypal" });
    expect(stranger.status).toBe(403);
    const bad = await post("/paypal-simulator/checkoutnow", buyer, { token, intent: "steal" });
    expect(bad.status).toBe(400);
    expect(await statusOf(id)).toBe("UnPaid");
  });
});

describe("issue 33's rules on the Checkout path", () => {
  it("a code used up while the buyer was on PayPal's page: refused when the money comes, the page says so (decision 060)", async () => {
    const res = await app.request("/api/discount-codes", {
      method: "POST",
      json: { code: "CHECKOUTONE", kind: "percent", value: 20, maxUses: 1 },
      jar: admin,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const codeId = ((await res.json()) as { insertedId: string }).insertedId;
    const kept = await placeOrder(buyer, "CHECKOUTONE");
    const token = await startPaying(kept);
    // The hold runs out while the buyer is away; another customer takes the last use and pays.
    clock += DISCOUNT_HOLD_MS + 60_000;
    const taken = await placeOrder(other, "CHECKOUTONE");
    await page((await choose(await startPaying(taken, other), "paypal", other)).url, other);
    expect(await statusOf(taken)).toBe("Paid");
    const back = await choose(token, "paypal");
    const { status, html } = await page(back.url);
    expect(status).toBe(200);
    expect(html).toContain("Your payment could not be applied");
    await noticesSettled(app);
    expect(await statusOf(kept)).toBe("UnPaid");
    const uses = await app.request(`/api/discount-codes/${codeId}`, { jar: admin });
    expect(((await uses.json()) as { uses: number }).uses).toBe(1);
    const { rows } = await app.db.pool.query("select key from job_keys where key like '%not-applied%'");
    expect(rows.length).toBe(1);
    expect((await page(back.url)).html).toContain("Your payment could not be applied");
  });
});
