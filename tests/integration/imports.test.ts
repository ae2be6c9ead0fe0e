import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerFiltersFromSearch } from "#domain/customers.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import type { ImportRecord, ImportRowRecord } from "#server/services/imports.ts";

/**
 * Issue 37 parts 3 and 4 (decision 079): member imports through every REST call, with every role; the dry run's
 * verdicts on bad rows; the import through the customers, grant and newsletter services (end dates exact, no mail);
 * a second import and a resumed one change nothing; an export imported into an empty install gives the same members.
 */
let app: TestApp;
const admin = new CookieJar();
let editor: CookieJar;
let customer: CookieJar;
const DAY = 86_400_000;

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "boss@example.org", ADMIN_PASSWORD: "boss-pass-1234" });
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  editor = await signUpStaff(app, app.db.pool, "ed@example.org", "Editor");
  customer = await signUp(app, "already@example.org");
}, 60_000);
afterAll(() => app?.close());

type Site = Pick<TestApp, "request" | "db" | "url">;

const api = (site: Site, path: string, init: { method?: string; json?: unknown; jar?: CookieJar } = {}) =>
  site.request(`/api${path}`, { method: init.method ?? "GET", json: init.json, jar: init.jar ?? admin });

async function ok<T>(res: Response, status = 200): Promise<T> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as T;
}

/** Uploads `bytes` as a browser's form does (multipart), answering the import. */
async function uploadFile(site: Site, bytes: Buffer | string, jar: CookieJar, name = "members.csv") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(typeof bytes === "string" ? Buffer.from(bytes) : bytes)]), name);
  return site.request("/api/customers/imports", {
    method: "POST",
    body: form,
    jar,
    headers: { accept: "application/json" },
  });
}

async function settled(site: Site, id: string, jar: CookieJar, states: string[]): Promise<ImportRecord> {
  let record: ImportRecord | undefined;
  await expect
    .poll(
      async () => {
        record = await ok<ImportRecord>(await api(site, `/customers/imports/${id}`, { jar }));
        return states.includes(record.state);
      },
      { timeout: 60_000, interval: 150 },
    )
    .toBe(true);
  return record!;
}

/** Upload, check with `settings`, and import: the import once done. */
async function importFile(site: Site, csv: string | Buffer, jar: CookieJar, settings: Record<string, unknown> = {}) {
  const uploaded = await ok<ImportRecord>(await uploadFile(site, csv, jar), 201);
  const res = await api(site, `/customers/imports/${uploaded.id}/mapping`, {
    method: "PUT",
    json: { preset: uploaded.preset, ...settings },
    jar,
  });
  await ok(res);
  const checked = await settled(site, uploaded.id, jar, ["checked", "failed"]);
  expect(checked.state, checked.error ?? "").toBe("checked");
  await ok(await api(site, `/customers/imports/${uploaded.id}/start`, { method: "POST", jar }));
  return { checked, done: await settled(site, uploaded.id, jar, ["done"]) };
}

const rowsOf = async (site: Site, id: string, action = "") =>
  ok<ImportRowRecord[]>(await api(site, `/customers/imports/${id}/rows?limit=100${action ? `&action=${action}` : ""}`));

async function snapshot(site: Site) {
  const { rows } = await site.db.pool.query(`
    select lower(u.email) as email, u.name, u.created_at, t.membership_ends,
      (select string_agg(o.package_name || ':' || o.package_price || ':' || o.payment_reference, ',' order by o.created_at)
       from orders o where o.user_id = u.id) as orders,
      (select s.state from subscribers s where lower(s.subemail) = lower(u.email)) as newsletter
    from "user" u left join customer_totals t on t.user_id = u.id
    where not exists (select 1 from admin_users a where lower(a.user_email) = lower(u.email))
    order by 1`);
  return rows as {
    email: string;
    name: string;
    created_at: Date;
    membership_ends: Date | null;
    orders: string | null;
    newsletter: string | null;
  }[];
}

const mailsTo = async (site: Site, address: string) =>
  Number(
    (
      await site.db.pool.query(
        `select count(*)::int as n from pgboss.job where name = 'send-mail' and lower(data->'mail'->>'to') = $1`,
        [address],
      )
    ).rows[0].n,
  );

describe("who may import", () => {
  it("answers each call to staff of the customers area only: 401 to a visitor, 403 to a customer and an editor", async () => {
    const mine = await ok<ImportRecord>(
      await api(app, "/customers/imports", { method: "POST", json: { csv: "email\nwho@example.org\n" } }),
      201,
    );
    const calls: [string, string, unknown?][] = [
      ["GET", "/customers/imports"],
      ["POST", "/customers/imports", { csv: "email\nwho@example.org\n" }],
      ["GET", `/customers/imports/${mine.id}`],
      ["GET", `/customers/imports/${mine.id}/rows`],
      ["PUT", `/customers/imports/${mine.id}/mapping`, { preset: "custom" }],
      ["POST", `/customers/imports/${mine.id}/start`],
    ];
    for (const [method, path, json] of calls) {
      const anon = await app.request(`/api${path}`, { method, json: json ?? (method === "GET" ? undefined : {}) });
      expect(anon.status, `${method} ${path} as a visitor`).toBe(401);
      for (const [who, jar] of [
        ["customer", customer],
        ["editor", editor],
      ] as const) {
        const res = await api(app, path, { method, json: json ?? (method === "GET" ? undefined : {}), jar });
        expect(res.status, `${method} ${path} as ${who}`).toBe(403);
      }
    }
    // A plain form (no JavaScript) is sent to the import's page, or back to the list with the refusal.
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(Buffer.from("email\nplain@example.org\n"))]), "plain.csv");
    const page = await app.request("/api/customers/imports", {
      method: "POST",
      body: form,
      jar: admin,
      headers: { accept: "text/html" },
    });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toMatch(/^\/customers\/import\/[0-9a-f-]{36}$/);
    const empty = new FormData();
    empty.append("file", new Blob([]), "empty.csv");
    const refused = await app.request("/api/customers/imports", {
      method: "POST",
      body: empty,
      jar: admin,
      headers: { accept: "text/html" },
    });
    expect(refused.headers.get("location")).toMatch(/^\/customers\/import\?error=The%20file%20is%20empty/);
    // The multipart door asks the same.
    expect((await uploadFile(app, "email\na@example.org\n", editor)).status).toBe(403);
    expect((await uploadFile(app, "email\na@example.org\n", new CookieJar())).status).toBe(401);
    // And the admin: every call answers.
    expect((await api(app, "/customers/imports")).status).toBe(200);
    expect((await api(app, `/customers/imports/${mine.id}/rows`)).status).toBe(200);
    // Starting before the check is refused in words.
    const early = await api(app, `/customers/imports/${mine.id}/start`, { method: "POST" });
    expect(early.status).toBe(409);
    await ok(await api(app, `/customers/imports/${mine.id}/mapping`, { method: "PUT", json: { preset: "custom" } }));
    await settled(app, mine.id, admin, ["checked"]);
    await ok(await api(app, `/customers/imports/${mine.id}/start`, { method: "POST" }));
    await settled(app, mine.id, admin, ["done"]);
  }, 120_000);
});

describe("the dry run", () => {
  it("says what each row does, and why each refused row is refused", async () => {
    const future = new Date(Date.now() + 40 * DAY).toISOString();
    const lines = [
      "email,name,expires,newsletter,joined,extra",
      `good@example.org,Good One,${future},yes,2024-01-02,`,
      "bad-address,Nope,,,,",
      `GOOD@example.org,Twice,,,,`,
      "date@example.org,Bad Date,31/31/2026,,,",
      "boss@example.org,The Boss,,,,",
      "already@example.org,Already Here,,no,,",
      "cells@example.org,Too,,,,,many",
    ];
    const latin1 = Buffer.from("latin@example.org,Caf\xe9,,,,\n", "latin1");
    const broken = 'quote@example.org,"Never closed,,,,\n';
    const file = Buffer.concat([Buffer.from(lines.join("\n") + "\n"), latin1, Buffer.from(broken)]);
    const uploaded = await ok<ImportRecord>(await uploadFile(app, file, admin), 201);
    expect(uploaded.preset).toBe("custom");
    expect(uploaded.mapping).toMatchObject({ email: 0, name: 1, membershipEnds: 2, newsletter: 3, joinedAt: 4 });
    expect(uploaded.ignored).toEqual(["extra"]);
    await ok(
      await api(app, `/customers/imports/${uploaded.id}/mapping`, { method: "PUT", json: { preset: "custom" } }),
    );
    const checked = await settled(app, uploaded.id, admin, ["checked"]);
    expect(checked.counts).toEqual({ create: 1, update: 1, skip: 0, refuse: 7 });
    const rows = await rowsOf(app, uploaded.id);
    const reasons = Object.fromEntries(rows.map((r) => [r.row, [r.action, r.reason]]));
    expect(reasons).toEqual({
      1: ["create", null],
      2: ["refuse", '"bad-address" is not an email address.'],
      3: ["refuse", "The email address is on row 1 already."],
      4: ["refuse", 'The membership end date "31/31/2026" is not a date.'],
      5: ["refuse", "This is a staff member's address: staff are not imported as customers."],
      6: ["update", null],
      7: ["refuse", "The row has 7 cells; the header names 6 columns."],
      8: ["refuse", "The row is not UTF-8 text."],
      9: ["refuse", "A quote opened in this row is never closed: the rest of the file could not be read."],
    });
    const refused = await api(app, `/customers/imports/${uploaded.id}/rows?action=refuse&limit=2&page=2`);
    expect(refused.headers.get("x-total-count")).toBe("7");
    expect(((await refused.json()) as ImportRowRecord[]).map((r) => r.row)).toEqual([4, 5]);
  }, 60_000);

  it("stops reading a file past 50 MB and keeps nothing of it", async () => {
    const { readdirSync } = await import("node:fs");
    const { Readable } = await import("node:stream");
    const dir = `${app.config.dataDir}/imports`;
    const before = readdirSync(dir).length;
    const chunk = Buffer.alloc(1024 * 1024, "a");
    let sent = 0;
    const big = Readable.from(
      (function* () {
        for (; sent < 60; sent++) yield chunk;
      })(),
    );
    await expect(
      app.services.imports.upload(big, "big.csv", { id: "x", email: "x@example.org" }),
    ).rejects.toMatchObject({
      status: 413,
    });
    expect(sent).toBeLessThan(60);
    expect(readdirSync(dir).length).toBe(before);
  });

  it("refuses a file that is not CSV text, or a mapping without the email", async () => {
    const binary = await uploadFile(app, Buffer.from("Caf\xe9,email\n", "latin1"), admin);
    expect(binary.status).toBe(400);
    expect(((await binary.json()) as { error: string }).error).toMatch(/not UTF-8/);
    expect((await uploadFile(app, "", admin)).status).toBe(400);
    const noEmail = await ok<ImportRecord>(await uploadFile(app, "who,when\nx,y\n", admin), 201);
    expect(noEmail.problems).toEqual(["Choose the column that holds the email address."]);
    const res = await api(app, `/customers/imports/${noEmail.id}/mapping`, {
      method: "PUT",
      json: { preset: "custom" },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/email address/);
  });
});

describe("importing", () => {
  it("creates customers, gives memberships ending exactly when the file says, keeps consent, and mails no one", async () => {
    const ends = new Date(Date.now() + 100 * DAY + 12_345);
    const csv = [
      "Email,Name,Membership Ends,Membership Package,Newsletter",
      `ann@example.org,Ann Imported,${ends.toISOString()},Gold,confirmed`,
      `ben@example.org,Ben,,,pending`,
      `cat@example.org,=1+2,2020-01-01T00:00:00Z,,`,
    ].join("\n");
    const { checked, done } = await importFile(app, csv, admin);
    expect(checked.counts).toEqual({ create: 3, update: 0, skip: 0, refuse: 0 });
    expect(done.cursor).toBe(3);
    const byEmail = Object.fromEntries((await snapshot(app)).map((r) => [r.email, r]));
    expect(byEmail["ann@example.org"]!.membership_ends!.toISOString()).toBe(ends.toISOString());
    expect(byEmail["ann@example.org"]!.orders).toBe("Gold:0.00:Imported");
    expect(byEmail["ann@example.org"]!.newsletter).toBe("confirmed");
    // Not confirmed and no tick: no subscriber, no mail.
    expect(byEmail["ben@example.org"]!.newsletter).toBeNull();
    // A formula is a name like any other; an ended membership is left out.
    expect(byEmail["cat@example.org"]).toMatchObject({ name: "=1+2", orders: null });
    for (const who of ["ann@example.org", "ben@example.org", "cat@example.org"])
      expect(await mailsTo(app, who)).toBe(0);
    // The record shows the end date.
    const id = (await app.db.pool.query(`select id from "user" where email = 'ann@example.org'`)).rows[0].id;
    const record = await ok<{ membership: { state: string; expiresAt: string } }>(await api(app, `/customers/${id}`));
    expect(record.membership.state).toBe("active");
    expect(record.membership.expiresAt).toBe(ends.toISOString());

    // The start is in the activity log, the staff member's.
    const { rows: log } = await app.db.pool.query(
      `select actor_email, changes from activity_log where entity = 'customer-import' and record_id = $1`,
      [done.id],
    );
    expect(log).toHaveLength(1);
    expect(log[0].actor_email).toBe("boss@example.org");

    // The same file again: every row skipped, nothing changed.
    const before = await snapshot(app);
    const again = await importFile(app, csv, admin);
    expect(again.checked.counts).toEqual({ create: 0, update: 0, skip: 3, refuse: 0 });
    expect(await snapshot(app)).toEqual(before);
  }, 120_000);

  it("sends the double opt-in mail to unconfirmed subscribers only when ticked", async () => {
    await importFile(app, "email,newsletter\nasked@example.org,pending\nsure@example.org,yes\n", admin, {
      sendOptIn: true,
    });
    expect(await mailsTo(app, "asked@example.org")).toBe(1);
    expect(await mailsTo(app, "sure@example.org")).toBe(0);
    const states = (await snapshot(app)).filter((r) => r.email.endsWith("d@example.org") || r.email.startsWith("sure"));
    expect(Object.fromEntries(states.map((r) => [r.email, r.newsletter]))).toMatchObject({
      "asked@example.org": "pending",
      "sure@example.org": "confirmed",
    });
  }, 60_000);

  it("reports customer.created and subscriber.confirmed to webhook endpoints, as a sign-up and a confirmation do", async () => {
    // An endpoint written as the webhooks service keeps one (its address is never reached: deliveries are counted).
    const { rows } = await app.db.pool.query(
      `insert into webhook_endpoints (url, events, secret) values ('https://hooks.example.org/in',
         array['customer.created', 'subscriber.confirmed'], 'whsec_' || encode(sha256('imports-test'::bytea), 'base64'))
       returning id`,
    );
    const endpoint = rows[0].id as string;
    try {
      await importFile(
        app,
        "email,name,newsletter\nhooked@example.org,Hook Ed,confirmed\nplain@example.org,Plain,\n",
        admin,
      );
      const { rows: sent } = await app.db.pool.query(
        `select event_type, payload from webhook_deliveries where endpoint_id = $1 order by event_type, payload->>'data'`,
        [endpoint],
      );
      expect(sent.map((d) => d.event_type)).toEqual(["customer.created", "customer.created", "subscriber.confirmed"]);
      expect(sent.map((d) => d.payload.data.customer?.email ?? d.payload.data.subscriber.subemail).sort()).toEqual([
        "hooked@example.org",
        "hooked@example.org",
        "plain@example.org",
      ]);
      expect(sent[0].payload.data.customer).toMatchObject({ emailVerified: false });
    } finally {
      await app.db.pool.query("delete from webhook_endpoints where id = $1", [endpoint]);
    }
  }, 120_000);

  it("resumes a stopped import from its cursor, never twice", async () => {
    const ends = new Date(Date.now() + 20 * DAY).toISOString();
    const csv = ["email,expires", ...Array.from({ length: 30 }, (_, i) => `resume${i}@example.org,${ends}`)].join("\n");
    const uploaded = await ok<ImportRecord>(await uploadFile(app, csv, admin), 201);
    await ok(
      await api(app, `/customers/imports/${uploaded.id}/mapping`, { method: "PUT", json: { preset: "custom" } }),
    );
    await settled(app, uploaded.id, admin, ["checked"]);
    await ok(await api(app, `/customers/imports/${uploaded.id}/start`, { method: "POST" }));
    await settled(app, uploaded.id, admin, ["done"]);
    // As a job killed after its batch's work but before its cursor was committed leaves it: importing, cursor back.
    await app.db.pool.query(`update imports set state = 'importing', cursor = 0 where id = $1`, [uploaded.id]);
    await app.services.imports.run(uploaded.id);
    await app.db.pool.query(`update imports set state = 'importing', cursor = 12 where id = $1`, [uploaded.id]);
    await app.services.imports.run(uploaded.id);
    const { rows } = await app.db.pool.query(
      `select count(distinct u.id)::int as customers, count(o.id)::int as orders from "user" u
       join orders o on o.user_id = u.id where u.email like 'resume%@example.org'`,
    );
    expect(rows[0]).toEqual({ customers: 30, orders: 30 });
    expect((await api(app, `/customers/imports/${uploaded.id}`).then((r) => r.json())) as ImportRecord).toMatchObject({
      state: "done",
      cursor: 30,
    });
  }, 60_000);
});

describe("the round trip", () => {
  it("an export imported into an empty install gives the same customers, memberships and subscribers", async () => {
    const table = await app.services.customers.csv(customerFiltersFromSearch(new URLSearchParams()));
    const { csvStream } = await import("#app/lib/csv.server.ts");
    const chunks: Buffer[] = [];
    for await (const chunk of csvStream(table)) chunks.push(chunk as Buffer);
    const exported = Buffer.concat(chunks);
    const fresh = await startTestApp({ ADMIN_EMAIL: "boss@example.org", ADMIN_PASSWORD: "boss-pass-1234" });
    try {
      await fresh.services.accounts.ensureFirstAdmin();
      const jar = await signInAsAdmin(fresh);
      const uploaded = await ok<ImportRecord>(await uploadFile(fresh, exported, jar), 201);
      expect(uploaded.preset).toBe("ours");
      await importFile(fresh, exported, jar);
      const there = await snapshot(fresh);
      const here = await snapshot(app);
      // Same people, names, join moments, membership ends (exact) and packages, and subscribers who confirmed.
      const shape = (rows: Awaited<ReturnType<typeof snapshot>>) =>
        rows.map((r) => ({
          email: r.email,
          name: r.name,
          joined: r.created_at.toISOString(),
          ends: r.membership_ends && r.membership_ends > new Date() ? r.membership_ends.toISOString() : null,
          newsletter: r.newsletter === "confirmed" ? "confirmed" : null,
        }));
      expect(shape(there)).toEqual(shape(here));
      expect(there.filter((r) => r.membership_ends).length).toBeGreaterThan(30);
    } finally {
      await fresh.close();
    }
  }, 180_000);
});
