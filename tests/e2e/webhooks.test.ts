import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { ADMIN, logIn, startE2E, type E2EEnv } from "../support/e2e";
import { main, payInSimulator, placeOrder, register, toast } from "../support/pages";
import { startWebhookListener } from "../support/webhook-listener";
import { axeViolations } from "../support/axe";

/**
 * Issue 37 part 2 in Chromium, its "Done when": an Admin adds a webhook endpoint (a listener in this test, allowed by
 * WEBHOOKS_ALLOW_PRIVATE) on /webhooks, a customer pays on the PayPal simulator, and `order.paid` arrives at the
 * listener signed: the standardwebhooks library's own verifier accepts it with the secret the endpoint's page shows.
 */
let env: E2EEnv;
let listener: Awaited<ReturnType<typeof startWebhookListener>>;
beforeAll(async () => {
  listener = await startWebhookListener();
  env = await startE2E({ WEBHOOKS_ALLOW_PRIVATE: "1" });
});
afterAll(async () => {
  await env?.close();
  await listener?.close();
});

describe("webhooks", () => {
  it("an endpoint added in the back office receives order.paid, signed, after a simulator payment", async () => {
    const admin = await newPage(env.browser, env.server.url);
    await logIn(admin, ADMIN.email, ADMIN.password);
    await admin.goto("/webhooks");
    const add = main(admin).getByTestId("webhook-add");
    await add.getByLabel("Address").fill(`${listener.url}/e2e`);
    await add.getByLabel("Description").fill("Bookkeeping");
    await add.getByRole("checkbox", { name: "order.paid" }).check();
    await add.getByRole("button", { name: "Add the endpoint" }).click();
    await expect.poll(() => toast(admin, "The endpoint is added").count()).toBeGreaterThan(0);
    await main(admin)
      .getByTestId("webhook-endpoints")
      .getByRole("link", { name: `${listener.url}/e2e` })
      .click();
    await admin.waitForURL((u) => u.pathname.startsWith("/webhooks/"));
    await main(admin).getByText("Show the secret").click();
    const secret = (await main(admin).getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);

    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "hook-buyer@example.org", password: "hook-buyer-pass-1" });
    const id = await placeOrder(customer, { packageName: "Basic" });
    await payInSimulator(customer, id);

    const paid = () => listener.ofType("order.paid").filter((h) => h.path === "/e2e");
    await expect.poll(() => paid().length, { timeout: 15_000 }).toBe(1);
    const hook = paid()[0]!;
    const event = listener.verified(hook, secret) as unknown as {
      data: { order: { id: string; paymentStatus: string } };
    };
    expect(event.data.order).toMatchObject({ id, paymentStatus: "Paid" });
    // The endpoint's page lists the delivery as delivered, with the receiver's answer.
    await expect
      .poll(
        async () => {
          await admin.reload();
          return main(admin).getByTestId("webhook-deliveries").getByText("Delivered").count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    // The endpoint's page, with a delivery in its table (the accessibility suite meets no endpoint).
    expect(await axeViolations(admin)).toEqual([]);
    await customer.context().close();
    await admin.context().close();
  });
});
