import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedServer } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { withClient } from "../support/global-db";
import { databaseUrl, startBuiltServer, type RunningServer } from "../support/server";
import { holdsFor, until } from "../support/wait";
import { signIn, signUp } from "./support";

/**
 * Issue 12: two app instances on one PostgreSQL, and that PostgreSQL stopped and started under them (D3, D11).
 * The server is this file's own, so that it can be stopped.
 */
const ADMIN = { email: "twin-admin@example.org", password: "twin-admin-1" };
const dir = mkdtempSync(path.join(tmpdir(), "atelier-outage-"));
chmodSync(dir, 0o755);
let pg: EmbeddedServer;
let a: RunningServer;
let b: RunningServer;
let url: string;
let adminA = "";
let customerA = "";

beforeAll(async () => {
  pg = await startEmbeddedPostgres(dir, silentLogger);
  await withClient(pg.connection, (c) => c.query("create database atelier"));
  url = databaseUrl(pg.connection, "atelier");
  const env = {
    DATABASE_URL: url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_SECRET: "twin-secret-".padEnd(40, "x"),
    RATE_LIMIT_PUBLIC_FORMS: "100000",
  };
  a = await startBuiltServer(env);
  b = await startBuiltServer(env);
  adminA = await signIn(a.url, ADMIN.email, ADMIN.password);
  customerA = await signUp(a.url, "twin-customer@example.org");
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const bannerText = async (server: RunningServer) => await (await fetch(server.url + "/")).text();

/** Edits the banner's heading on A and answers how long B took to show it (ms), or -1 after `within` ms. */
async function propagation(within: number): Promise<number> {
  const [banner] = (await (await fetch(a.url + "/api/banner")).json()) as Record<string, unknown>[];
  const heading = `Heading ${randomBytes(4).toString("hex")}`;
  const { _id, ...fields } = banner!;
  const field = "bannerHeading";
  const res = await fetch(`${a.url}/api/update-banner/${String(_id)}`, {
    method: "PUT",
    headers: { cookie: adminA, "content-type": "application/json" },
    body: JSON.stringify({ ...fields, [field]: heading }),
  });
  expect(res.status, await res.text()).toBe(200);
  const started = Date.now();
  return until("B showing the new heading", async () => (await bannerText(b)).includes(heading), within, 25).then(
    () => Date.now() - started,
    () => -1,
  );
}

describe("two instances on one PostgreSQL", () => {
  it("an edit on one shows on the other at once; 16 payments of 8 orders sent to both apply exactly 8 times", async () => {
    await bannerText(b); // B has its snapshot
    const ms = await propagation(5_000);
    console.info(`two instances: a banner edit on A visible on B in ${ms} ms`);
    expect(ms).toBeGreaterThanOrEqual(0);

    const [pkg] = (await (await fetch(a.url + "/api/pricings")).json()) as { _id: string; packagePrice: number }[];
    const orders: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await fetch(a.url + "/api/new-order", {
        method: "POST",
        headers: { cookie: customerA, "content-type": "application/json" },
        body: JSON.stringify({ packageId: pkg!._id, customerName: "T", customerAddress: "A", customerCountry: "UK" }),
      });
      orders.push(((await res.json()) as { insertedId: string }).insertedId);
    }
    const receiver = (
      await withClient({ ...pg.connection, database: "atelier" }, (c) =>
        c.query("select coalesce((select paypal_email from payment_accounts limit 1), '') as r"),
      )
    ).rows[0].r as string;
    const messages = orders.map((id) =>
      new URLSearchParams({
        payment_status: "Completed",
        receiver_email: receiver || "payments@example.com",
        mc_gross: pkg!.packagePrice.toFixed(2),
        mc_currency: "USD",
        txn_id: `TWIN${randomBytes(6).toString("hex").toUpperCase()}`,
        custom: id,
      }).toString(),
    );
    await withClient({ ...pg.connection, database: "atelier" }, async (c) => {
      for (const m of messages) {
        await c.query("insert into paypal_simulator_messages (digest) values ($1)", [
          createHash("sha256").update(m).digest("hex"),
        ]);
      }
    });
    await Promise.all(
      messages.flatMap((m) =>
        [a, b].map((s) =>
          fetch(s.url + "/api/paypal/ipn", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: m,
          }),
        ),
      ),
    );
    const count = async (outcome: string) =>
      Number(
        (
          await withClient({ ...pg.connection, database: "atelier" }, (c) =>
            c.query("select count(*) from payment_notices where outcome = $1 and raw like 'payment_status=%TWIN%'", [
              outcome,
            ]),
          )
        ).rows[0].count,
      );
    const paid = async () =>
      Number(
        (
          await withClient({ ...pg.connection, database: "atelier" }, (c) =>
            c.query("select count(*) from orders where id = any($1) and payment_status = 'Paid'", [orders]),
          )
        ).rows[0].count,
      );
    await expect.poll(() => paid(), { timeout: 20_000 }).toBe(8);
    await expect.poll(() => count("applied"), { timeout: 20_000 }).toBe(8);
  });
});

describe("the database stopped and started under two running instances", () => {
  it("answers 503 with Retry-After, serves public pages, keeps people signed in, and recovers by itself", async () => {
    await bannerText(a); // a page in A's cache
    await pg.stop();
    const downAt = Date.now();
    await expect.poll(async () => (await fetch(a.url + "/healthz")).status, { timeout: 10_000 }).toBe(503);
    // An outage longer than the second after which the listener used to give up, the process answering throughout.
    await holdsFor("503 through the outage", 1500, async () => (await fetch(a.url + "/healthz")).status === 503);

    const home = await fetch(a.url + "/");
    expect(home.status, "an anonymous public page during the outage").toBe(200);
    const dashboard = await fetch(a.url + "/dashboard", { headers: { cookie: customerA }, redirect: "manual" });
    expect(dashboard.status, "a signed-in page during the outage").toBe(503);
    expect(dashboard.headers.get("retry-after")).toMatch(/^\d+$/);
    const me = await fetch(a.url + "/api/me", { headers: { cookie: customerA } });
    expect(me.status, "a signed-in call during the outage").toBe(503);
    expect(me.headers.get("retry-after")).toMatch(/^\d+$/);
    const write = await fetch(a.url + "/api/add-message", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "A", email: "a@example.org", subject: "S", message: "M" }),
    });
    expect(write.status, "a write during the outage").toBe(503);
    expect(write.headers.get("retry-after")).toMatch(/^\d+$/);
    const login = await fetch(a.url + "/login", { redirect: "manual" });
    expect(login.status).toBeLessThan(500);

    pg = await startEmbeddedPostgres(dir, silentLogger);
    const upAt = Date.now();
    for (const s of [a, b]) {
      await expect.poll(async () => (await fetch(s.url + "/healthz")).status, { timeout: 30_000 }).toBe(200);
    }
    const healthyAt = Date.now();
    expect((await fetch(a.url + "/api/me", { headers: { cookie: customerA } })).status, "still signed in").toBe(200);
    await bannerText(b); // B reads its snapshot again after the outage
    const ms = await propagation(20_000);
    console.info(
      `database outage: down ${upAt - downAt} ms; both instances healthy ${healthyAt - upAt} ms after it came back; ` +
        `then an edit on A visible on B in ${ms} ms (the cache lifetime is 60 s)`,
    );
    expect(ms, "content changes are heard again after the outage").toBeGreaterThanOrEqual(0);
  });
});
