import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASED_NAME } from "#domain/privacy.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { IMPORT_MESSAGES, type ImportRecord, type ImportRowRecord } from "#server/services/imports.ts";
import { attemptSignIn, signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { tracesOf } from "../support/traces";
import { CookieJar } from "../support/session";

/**
 * Issue 39 part 2 (decision 086): each store forgets the person through its own module's forgetter. The stores the
 * sweep of privacy.test.ts finds nothing in only because its story never fills them are filled here: an address the
 * customer used before (on an order, a message, a signup, a failed sign-in), another name on an order, webhook
 * deliveries, member import rows (one not yet imported), newsletter recipients and the suppression list. Then the same
 * sweep of every text and JSON column, and what the others' records keep.
 */
let app: TestApp;
const admin = new CookieJar();
let userId = "";
let adminId = "";
const OLD = "mary.fairfax@example.org";
const NEW = "mary.somerville@example.org";
const ORDER_NAME = "Mary Fairfax";
const ACCOUNT_NAME = "Mary Somerville";
const OTHER = "caroline.herschel@example.org";
let importId = "";
let newsletterId = "";
let uncheckedWithHer = "";
let uncheckedWithout = "";

const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
  app.request(`/api${path}`, { method: init.method ?? "GET", json: init.json, jar: admin });

async function ok<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

async function importSettled(states: string[], id = importId): Promise<ImportRecord> {
  let record: ImportRecord | undefined;
  await expect
    .poll(
      async () => {
        record = await ok<ImportRecord>(await api(`/customers/imports/${id}`));
        return states.includes(record.state);
      },
      { timeout: 60_000, interval: 150 },
    )
    .toBe(true);
  return record!;
}

async function upload(csv: string): Promise<ImportRecord> {
  const form = new FormData();
  form.append("file", new Blob([csv]), "members.csv");
  const res = await app.request("/api/customers/imports", {
    method: "POST",
    body: form,
    jar: admin,
    headers: { accept: "application/json" },
  });
  return ok<ImportRecord>(res, 201);
}

const message = (email: string, name: string) =>
  app.request("/api/add-message", {
    method: "POST",
    json: { name, email, number: "+44 20 7946 0001", subject: "Library", message: "Hello" },
  });

beforeAll(async () => {
  app = await startTestApp({
    ADMIN_EMAIL: "studio@example.org",
    ADMIN_PASSWORD: "studio-pass-long-1",
    RATE_LIMIT_PUBLIC_FORMS: "1000",
    WEBHOOKS_ALLOW_PRIVATE: "1",
    WEBHOOKS_RETRY_SCHEDULE: "0",
    WEBHOOKS_TIMEOUT_SECONDS: "1",
  });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  adminId = (await app.services.accounts.userByEmail("studio@example.org"))!.id;
  // Every event to a receiver that is not there: its deliveries stay in the outbox, failing.
  await ok(await api("/webhooks", { method: "POST", json: { url: "http://127.0.0.1:9/hook", events: ["all"] } }), 201);

  // Under the old address: the account, an order under another name, a message, a signup, a failed sign-in.
  const customer = await signUp(app, OLD, { name: ACCOUNT_NAME });
  userId = (await app.services.accounts.userByEmail(OLD))!.id;
  const [pkg] = (await (await app.request("/api/pricings")).json()) as { _id: string }[];
  const order = await app.request("/api/new-order", {
    method: "POST",
    json: {
      packageId: pkg!._id,
      customerName: ORDER_NAME,
      customerAddress: "3 Burntisland Rd",
      customerCountry: "United Kingdom",
    },
    jar: customer,
  });
  expect(order.status, await order.clone().text()).toBe(201);
  expect((await message(OLD, ORDER_NAME)).status).toBe(201);
  expect((await app.request("/api/add-subscriber", { method: "POST", json: { subemail: OLD } })).status).toBe(202);
  expect((await attemptSignIn(app, OLD, "not-her-password-1")).res.status).toBe(401);

  // Then the address changed (as a confirmed change leaves it), and the new one is used too.
  await app.db.pool.query(`update "user" set email = $1 where id = $2`, [NEW, userId]);
  expect((await message(NEW, ACCOUNT_NAME)).status).toBe(201);
  expect((await message(OTHER, "Caroline Herschel")).status).toBe(201);
  await ok(await api("/suppressions", { method: "POST", json: { address: NEW, note: "Asked by phone" } }), 201);

  // A newsletter's audience: the old address already sent, the new one waiting, someone else waiting.
  const { rows } = await app.db.pool.query(
    `insert into newsletters (subject, audience, created_by) values ('Spring', '{subscribers}', $1) returning id`,
    [adminId],
  );
  newsletterId = rows[0].id;
  await app.db.pool.query(
    `insert into newsletter_recipients (newsletter_id, address, status, error, sent_at) values
       ($1, $2, 'sent', null, now()), ($1, $3, 'failed', $4, null), ($1, $5, 'queued', null, null)`,
    [newsletterId, OLD, NEW, `550 <${NEW}> mailbox full`, OTHER],
  );

  // A member import, checked and not started: a row for her old address (a new customer to it), one for someone else.
  const uploaded = await upload(`Email,Name\n${OLD},${ORDER_NAME}\n${OTHER},Caroline Herschel\n`);
  importId = uploaded.id;
  // Two files uploaded and never checked: one holds her new address (in other letters), one does not.
  uncheckedWithHer = (await upload(`Name,E-mail\nMary,${NEW.toUpperCase()}\n`)).id;
  uncheckedWithout = (await upload(`Name,E-mail\nCaroline,${OTHER}\n`)).id;
  await ok(await api(`/customers/imports/${importId}/mapping`, { method: "PUT", json: { preset: uploaded.preset } }));
}, 90_000);
afterAll(() => app?.close());

describe("erasure, store by store (decision 086)", () => {
  it("finds every address and name the person used in the stores that held them, before", async () => {
    const checked = await importSettled(["checked", "failed"]);
    expect([checked.state, checked.counts.create]).toEqual(["checked", 2]);
    const held = await tracesOf(app.db.pool, [OLD, NEW, ORDER_NAME]);
    for (const store of [
      "public.webhook_deliveries",
      "public.import_rows",
      "public.newsletter_recipients",
      "public.suppressions",
      "public.messages",
      "public.subscribers",
      "public.rate_limiter",
      "pgboss.job",
    ])
      expect(
        held.some((t) => t.startsWith(`"${store.replace(".", '"."')}"`)),
        store,
      ).toBe(true);
  });

  it("leaves none of them anywhere, and keeps the others' records and what the stores must keep", async () => {
    const res = await api(`/customers/${userId}`, { method: "DELETE" });
    expect(res.status, await res.clone().text()).toBe(200);

    expect(await tracesOf(app.db.pool, [OLD, NEW, ORDER_NAME, ACCOUNT_NAME, "Fairfax", "Somerville"])).toEqual([]);

    // The newsletter's figures stay true: what was sent still counts, the waiting one is not sent, others untouched.
    const { rows: recipients } = await app.db.pool.query(
      `select address, status, error from newsletter_recipients where newsletter_id = $1 order by status`,
      [newsletterId],
    );
    expect(recipients).toEqual([
      { address: expect.stringMatching(/@erased\.invalid$/), status: "failed", error: null },
      { address: OTHER, status: "queued", error: null },
      { address: expect.stringMatching(/@erased\.invalid$/), status: "sent", error: null },
    ]);

    // The import: her row refused and the figures counted again; someone else's row as it was.
    const record = await ok<ImportRecord>(await api(`/customers/imports/${importId}`));
    expect(record.counts).toMatchObject({ create: 1, refuse: 1 });
    const rows = await ok<ImportRowRecord[]>(await api(`/customers/imports/${importId}/rows?limit=100`));
    expect(rows).toMatchObject([
      { row: 1, email: null, action: "refuse", reason: IMPORT_MESSAGES.erased, name: null },
      { row: 2, email: OTHER, action: "create", name: "Caroline Herschel" },
    ]);

    // The files that held her: the checked one is gone (its rows remain to import), the unchecked one failed with why.
    expect(existsSync(path.join(app.config.dataDir, "imports", `${importId}.csv`))).toBe(false);
    const failed = await ok<ImportRecord>(await api(`/customers/imports/${uncheckedWithHer}`));
    expect([failed.state, failed.error]).toEqual(["failed", IMPORT_MESSAGES.fileErased]);
    const untouched = await ok<ImportRecord>(await api(`/customers/imports/${uncheckedWithout}`));
    expect(untouched.state).toBe("uploaded");
    expect(existsSync(path.join(app.config.dataDir, "imports", `${uncheckedWithout}.csv`))).toBe(true);

    // Someone else's message stays; the receivers still hear of the erasure (the account's id only).
    const { rows: kept } = await app.db.pool.query(`select count(*)::int as n from messages where email = $1`, [OTHER]);
    expect(kept[0].n).toBe(1);
    const { rows: erased } = await app.db.pool.query(
      `select payload from webhook_deliveries where event_type = 'customer.erased'`,
    );
    expect(erased.map((r) => r.payload.data.customer.id)).toEqual([userId]);
    // The suppression she was put on is gone from the list and named by the placeholder in the log.
    const { rows: log } = await app.db.pool.query(`select record_id from activity_log where entity = 'suppression'`);
    expect(log).toEqual([{ record_id: ERASED_NAME }]);
  });

  it("an import started after the erasure does not bring her back; checking its file again says why it cannot", async () => {
    await ok(await api(`/customers/imports/${importId}/start`, { method: "POST" }));
    const done = await importSettled(["done", "failed"]);
    expect(done.state, done.error ?? "").toBe("done");
    expect(await app.services.accounts.userByEmail(OTHER)).toBeTruthy();
    expect(await app.services.accounts.userByEmail(OLD)).toBeFalsy();
    expect(await tracesOf(app.db.pool, [OLD, ORDER_NAME])).toEqual([]);
    await ok(
      await api(`/customers/imports/${uncheckedWithHer}/mapping`, { method: "PUT", json: { preset: "custom" } }),
    );
    const again = await importSettled(["failed"], uncheckedWithHer);
    expect(again.error).toBe(IMPORT_MESSAGES.fileErased);
  });
});
