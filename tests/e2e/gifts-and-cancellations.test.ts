import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { outbox } from "../support/mail";
import {
  inPayPalSubscription,
  main,
  payInSimulator,
  placeOrder,
  register,
  renewAutomatically,
  subscribeInSimulator,
  toast,
} from "../support/pages";

/**
 * Issue 33, items 13 and 15: days the studio gives read as given, not as a payment (My Orders, Today); a cancelled
 * automatic renewal mails the customer (listed and previewed with the other mails, at a real package's price); the
 * PayPal simulator says a subscription's period in words.
 */
let env: E2EEnv;
let admin: Page;
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E());
});
afterAll(() => env?.close());

const pricing = async (name: string) =>
  (
    await env.db.pool.query(
      "select id, data from content_entries where type = 'pricing' and data->>'packageName' = $1",
      [name],
    )
  ).rows[0] as { id: string; data: { packagePrice: number | string; packageValidity: number | string } };

describe("days given by the studio", () => {
  it("read 'Given by the studio' on My Orders, and Today counts them apart from payments", async () => {
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "gwen@example.org", password: "gwen-pass-123" });
    await payInSimulator(customer, await placeOrder(customer, { packageName: "Basic", name: "Gwen Gift" }));
    const {
      rows: [{ id: userId }],
    } = await env.db.pool.query(`select id from "user" where email = 'gwen@example.org'`);

    await admin.goto(`/customers/${userId}`);
    const grant = admin.getByTestId("grant-form");
    await grant.getByLabel("Days").fill("10");
    await grant.getByLabel("Reason (only the staff see it)").fill("A thank-you");
    await grant.getByRole("button", { name: "Give days" }).click();
    await expect.poll(() => toast(admin, "Membership extended").count()).toBeGreaterThan(0);

    await customer.goto("/my-order");
    const rows = customer.getByTestId("my-orders").locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    const given = rows.filter({ hasText: "Given by the studio" });
    expect(await given.count()).toBe(1);
    const text = (await given.textContent()) ?? "";
    expect(text).not.toContain("$0.00");
    expect(text).not.toContain("You Have Paid");
    expect(text).not.toMatch(/\bPaid\b/);
    expect(await rows.filter({ hasText: "You Have Paid" }).count()).toBe(1);

    await admin.goto("/today");
    const day = admin.getByTestId("today-sales-day");
    await expect.poll(() => day.textContent()).toContain("1 payment on");
    expect(await day.textContent()).toContain("1 membership given by the studio");
  });
});

describe("a cancelled automatic renewal", () => {
  it("the simulator says the period in words; cancelling mails the customer", async () => {
    const basic = await pricing("Basic");
    const validity = Number(basic.data.packageValidity);
    await renewAutomatically(admin, basic.id);
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "cass@example.org", password: "cass-pass-123" });
    const id = await placeOrder(customer, { packageName: "Basic", name: "Cass Cancel" });
    const subscriptionId = await subscribeInSimulator(customer, id, validity, async () => {
      expect(await customer.getByTestId("regular-cycle").textContent()).toContain(`every ${validity} days`);
    });

    // Cancelled in PayPal (the Subscriptions API's page): PayPal's webhook tells the site, which mails the customer.
    await inPayPalSubscription(customer, subscriptionId, "Cancel in PayPal");
    const mails = () =>
      outbox(env.server.dataDir).filter(
        (m) => m.to.includes("cass@example.org") && m.subject === "Your automatic renewal is cancelled",
      );
    await expect.poll(() => mails().length, { timeout: 20_000 }).toBe(1);
    expect(mails()[0]!.raw).toContain("Basic");
  });

  it("is listed and previewed with the other mails, at a price of the site's own packages", async () => {
    await admin.goto("/mail-settings");
    await main(admin).getByRole("link", { name: "Subscription cancelled" }).click();
    await expect
      .poll(() => main(admin).getByTestId("preview-subject").textContent())
      .toBe("Your automatic renewal is cancelled");
    expect(await main(admin).getByRole("switch", { name: "Send the Subscription cancelled mail" }).count()).toBe(1);

    const first = (
      await env.db.pool.query(
        "select data from content_entries where type = 'pricing' order by position, created_at limit 1",
      )
    ).rows[0].data as { packageName: string; packagePrice: number | string };
    await admin.goto("/mail-settings?kind=orderPlaced");
    const frame = admin.frameLocator('[data-testid="preview-frame"]');
    const price = `$${Number(first.packagePrice).toFixed(2)}`;
    await expect.poll(() => frame.getByText(price).count()).toBeGreaterThan(0);
    expect(await frame.getByText(first.packageName).count()).toBeGreaterThan(0);
  });
});
