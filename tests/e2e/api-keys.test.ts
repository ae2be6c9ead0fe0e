import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, toast } from "../support/pages";
import { axeViolations } from "../support/axe";

/**
 * Issue 37, part 1 (decision 077), end to end: an Admin makes a key on the API keys screen, reads its secret there
 * once, and lists the orders with the real curl against the built server; revoked in one click, the key is refused.
 */
const run = promisify(execFile);
let env: E2EEnv;
let admin: Page;
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E());
});
afterAll(() => env?.close());

/** curl's answer to GET `path` with the key: its status line's code and its body. */
async function curl(path: string, key: string): Promise<{ status: number; body: string }> {
  const { stdout } = await run("curl", [
    "--silent",
    "--show-error",
    "--header",
    `Authorization: Bearer ${key}`,
    "--write-out",
    "\n%{http_code}",
    `${env.server.url}${path}`,
  ]);
  const at = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

describe("an API key", () => {
  it("is made on its screen, shown once, lists the orders with curl, and is refused once revoked", async () => {
    await admin.goto("/api-keys");
    const add = main(admin).getByTestId("api-key-add");
    await add.getByLabel("Integration").fill("Bookkeeping");
    await add.getByLabel("Access").selectOption("read");
    await add.getByRole("checkbox", { name: "Orders" }).check();
    await add.getByRole("button", { name: "Make API key" }).click();
    const shown = main(admin).getByTestId("api-key-value");
    await expect.poll(() => shown.count()).toBe(1);
    const key = (await shown.textContent())!.trim();
    expect(key).toMatch(/^atl_[0-9a-f]{12}_/);
    expect(await main(admin).getByRole("button", { name: "Copy" }).count()).toBe(1);
    // The screen with its key shown and listed passes axe (the back office's other pages are checked empty).
    expect(await axeViolations(admin, "/api-keys")).toEqual([]);

    const orders = await curl("/api/orders", key);
    expect(orders.status).toBe(200);
    expect(Array.isArray(JSON.parse(orders.body))).toBe(true);
    const customers = await curl("/api/customers", key);
    expect(customers.status).toBe(403);
    expect(JSON.parse(customers.body)).toMatchObject({ area: "customers" });

    // Listed with its use, never its secret; opened again, the page no longer shows it.
    await admin.goto("/api-keys");
    const table = main(admin).getByTestId("api-keys");
    await expect.poll(() => table.getByText("Bookkeeping", { exact: true }).count()).toBe(1);
    expect(await main(admin).textContent()).not.toContain(key);
    expect(await table.textContent()).toContain(key.slice(0, 16));

    await table.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => toast(admin, "The key is revoked").count()).toBeGreaterThan(0);
    expect((await curl("/api/orders", key)).status).toBe(401);
  }, 60_000);
});
