import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { longDate } from "#domain/dates.ts";
import { startAdminE2E, type E2EEnv } from "../support/e2e";

/**
 * Issue 37 part 3's journey (decision 079): staff import a Paid Memberships Pro members list of 50 members, half with
 * an active membership, through the screens: the file's columns are recognised, the dry run says 50 new customers,
 * the import runs in the background with its progress; the customers list and a record show the file's end dates; a
 * second import of the same file changes nothing.
 */
const TZ = "Europe/London";
let env: E2EEnv;
let admin: Page;
beforeAll(async () => {
  ({ env, admin } = await startAdminE2E({ TZ }));
});
afterAll(() => env?.close());

const main = (page: Page) => page.getByRole("main");
const HEADER =
  "id,username,firstname,lastname,email,billing firstname,billing lastname,address1,address2,city,state,zipcode,country,phone,membership,membership_id,fee,term,discount_code_id,discount_code,joined,startdate,expires";

/** The members list PMPro writes: m/d/Y dates, "Never" for no end; members 1-25 active, 26-50 ended. */
function pmproFile(): { csv: string; ends: Map<string, string> } {
  const ends = new Map<string, string>();
  const lines = [HEADER];
  const now = new Date();
  for (let i = 1; i <= 50; i++) {
    const active = i <= 25;
    const end = new Date(now.getTime() + (active ? 30 + i : -30 - i) * 86_400_000);
    const us = `${end.getUTCMonth() + 1}/${end.getUTCDate()}/${end.getUTCFullYear()}`;
    const email = `member${i}@example.org`;
    if (active) ends.set(email, us);
    lines.push(
      [
        i,
        `member${i}`,
        "Mem",
        `Ber ${i}`,
        email,
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "GB",
        "",
        "Gold",
        2,
        "10.00",
        "Month",
        "",
        "",
        "1/15/2024",
        "1/15/2024",
        us,
      ].join(","),
    );
  }
  return { csv: lines.join("\n") + "\n", ends };
}

/** Upload, check and import the file through the screens; answers the import's page address. */
async function importThroughScreens(csv: string): Promise<string> {
  await admin.goto("/customers/import");
  await main(admin)
    .getByLabel(/CSV file/)
    .setInputFiles({ name: "members_list.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await main(admin).getByRole("button", { name: "Upload and choose columns" }).click();
  await expect
    .poll(
      async () =>
        `${admin.url()} ${await main(admin)
          .textContent()
          .catch(() => "")}`,
      { timeout: 20_000 },
    )
    .toMatch(/\/customers\/import\/[0-9a-f-]{36} /);
  await expect.poll(() => main(admin).getByLabel("The file is").inputValue(), { timeout: 15_000 }).toBe("pmpro");
  await expect
    .poll(() => main(admin).getByLabel("Membership ends").locator("option:checked").textContent())
    .toBe("expires");
  await main(admin).getByRole("button", { name: "Check the file" }).click();
  return admin.url();
}

describe("importing members", () => {
  it("imports a PMPro members list through the screens, and a second import of it changes nothing", async () => {
    const { csv, ends } = pmproFile();
    await importThroughScreens(csv);
    const counts = main(admin).getByTestId("import-counts");
    await expect.poll(() => counts.textContent(), { timeout: 30_000 }).toContain("New customer: 50");
    await main(admin).getByRole("button", { name: "Import 50 rows" }).click();
    await expect
      .poll(() => main(admin).getByTestId("import-progress").textContent(), { timeout: 60_000 })
      .toBe("50 of 50 rows done");
    await expect
      .poll(() => main(admin).getByTestId("import-state").textContent(), { timeout: 15_000 })
      .toContain("Imported");

    // The customers list: active members with the file's end date. Searched by address: the import creates them in one
    // instant, so the list's newest-first order among them is the ids' (random), and a page holds 20 of the 25.
    for (const email of ["member1@example.org", "member25@example.org"]) {
      await admin.goto(`/customers?state=active&q=${encodeURIComponent(email)}`);
      const row = main(admin).getByTestId("customers").getByRole("row").filter({ hasText: email });
      const [m, d, y] = ends.get(email)!.split("/").map(Number) as [number, number, number];
      const shown = longDate(new Date(Date.UTC(y, m - 1, d, 12)), TZ);
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(shown);
    }
    const { rows } = await env.db.pool.query(
      `select count(*)::int as n from "user" u join customer_totals t on t.user_id = u.id
       where u.email like 'member%@example.org' and t.membership_ends > now()`,
    );
    expect(rows[0].n).toBe(25);

    // A record: the membership until the file's day.
    const id = (await env.db.pool.query(`select id from "user" where email = 'member7@example.org'`)).rows[0].id;
    await admin.goto(`/customers/${id}`);
    const [m, d, y] = ends.get("member7@example.org")!.split("/").map(Number) as [number, number, number];
    await expect
      .poll(() => main(admin).textContent())
      .toContain(`Gold · until ${longDate(new Date(Date.UTC(y, m - 1, d, 12)), TZ)}`);

    // The same file again: every row unchanged, nothing to import.
    const before = await env.db.pool.query(`select count(*)::int as n from orders`);
    await importThroughScreens(csv);
    await expect.poll(() => counts.textContent(), { timeout: 30_000 }).toContain("Nothing to change: 50");
    expect(await main(admin).getByRole("button", { name: "Import 0 rows" }).isDisabled()).toBe(true);
    const after = await env.db.pool.query(`select count(*)::int as n from orders`);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  }, 180_000);
});
