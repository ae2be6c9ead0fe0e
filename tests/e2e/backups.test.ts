import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptSignIn, signUp } from "../support/accounts";
import { ADMIN, startAdminE2E, type E2EEnv } from "../support/e2e";
import { main, toast } from "../support/pages";
import { startLocalS3, type LocalS3 } from "../support/s3";
import { ROOT, startBuiltServer } from "../support/server";

/**
 * Issue 24, part 1: the back office's Backups screen, and `npm run backup` / `npm run restore` as docs/operations/backups.md says.
 * Issue 38, part 4: with BACKUP_TARGET on a local S3-compatible server, the backup lands in the bucket too, and its
 * restore test from the screen restores it and counts its rows.
 */
let env: E2EEnv;
let admin: Page;
let s3: LocalS3;
const work = mkdtempSync(path.join(tmpdir(), "atelier-e2e-backups-"));
chmodSync(work, 0o755); // the embedded clusters inside run as the postgres user

beforeAll(async () => {
  s3 = await startLocalS3(["atelier-e2e-backups"]);
  ({ env, admin } = await startAdminE2E({
    BACKUP_DIR: path.join(work, "screen"),
    BACKUP_TARGET: "s3://atelier-e2e-backups/site/",
    ...s3.env,
  }));
});
afterAll(async () => {
  await env?.close();
  await s3?.stop();
  rmSync(work, { recursive: true, force: true });
});

const cookies = async (page: Page) => (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

describe("the Backups screen", () => {
  it("starts a backup now, lists it with its size and row counts, and downloads it", async () => {
    await admin.goto("/admin");
    await admin.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Backups" }).click();
    await expect.poll(() => main(admin).getByRole("heading", { level: 1 }).textContent()).toBe("Backups");
    const table = main(admin).getByTestId("backups");
    expect(await table.textContent()).toContain("No backup yet");

    await main(admin).getByRole("button", { name: "Back up now" }).click();
    await toast(admin, "The backup has started.").first().waitFor();
    await expect
      .poll(
        async () => {
          await admin.goto("/backups");
          return table.getByRole("row").count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(2); // the header and the backup
    const row = await table.getByRole("row").nth(1).textContent();
    expect(row).toContain("Started in the back office");
    expect(row).toContain("On this server and in the bucket");
    expect(row).toMatch(/\d+ KB|\d+\.\d MB/);
    expect(row).toMatch(/[\d,]+ in all: \d+ orders, 1 account, \d+ images/);

    const link = table.getByRole("link", { name: /^Download/ });
    const href = (await link.getAttribute("href"))!;
    expect(href).toMatch(/^\/backups\/atelier-backup-\d{8}T\d{6}Z-manual\.tar$/);
    const res = await fetch(env.server.url + href, { headers: { cookie: await cookies(admin) } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-tar");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${href.split("/").pop()}"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 13).toString()).toBe("manifest.json");
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);

    // Not to a customer, and not a file outside the backups.
    const customer = await signUp(env.server, "peeking@example.org");
    expect(
      (await fetch(env.server.url + href, { headers: { cookie: customer.header() }, redirect: "manual" })).status,
    ).toBe(403);
    const outside = await fetch(`${env.server.url}/backups/..%2Fsecrets%2Fauth-secret`, {
      headers: { cookie: await cookies(admin) },
    });
    expect(outside.status).toBe(404);
  });
});

describe("a restore test of the bucket's copy, from the screen", () => {
  it("restores the backup into a scratch database and shows every table's rows, as many as the backup holds", async () => {
    await admin.goto("/backups");
    const row = main(admin).getByTestId("backups").getByRole("row").nth(1);
    await row.getByRole("button", { name: /^Test restore \(in the bucket\)/ }).click();
    await toast(admin, "The restore test has started.").first().waitFor();
    // The screen looks again by itself while the test runs.
    const drills = main(admin).getByTestId("backup-drills");
    await expect
      .poll(async () => (await drills.getByRole("row").nth(1).textContent()) ?? "", { timeout: 60_000, interval: 250 })
      .toMatch(/Passed: [\d,]+ rows restored in \d+ tables/);
    const result = (await drills.getByRole("row").nth(1).textContent())!;
    expect(result).toContain("From the bucket");
    expect(result).toContain("matched the checksum stored with it in the bucket");
    await drills.getByText("Rows and checksums per table").click();
    const tables = drills.getByTestId("drill-tables");
    const users = await tables
      .getByRole("row", { name: /^user\b/ })
      .getByRole("cell")
      .allTextContents();
    expect(users.slice(0, 3)).toEqual(["user", "1", "1"]);
    const orders = await tables
      .getByRole("row", { name: /^orders\b/ })
      .getByRole("cell")
      .allTextContents();
    expect(orders[1]).toBe(orders[2]);

    // Asking for one is the backups area's, as the screen is: a customer is refused, a visitor sent to sign in.
    const name = (await drills.locator("code").first().textContent())!;
    const ask = (cookie?: string) =>
      fetch(`${env.server.url}/backups`, {
        method: "POST",
        redirect: "manual",
        headers: { origin: env.server.url, ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams({ intent: "drill", name, place: "bucket" }),
      });
    const customer = await signUp(env.server, "drill-peek@example.org");
    expect((await ask(customer.header())).status).toBe(403);
    expect((await ask()).status).toBe(302);
  });
});

/** `npm run …` as a person types it, in the project folder (the scripts run TypeScript through tsx). */
function npm(args: string[], env: Record<string, string>) {
  const res = spawnSync("npm", ["run", "--silent", ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    encoding: "utf8",
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe("npm run backup, then npm run restore into a fresh data folder, as docs/operations/backups.md says", () => {
  it("backs up the running app's embedded database; the restored folder starts with the same accounts", async () => {
    const first = path.join(work, "site");
    const restored = path.join(work, "restored");
    const site = await startBuiltServer({ ...ADMIN_ENV, DATABASE_URL: "" }, { dataDir: first });
    try {
      await signUp(site, "kept@example.org", { password: "kept-pass-1" });
      const backup = npm(["backup"], { DATA_DIR: first, DATABASE_URL: "" });
      expect(backup.code, backup.out).toBe(0);
      expect(backup.out).toContain("npm run restore");
      const [name] = readdirSync(path.join(first, "backups"));
      expect(name).toMatch(/-command\.tar$/);
      const file = path.join(first, "backups", name!);

      // A folder in use, or one that holds a database, is refused.
      const busy = npm(["restore", file], { DATA_DIR: first, DATABASE_URL: "" });
      expect(busy.code).toBe(1);
      expect(busy.out).toContain("Another app process");

      const restore = npm(["restore", file], { DATA_DIR: restored, DATABASE_URL: "" });
      expect(restore.code, restore.out).toBe(0);
      expect(restore.out).toContain(`Start the app on it: DATA_DIR=${restored} npm start`);
    } finally {
      await site.stop();
    }

    const again = await startBuiltServer({ ...ADMIN_ENV, DATABASE_URL: "" }, { dataDir: restored });
    try {
      expect((await attemptSignIn(again, "kept@example.org", "kept-pass-1")).res.status).toBe(200);
      expect((await attemptSignIn(again, ADMIN.email, ADMIN.password)).res.status).toBe(200);
    } finally {
      await again.stop();
    }
  }, 120_000); // two embedded clusters started and two servers: about 55 s on a loaded two-core machine
});

const ADMIN_ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SEED_DEMO_CONTENT: "false" };
