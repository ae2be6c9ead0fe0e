import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { startE2E, type E2EEnv } from "../support/e2e";
import { chooseInPayPal, main, openOrderForm, register, toPayPal } from "../support/pages";

/**
 * A newcomer's local start (issue 10, part 8): no PUBLIC_URL, so the site's address is http://localhost:PORT, and the
 * server listens on every loopback name. Whichever of them the browser opened, the pay button reaches the simulator
 * and the payment completes.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E({ PUBLIC_URL: "", HOST: "::" });
});
afterAll(() => env?.close());

describe("a newcomer's first hour", () => {
  it("the start log names the address to open", () => {
    expect(env.server.output()).toContain(`ready: open http://localhost:${env.server.port} in a browser`);
  });

  it.each(["localhost", "127.0.0.1", "[::1]"])(
    "on http://%s the pay button reaches the simulator and the payment completes",
    async (host) => {
      const origin = `http://${host}:${env.server.port}`;
      const page = await newPage(env.browser, origin);
      // The helper answers every other host locally; this one is ours.
      await page.unrouteAll();
      const email = `first-hour-${host.replace(/\W/g, "")}@example.org`;
      await register(page, { email, password: "first-hour-1" });

      await openOrderForm(page, "Basic");
      await main(page).getByLabel("Full Name").fill("Fay Newcomer");
      await main(page).getByLabel("Address").fill("1 First Street, Leeds");
      await main(page).getByLabel("Country").fill("United Kingdom");
      await main(page).getByRole("button", { name: "Place Order Now" }).click();
      await page.waitForURL((u) => u.pathname === "/pending-order");
      const id = new URL(page.url()).searchParams.get("order")!;

      await toPayPal(page, id);
      expect(new URL(page.url()).origin).toBe(origin);
      await chooseInPayPal(page, id);
      expect(new URL(page.url()).origin).toBe(origin);
      await expect
        .poll(() => page.getByTestId("payment-state").getAttribute("data-status"), { timeout: 15_000 })
        .toBe("Paid");
      await page.context().close();
    },
  );
});
